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
export function exportFileName(clientName: string, date = new Date()): string {
  const safe = clientName.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'client';
  return `${safe}-locations-${date.toISOString().slice(0, 10)}.csv`;
}

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
    {
      fields: EXPORT_COLUMNS.map(([header]) => header),
      data: rows.map((row) => EXPORT_COLUMNS.map(([, field]) => formulaSafe(cellText(field, row[field])))),
    },
    // Done above, for every cell whatever follows its first character.
    { escapeFormulae: false, quotes: (value) => typeof value === 'string' && value.startsWith("'") },
  );
  // A byte order mark makes Excel read the file as UTF-8.
  return `\uFEFF${csv}`;
}

/** The rows with their Google place ids, which the list leaves out unless asked (`include=google_place_id`). */
async function withPlaceIds(rows: readonly LocationRow[], clientId: string): Promise<LocationRow[]> {
  const query = new URLSearchParams({ clientId, include: 'google_place_id' });
  const { data } = await authorized<LocationRow[]>(`/api/locations?${query}`);
  const placeIds = new Map(data.map((row) => [row.id, row.google_place_id ?? null]));
  return rows.map((row) => ({ ...row, google_place_id: placeIds.get(row.id) ?? null }));
}

/** Saves rows of the client `clientId` as a CSV download, every field and the place id included. */
export async function exportLocations(
  rows: readonly LocationRow[],
  clientName: string,
  clientId: string,
): Promise<void> {
  const csv = await locationsCsv(await withPlaceIds(rows, clientId));
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(clientName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
