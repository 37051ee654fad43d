import Papa from 'papaparse';
import type { RowField } from '../../../server/locations/schemas.js';
import type { GridFilter, GridRow } from './protocol.js';

/** A cell's text after "find and replace": every occurrence of `find`, case as typed; null when it holds none. */
export function replaced(text: string, find: string, replacement: string): string | null {
  if (find === '' || !text.includes(find)) return null;
  return text.split(find).join(replacement);
}

/** A row's values as the text filter reads them: lower case, a character no one types between two values. */
export function searchableText(values: GridRow['values']): string {
  return Object.values(values)
    .map((value) => (value ?? '').toLowerCase())
    .join('\u0000');
}

// "line 8", "row 8" or "#8": that line only ("8" alone is also any value holding an 8: a walk wanted line 8).
const LINE_ONLY = /^(?:line|row|#)\s*(\d+)$/;

/**
 * Whether a grid row is one the filter shows: its tile's status, then `text` in any value or its line
 * ("line 8": its line only). The values' text is asked for only when the status passes (the job keeps it
 * per row: 100,000 rows).
 */
export function shows(
  row: Pick<GridRow, 'status' | 'line'> & { searchable: () => string },
  filter: GridFilter,
): boolean {
  if (filter.show !== 'all' && row.status !== filter.show) return false;
  const text = filter.text.trim().toLowerCase();
  if (text === '') return true;
  const line = LINE_ONLY.exec(text);
  if (line !== null) return String(row.line) === line[1];
  if (String(row.line) === text) return true;
  return row.searchable().includes(text);
}

/** One row sent back to the client: its line, why, and the cells as the file had them. */
export interface ReturnedRow {
  line: number;
  reasons: string[];
  cells: string[];
}

/**
 * The rows left out or with problems as a CSV to send back to whoever made the file: the line in
 * their file, the reasons, then their own columns. Formulas are escaped (OWASP "CSV Injection").
 */
export function returnedRowsCsv(headers: readonly string[], rows: readonly ReturnedRow[]): string {
  const data = rows.map((row) => [String(row.line), row.reasons.join('; '), ...row.cells]);
  return Papa.unparse({ fields: ['Line', 'Problem', ...headers], data }, { escapeFormulae: true });
}

/** The words of a row's problems for the returned CSV, each with its field. */
export function reasonsOf(errors: GridRow['errors'], leftOut: boolean, labels: Record<RowField, string>): string[] {
  const reasons = errors.map((error) => (error.field ? `${labels[error.field]}: ${error.message}` : error.message));
  return reasons.length > 0 ? reasons : leftOut ? ['Left out'] : [];
}
