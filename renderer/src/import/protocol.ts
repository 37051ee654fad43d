import type { RowField } from '../../../server/locations/schemas.js';
import type { ApiErrorInfo } from '../api/http.js';
import type { DuplicateHandling, Health, ImportRow } from '../api/types.js';
import type { TextEncodingName } from './encodings.js';
import type { ColumnMapping } from './header-mapping.js';
import type { LineProblem } from './parse-csv.js';

/** The messages between the page and the import worker, which holds the file's rows so the page never has to. */

export type ImportStage = 'reading' | 'parsing' | 'checking' | 'importing';

export interface FileSummary {
  name: string;
  size: number;
  encoding: TextEncodingName;
  delimiter: string;
  headers: string[];
  /** The mapping the headers suggest. */
  mapping: ColumnMapping;
  /** The first rows, to show what each column holds. */
  samples: string[][];
  rowCount: number;
  /** Problems papaparse reported, each at its line (the first MAX_LISTED). */
  problems: LineProblem[];
  problemCount: number;
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

export interface DuplicateRow {
  row: number;
  line: number;
  name: string;
  address: string | null;
  city: string | null;
  reason: 'google_place_id' | 'name_and_address';
  /** The earlier line of the file it repeats, or null when it repeats one of the client's locations. */
  ofLine: number | null;
  leftOut: boolean;
}

export interface SampleRow {
  line: number;
  values: ImportRow;
  health: Health;
  healthScore: number;
  issues: string[];
}

export interface CheckReport {
  rowCount: number;
  /** Requests the import will take, and the server's limits that decide it. */
  requests: number;
  limits: { rows: number; bytes: number };
  /** Valid rows that are not duplicates and not left out. */
  ready: number;
  duplicates: number;
  leftOut: number;
  problemCount: number;
  health: Record<Health, number>;
  /** Rows with problems, the first MAX_LISTED of them. */
  problems: ProblemRow[];
  duplicateRows: DuplicateRow[];
  /** The first valid rows as the server normalized them. */
  samples: SampleRow[];
}

export interface ImportSummary {
  imported: number;
  leftOut: number;
  duplicates: number;
  requests: number;
  /** Set when a request failed after others succeeded. */
  failure: { request: number; error: ApiErrorInfo; rowsNotSent: number } | null;
}

/** How many problem or duplicate rows cross to the page at most; the rest are counted, and can be left out in one go. */
export const MAX_LISTED = 2_000;

export type ToWorker =
  | { type: 'read'; file: File; encoding?: TextEncodingName }
  | { type: 'map'; mapping: ColumnMapping }
  | { type: 'check'; clientId: string }
  | { type: 'fix'; row: number; field: RowField; value: string }
  | { type: 'leave-out'; rows: number[] | 'problems' | 'duplicates'; leftOut: boolean }
  | { type: 'import'; clientId: string; duplicates: DuplicateHandling }
  | { type: 'token'; token: string | null };

export type FromWorker =
  | { type: 'progress'; stage: ImportStage; done: number; total: number; request?: { index: number; count: number } }
  | { type: 'rejected'; message: string }
  | { type: 'read'; file: FileSummary; mapping: MappingCheck }
  | { type: 'mapped'; mapping: MappingCheck }
  | { type: 'checked'; report: CheckReport }
  | { type: 'imported'; summary: ImportSummary }
  | { type: 'failed'; stage: ImportStage; error: ApiErrorInfo }
  | { type: 'need-token'; renew: boolean };
