import { locationsPath } from '../api/locations-path.js';
import { authorized } from '../api/session.js';
import type { LocationRow } from '../api/types.js';
import { cellText } from './location-cells.js';

/**
 * The export's columns, every field of a location: headers the import maps back to their fields by
 * itself (import/header-mapping.ts), so export -> edit -> re-import as an update round-trips. The last
 * four are read only: the import says it does not store them.
 */
export const EXPORT_COLUMNS = [
  ['Location id', 'id'],
  ['Store code', 'store_code'],
  ['Name', 'name'],
  ['Address', 'address'],
  ['City', 'city'],
  ['State / province', 'state'],
  ['Postal code', 'zip'],
  ['Country', 'country'],
  ['Google place id', 'google_place_id'],
  ['Phone', 'phone'],
  ['Website', 'website'],
  ['Latitude', 'latitude'],
  ['Longitude', 'longitude'],
  ['Primary category', 'primary_category'],
  ['Labels', 'labels'],
  ['Status', 'status'],
  ['Hours', 'hours'],
  ['Health score', 'health_score'],
  ['Health status', 'health_status'],
  ['Created', 'created_at'],
  ['Updated', 'updated_at'],
] as const satisfies readonly (readonly [string, keyof LocationRow])[];

/** A file name from the client's name that every operating system accepts. */
export function exportFileName(clientName: string, date = new Date(), format: ExportFormat = 'csv'): string {
  const safe = clientName.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'client';
  return `${safe}-locations-${date.toISOString().slice(0, 10)}.${format}`;
}

/** The export's two file types: CSV, or an Excel workbook. */
export type ExportFormat = 'csv' | 'xlsx';

// OWASP "CSV Injection": a spreadsheet runs a cell as a formula when it starts with =, +, - or @, or tab or
// CR, after any whitespace it skips, whatever follows, line breaks included (papaparse's own escapeFormulae
// pattern has no s flag: "=HYPERLINK(\n..." got through). The import undoes it (import/upload-rows.ts).
const FORMULA = /^\s*[=+\-@\t\r]/;

/** A cell's text with a ' in front when a spreadsheet would run it as a formula (OWASP's escape). */
export function formulaSafe(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/**
 * The CSV file of rows, the export's pure part. papaparse loads only when someone exports; every cell a
 * spreadsheet would run as a formula is escaped (formulaSafe) and quoted.
 */
export async function locationsCsv(rows: readonly LocationRow[]): Promise<string> {
  const { default: Papa } = await import('papaparse');
  const csv = Papa.unparse(
    { fields: EXPORT_COLUMNS.map(([header]) => header), data: exportCells(rows) },
    // Done above, for every cell whatever follows its first character.
    { escapeFormulae: false, quotes: (value) => typeof value === 'string' && value.startsWith("'") },
  );
  // A byte order mark makes Excel read the file as UTF-8.
  return `\uFEFF${csv}`;
}

/**
 * Every row's cells as text, each escaped against formulas (`escape`: formulaSafe for the CSV). A value
 * stored as a number (a coordinate, the score) is written as the number, never a formula: unescaped (a walk
 * saw Excel show '-122.3422, the apostrophe and all, in every longitude west of Greenwich); a text that
 * looks like one (a store code "-05") is escaped, or Excel makes it -5.
 */
function exportCells(rows: readonly LocationRow[], escape: (text: string) => string = formulaSafe): string[][] {
  return rows.map((row) =>
    EXPORT_COLUMNS.map(([, field]) => {
      const value = row[field];
      return typeof value === 'number' ? cellText(field, value) : escape(cellText(field, value));
    }),
  );
}

// Digits, spaces and + - ( ) . , / only: no name, reference or quote, so nothing a formula could call.
const NOTHING_TO_RUN = /^[\d\s+\-().,/]*$/;

/**
 * A workbook's text cell is shown as it is and never run when the file opens, so a phone "+12065550100" or
 * a store code "-05" needs no apostrophe there (Excel showed it, the apostrophe and all: "'+12065550100" in
 * every phone). A cell Excel would run if someone typed it in again keeps the CSV's escape, unless it holds
 * nothing a formula could call (NOTHING_TO_RUN): retyped, "+12065550100" is a number, never a link.
 */
export function workbookCellText(text: string): string {
  return NOTHING_TO_RUN.test(text) ? text : formulaSafe(text);
}

/**
 * The same rows as an Excel workbook (write-excel-file, loaded only when someone exports): every cell a
 * text cell, so leading zeros stay and no cell is ever a formula; escaped only where retyping it could run
 * something (workbookCellText).
 */
export async function locationsXlsx(rows: readonly LocationRow[]): Promise<Blob> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const text = (value: string) => ({ value, type: String });
  const data = [
    EXPORT_COLUMNS.map(([header]) => text(header)),
    ...exportCells(rows, workbookCellText).map((cells) => cells.map(text)),
  ];
  return writeXlsxFile(data, { sheet: 'Locations', stickyRowsCount: 1 }).toBlob();
}

/** The rows with their Google place ids, which the list leaves out unless asked (`include=google_place_id`). */
async function withPlaceIds(rows: readonly LocationRow[], clientId: string): Promise<LocationRow[]> {
  const { data } = await authorized<LocationRow[]>(locationsPath({ clientId, include: 'google_place_id' }));
  const placeIds = new Map(data.map((row) => [row.id, row.google_place_id ?? null]));
  return rows.map((row) => ({ ...row, google_place_id: placeIds.get(row.id) ?? null }));
}

/** Saves rows of the client `clientId` as a CSV or .xlsx download, every field and the place id included. */
export async function exportLocations(
  rows: readonly LocationRow[],
  clientName: string,
  clientId: string,
  format: ExportFormat = 'csv',
): Promise<void> {
  const full = await withPlaceIds(rows, clientId);
  const blob =
    format === 'xlsx'
      ? await locationsXlsx(full)
      : new Blob([await locationsCsv(full)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(clientName, new Date(), format);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
