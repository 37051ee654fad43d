import type { ApiErrorInfo } from '../api/http.js';
import type { Health, LocationRow } from '../api/types.js';
import type { ViewRequest } from './order.js';

/**
 * The messages between the page and the locations worker. The worker holds a client's whole list
 * (loaded page by page, sorted and filtered there); the page holds only the rows around what it
 * shows, asked for by place in the current view.
 */
export type ToListWorker =
  /** Start a list with the rows the page already has; the worker loads the rest of `clientId`'s list. */
  | { type: 'load'; listId: number; clientId: string; first: LocationRow[]; total: number }
  /** The rows to show from now on (view number `seq`); the worker answers with its first `size` rows. */
  | { type: 'view'; listId: number; seq: number; request: ViewRequest; size: number }
  /** The places [start, end) of view `seq` that the page wants. */
  | { type: 'range'; listId: number; seq: number; start: number; end: number }
  | { type: 'find'; listId: number; locationId: string }
  /** The rows the current view shows, for the CSV export: all, or those at places [start, end). */
  | { type: 'export'; listId: number; start?: number; end?: number }
  /** Which of these ids the current view shows (a selection read from the address): answered by `shown`. */
  | { type: 'shown'; listId: number; ids: string[] }
  | { type: 'drop'; listId: number }
  | { type: 'token'; token: string | null };

export interface ListProgress {
  /** Rows received from the server so far, and whether that is all of them. */
  received: number;
  loaded: boolean;
  counts: Record<Health, number>;
}

export type FromListWorker =
  /**
   * Rows of view `seq` from place `start` on. `version` changes whenever the places move (a new view,
   * or more rows arrived): rows of an older version are then no longer where they were.
   */
  | ({
      type: 'window';
      listId: number;
      seq: number;
      version: number;
      /** How many rows the view shows. */
      count: number;
      start: number;
      rows: LocationRow[];
    } & ListProgress)
  | { type: 'found'; listId: number; locationId: string; location: LocationRow | null }
  | { type: 'export'; listId: number; rows: LocationRow[]; done: boolean }
  | { type: 'shown'; listId: number; ids: string[] }
  | { type: 'failed'; listId: number; error: ApiErrorInfo | { status: 0; message: string } }
  | { type: 'need-token'; renew: boolean };
