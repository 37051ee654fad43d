import { matchHeader } from './columns.js';

/**
 * Which row of a sheet is its header (README: "Import a CSV or Excel file"), the one rule for the
 * dashboard's reader and the `text/csv` endpoint. Sheets saved from Excel often carry a title above the
 * header ("Store list – 01.11.2026", a merged cell), a date or a note: taking that line as the header
 * left no column that could be the name, and the whole file unreadable.
 */

/** The non-empty rows from the top that the header is looked for in. */
export const HEADER_SEARCH_ROWS = 10;

/** A row above the header holds at most this many values (a title and a date); a fuller row is data or the header. */
const MAX_VALUES_ABOVE_HEADER = 2;

function valueCount(row: readonly string[]): number {
  let count = 0;
  for (const cell of row) if (cell.trim() !== '') count++;
  return count;
}

/** Whether a row reads as a header: one of its cells names the location's name, by its own word or a synonym. */
export function namesTheName(row: readonly string[]): boolean {
  return row.some((cell) => {
    const match = matchHeader(cell.trim());
    return match.field === 'name' && match.matched_by !== 'fuzzy';
  });
}

/**
 * The header's index among a sheet's non-empty rows, given from the top: the first row that `isHeader`
 * (by default, one naming the name column) when every row above it holds at most two values, fewer than
 * it does; else the first row, as a sheet without a title has it. `undefined` while the rows given cannot tell yet (fewer
 * than HEADER_SEARCH_ROWS, all short): the caller reads on, or takes the first row at the file's end.
 */
export function headerRowOf(
  rows: readonly (readonly string[])[],
  isHeader: (row: readonly string[]) => boolean = namesTheName,
): number | undefined {
  const searched = Math.min(rows.length, HEADER_SEARCH_ROWS);
  let mostAbove = 0;
  for (let index = 0; index < searched; index++) {
    const row = rows[index]!;
    const values = valueCount(row);
    // A header is wider than a title: in a sheet of one or two columns, a row below is data.
    if (isHeader(row) && (index === 0 || values > mostAbove)) return index;
    if (values > MAX_VALUES_ABOVE_HEADER) return 0;
    mostAbove = Math.max(mostAbove, values);
  }
  return rows.length >= HEADER_SEARCH_ROWS ? 0 : undefined;
}
