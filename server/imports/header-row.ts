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

/** The field a header cell names by its own word or a synonym (not a near miss), or null. */
function namedField(cell: string): string | null {
  const match = matchHeader(cell.trim());
  return match.matched_by === 'fuzzy' ? null : match.field;
}

/** Whether a row reads as a header: one of its cells names the location's name, by its own word or a synonym. */
export function namesTheName(row: readonly string[]): boolean {
  return row.some((cell) => namedField(cell) === 'name');
}

// A header whose names column is called something no rule knows ("Bakery") still names other fields.
const FIELDS_OF_A_HEADER = 3;

/**
 * Whether a row reads as the header below a title: it names the name, or three fields (a walk's sheet
 * titled above "Bakery, Street, City, State, ZIP" took the title as its header, every column unnamed).
 */
export function readsAsHeader(row: readonly string[]): boolean {
  return namesTheName(row) || fieldsNamed(row) >= FIELDS_OF_A_HEADER;
}

/** How many of a row's cells name a field by its word or a synonym (not a near miss). */
export function fieldsNamed(row: readonly string[]): number {
  return row.filter((cell) => namedField(cell) !== null).length;
}

/**
 * A group row above the header, as a merged cell over each group of columns ("Location | Address |
 * Contact" over "Store code, Name, Street …", found by a probe: the group row was taken as the header and
 * the real one imported as a location): the row below it is a header naming more fields, in more cells.
 * True, false, or undefined while that row has not been read yet.
 */
function groupAbove(
  rows: readonly (readonly string[])[],
  index: number,
  isHeader: (row: readonly string[]) => boolean,
): boolean | undefined {
  const next = rows[index + 1];
  if (next === undefined) return rows.length >= HEADER_SEARCH_ROWS ? false : undefined;
  const row = rows[index]!;
  return isHeader(next) && valueCount(next) > valueCount(row) && fieldsNamed(next) > fieldsNamed(row);
}

/**
 * The header's index among a sheet's non-empty rows, given from the top: the first row that `isHeader`
 * (by default, one naming the name column or three fields) when every row above it holds at most two values, fewer than
 * it does; else the first row, as a sheet without a title has it. A group row over the header (groupAbove)
 * is passed over for the header below it. `undefined` while the rows given cannot tell yet (fewer than
 * HEADER_SEARCH_ROWS, all short, or a possible group row last): the caller reads on, or takes the first
 * row at the file's end.
 */
export function headerRowOf(
  rows: readonly (readonly string[])[],
  isHeader: (row: readonly string[]) => boolean = readsAsHeader,
): number | undefined {
  const searched = Math.min(rows.length, HEADER_SEARCH_ROWS);
  let mostAbove = 0;
  for (let index = 0; index < searched; index++) {
    const row = rows[index]!;
    const values = valueCount(row);
    // A header is wider than a title: in a sheet of one or two columns, a row below is data.
    const header = isHeader(row) && (index === 0 || values > mostAbove);
    if (header || values > MAX_VALUES_ABOVE_HEADER) {
      const group = groupAbove(rows, index, isHeader);
      if (group === undefined) return undefined;
      return group ? index + 1 : header ? index : 0;
    }
    mostAbove = Math.max(mostAbove, values);
  }
  return rows.length >= HEADER_SEARCH_ROWS ? 0 : undefined;
}

/**
 * How many rows a sheet holds under its header, a title above it not counted: what the sheet chooser
 * and the server's "name the sheet" answer say, as the column step will count them (a walk read "6 rows",
 * then "5 rows"). `filled`: the sheet's rows with a value; `top`: the first of them (HEADER_SEARCH_ROWS).
 */
export function rowsUnderHeader(filled: number, top: readonly (readonly string[])[]): number {
  return Math.max(filled - (headerRowOf(top) ?? 0) - 1, 0);
}
