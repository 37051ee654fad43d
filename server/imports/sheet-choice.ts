import { fieldsNamed, HEADER_SEARCH_ROWS, namesTheName } from './header-row.js';

/**
 * Which sheets of a workbook hold the locations (README: "Import a CSV or Excel file"), the one rule for
 * the server's .xlsx upload and the dashboard's reader. Workbooks clients send keep other sheets first: a
 * stale copy hidden, an empty sheet, a page of instructions (Yext's and Uberall's upload templates open
 * on one). A person opening the file reads the shown sheet whose header names the locations' fields.
 */
export interface SheetLook {
  hidden: boolean;
  /** Whether any cell holds a value. */
  filled: boolean;
  /** The sheet's first non-empty rows as text, at least HEADER_SEARCH_ROWS of them when it has them. */
  top: readonly (readonly string[])[];
}

/** A table of locations: one of its first rows names the name and another field (a header). */
export function isTable(sheet: SheetLook): boolean {
  return sheet.top.slice(0, HEADER_SEARCH_ROWS).some((row) => namesTheName(row) && fieldsNamed(row) >= 2);
}

/**
 * The sheets to read from, in the workbook's order: those with values, shown ones before hidden ones
 * (a hidden sheet only when no shown one has values), tables of locations before anything else.
 */
export function sheetsToRead<Sheet extends SheetLook>(sheets: readonly Sheet[]): Sheet[] {
  const filled = sheets.filter((sheet) => sheet.filled);
  const shown = filled.filter((sheet) => !sheet.hidden);
  const pool = shown.length > 0 ? shown : filled;
  const tables = pool.filter(isTable);
  return tables.length > 0 ? tables : pool;
}
