import type { ApiErrorInfo } from '../api/http.js';
import type { LocationRow } from '../api/types.js';
import type { ViewRequest } from './order.js';

/**
 * The messages between the page and the locations worker, which loads a client's locations page by
 * page, parses them and sorts and filters them, so that the page only ever shows rows.
 */
export type ToListWorker =
  /** Start a list with the rows the page already has; the worker loads the rest from `clientId`'s list. */
  | { type: 'load'; listId: number; clientId: string; first: LocationRow[]; total: number }
  /** The rows to show from now on, re-sent as more rows arrive. */
  | { type: 'view'; listId: number; seq: number; request: ViewRequest }
  | { type: 'drop'; listId: number }
  | { type: 'token'; token: string | null };

export type FromListWorker =
  /** The next rows in arrival order: the page appends them, and views number rows in that order. */
  | { type: 'rows'; listId: number; rows: LocationRow[] }
  | { type: 'view'; listId: number; seq: number; order: Int32Array; rowCount: number }
  | { type: 'loaded'; listId: number }
  | { type: 'failed'; listId: number; error: ApiErrorInfo | { status: 0; message: string } }
  | { type: 'need-token'; renew: boolean };
