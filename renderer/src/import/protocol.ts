import type { BlankCells, Changes, ImportMode, RowAction, RowField } from '../../../server/locations/schemas.js';
import type { LookableField } from '../../../server/imports/look.js';
import type { ApiErrorInfo } from '../api/http.js';
import type { DryRunRow, Duplicate, DuplicateHandling, Health, ImportRow } from '../api/types.js';
import type { TextEncodingName } from './encodings.js';
import type { ColumnOptions } from './columns/column-options.js';
import type { ColumnMapping } from './header-mapping.js';
import type { LineProblem } from './parse-csv.js';

/** The messages between the page and the import worker, which holds the file's rows so the page never has to. */

export type ImportStage = 'reading' | 'parsing' | 'checking' | 'importing';

export interface FileSummary {
  name: string;
  size: number;
  encoding: TextEncodingName;
  delimiter: string;
  /** The sheet the rows come from, for a workbook. */
  sheet?: string;
  /** The workbook's other sheets of locations, not read: the person chose one of several. */
  otherSheets?: SheetChoice[];
  /** The workbook's sheets with values that hold no table of locations (instructions), or are hidden: not read. */
  passedOver?: { name: string; hidden: boolean }[];
  /** The workbook's sheets not read because a value in them reaches too far, with the server's words. */
  farSheets?: { name: string; message: string }[];
  headers: string[];
  /** The header's line (a sheet's row): above 1 when a title or a note above it was left out. */
  headerLine: number;
  /** The mapping the headers suggest. */
  mapping: ColumnMapping;
  /** The first rows, to show what each column holds. */
  samples: string[][];
  /** Per column, the field its first values look like (postal codes, country codes, phones, states), if any. */
  looks: (LookableField | null)[];
  rowCount: number;
  /** Problems papaparse reported, each at its line (the first MAX_LISTED). */
  problems: LineProblem[];
  problemCount: number;
  /** Rows with a "?" where a letter should be (lost-letters.ts): how many, the lines of the first, one value. */
  lostLetters: { count: number; lines: number[]; example: string };
}

/** A sheet of a workbook with rows, offered when there are several: its name and its rows under the header. */
export interface SheetChoice {
  name: string;
  rowCount: number;
}

export interface MappingCheck {
  /** Rows whose name column is empty under the current mapping. */
  rowsWithoutName: number;
  /** Lines of the first few of those rows. */
  firstLinesWithoutName: number[];
}

export interface ProblemRow {
  row: number;
  line: number;
  values: ImportRow;
  errors: { field: RowField | null; message: string }[];
  leftOut: boolean;
}

/** What the import does with rows that match a stored location, and with blank cells (`?mode=&blanks=`). */
export interface ImportChoice {
  mode: ImportMode;
  blanks: BlankCells;
}
export const DEFAULT_CHOICE: ImportChoice = { mode: 'create', blanks: 'keep' };

/** A row of the file, named the way the user knows it. */
export interface ListedRow {
  row: number;
  line: number;
  name: string;
  address: string | null;
  city: string | null;
}

/** A row the import skips: a duplicate (of an earlier line or of a stored location), or, in update mode, a row that matches nothing. */
export interface SkippedRow extends ListedRow {
  duplicate: { reason: Duplicate['reason']; ofLine: number | null } | null;
  /** The server's words for a skip that is no duplicate. */
  skipReason: string | null;
  leftOut: boolean;
}

/** A row that updates a stored location: each changed field, from its stored value to the row's. */
export interface UpdatedRow extends ListedRow {
  changes: Changes;
}

export type Totals = Record<RowAction, number>;

/** A row the import creates, as the server's dry run normalized it. */
export interface SampleRow {
  row: number;
  line: number;
  location: DryRunRow;
}

export interface CheckReport {
  rowCount: number;
  /** Requests the import will take, and the server's limits that decide it. */
  requests: number;
  limits: { rows: number; bytes: number };
  /** The mode and blank-cell rule the dry run was asked with. */
  choice: ImportChoice;
  /** The server's action for each row not left out: created, updated, unchanged, skipped, error. */
  totals: Totals;
  /** Skipped rows that are duplicates (which "import duplicates anyway" would create), not left out. */
  duplicates: number;
  leftOut: number;
  /** Rows the junk-row rule flagged that are still left out and may be kept ("Keep all flagged rows" puts them back). */
  flagged: number;
  /**
   * The file's header repeated in another column order: its line, and the rows from it to the end (it
   * included), left out for good. Null when the file has none.
   */
  secondTable: { line: number; rows: number } | null;
  /** Health of the rows the import creates or updates. */
  health: Record<Health, number>;
  /** Rows with problems, the first MAX_LISTED of them. */
  problems: ProblemRow[];
  skipped: SkippedRow[];
  updated: UpdatedRow[];
  unchanged: ListedRow[];
  /** The first rows to create, as the server normalized them. */
  samples: SampleRow[];
  /**
   * Rows (not left out) whose location id is not one of the client's, as the server noted them in upsert
   * and update: how many, and the lines of the first MAX_LISTED. An export of another client, most often.
   */
  foreignIds: { count: number; lines: number[] };
  /** Rows whose key matched nothing while their place id or name and address are a stored location's. */
  samePlace: { count: number; lines: number[] };
  /** Rows to create with no store code, place id or address: no later import can match them (no_key). */
  noKey: { count: number; lines: number[] };
  /** Updates that give a location the place id another stored location has (place_id_of). */
  placeIdsTaken: { count: number; lines: number[] };
  /** Rows whose store code matched nothing while a stored location has it in other capitals (store_code_case_of). */
  codesInOtherCase: { count: number; lines: number[] };
  /** Updates to locations changed in the app after the row's export was made (changed_since). */
  changedSince: { count: number; lines: number[] };
  /** Rows whose phone carried an extension ("ext. 3"), which the stored number does not keep. */
  phoneExtensions: { count: number; lines: number[] };
  /** Rows whose store code lost the leading zeros of the stored code it is read as (Excel drops them). */
  codesWithoutZeros: { count: number; lines: number[] };
  /** Rows whose phone was refused for want of a country (a sheet without one: the column step gives it). */
  phonesWithoutCountry: { count: number; lines: number[] };
  /** In create mode: skipped rows whose values differ from the location they repeat (what upsert would change). */
  skippedWithChanges: { count: number; lines: number[] };
  /** The country the column step gives rows without one (ISO code), or null. */
  country: string | null;
}

export interface ImportSummary {
  /** Locations created (the answers' `count`). */
  imported: number;
  updated: number;
  unchanged: number;
  /** Rows the server skipped: duplicates, and in update mode rows that match nothing. */
  skipped: number;
  /** Rows whose phone carried an extension, which the stored E.164 number cannot keep. */
  extensions: number;
  leftOut: number;
  requests: number;
  /** Set when a request failed after others succeeded. */
  failure: { request: number; error: ApiErrorInfo; rowsNotSent: number } | null;
  /** The operations the import's requests wrote, in order: each can be undone (POST /api/operations/:id/undo). */
  operations: string[];
}

/** How a cancelled import ended: the requests already written were undone, newest first. */
export interface CancelReport {
  /** Operations undone. */
  undone: number;
  /** Locations those operations had created, removed again. */
  removed: number;
  /** Locations those operations had updated, put back as they were. */
  restored: number;
  /** Operations whose undo failed, with the server's words: these rows stay written. */
  notUndone: { operation: string; message: string }[];
}

/** Which rows the grid shows: a tile's rows (or all), then those whose values hold `text`. */
export interface GridFilter {
  show: 'all' | RowAction | 'left-out';
  text: string;
}

/** The rows a bulk change applies to: chosen one by one, or every row the filter shows. */
export type RowSelection = { rows: number[] } | { filter: GridFilter };

/** Rows to leave out or put back: some, every problem or duplicate, or every row the grid's filter shows. */
export type LeaveTarget = number[] | 'problems' | 'duplicates' | 'flagged' | 'changed-since' | { filter: GridFilter };

/** One row of the preview grid, as the page draws it. */
export interface GridRow {
  row: number;
  line: number;
  /** The server's action, 'left-out', or 'unchecked' before its dry run answers. */
  status: RowAction | 'left-out' | 'unchecked';
  values: Partial<Record<RowField, string>>;
  errors: { field: RowField | null; message: string }[];
  /** Why the server's junk-row rule says this row is not a location ("Looks like a totals row"), or null. */
  flag: string | null;
  /** The hours as the server read them ("Mon–Fri 09:00–17:00 · Sat closed"), once checked; null before, or without hours. */
  hoursRead: string | null;
  /** A flagged row that cannot be kept: a second table's, in other columns. */
  locked: boolean;
}

/** A window of the filtered rows, from `start`. */
export interface GridWindow {
  /** Which request this answers, so a late answer never replaces a newer one. */
  id: number;
  start: number;
  total: number;
  rows: GridRow[];
  /** The fields the mapping feeds: the grid's columns. */
  fields: RowField[];
  /** Whether the last fix can be undone. */
  canUndo: boolean;
  /** Of the selected rows the request sent, those the filter does not show: the page drops them from its selection. */
  hidden: number[];
  /**
   * The rows that cannot be put back (a second table's: `GridRow.locked`) among those the filter shows, and
   * among the selected rows it shows: "Put back" counts what it puts back.
   */
  locked: { shown: number; selected: number };
  /** The rows left out among those the filter shows, and among the selected rows it shows: "Leave out" and "Put back" count what they change. */
  leftOut: { shown: number; selected: number };
}

/** How many problem, skipped, updated or unchanged rows cross to the page at most; the rest are counted, and can be left out in one go. */
export const MAX_LISTED = 2_000;
/** Unchanged rows need no attention: the preview names the first few only. */
export const UNCHANGED_LISTED = 50;

export type ToWorker =
  | { type: 'read'; file: File; encoding?: TextEncodingName; sheet?: string }
  | { type: 'map'; mapping: ColumnMapping }
  | { type: 'options'; options: ColumnOptions }
  | { type: 'check'; clientId: string; choice: ImportChoice }
  | { type: 'fix'; row: number; field: RowField; value: string }
  | { type: 'leave-out'; rows: LeaveTarget; leftOut: boolean }
  | {
      type: 'import';
      clientId: string;
      duplicates: DuplicateHandling;
      choice: ImportChoice;
      /** The saved mapping applied on the column step, if any: the server marks it used. */
      savedMapping: string | null;
    }
  | { type: 'token'; token: string | null }
  | {
      type: 'grid';
      id: number;
      filter: GridFilter;
      start: number;
      end: number;
      /** The rows selected one by one, sent when the rows shown may have changed (not for a scroll). */
      selected: number[];
    }
  | { type: 'set-values'; target: RowSelection; field: RowField; value: string }
  | { type: 'replace'; target: RowSelection; field: RowField; find: string; replace: string; apply: boolean }
  | { type: 'undo-fix' }
  | { type: 'problems-csv' }
  | { type: 'cancel' };

export type FromWorker =
  | { type: 'progress'; stage: ImportStage; done: number; total: number; request?: { index: number; count: number } }
  | { type: 'rejected'; message: string }
  | { type: 'read'; file: FileSummary; mapping: MappingCheck }
  | { type: 'sheets'; sheets: SheetChoice[] }
  | { type: 'mapped'; mapping: MappingCheck }
  | { type: 'checked'; report: CheckReport }
  | { type: 'imported'; summary: ImportSummary }
  | { type: 'failed'; stage: ImportStage; error: ApiErrorInfo }
  | { type: 'need-token'; renew: boolean }
  | { type: 'grid'; window: GridWindow }
  | { type: 'replace-count'; count: number }
  | { type: 'problems-csv'; csv: string; rows: number }
  | { type: 'cancelled'; report: CancelReport };
