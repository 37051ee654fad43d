import type { BlankCells, RowField, UploadRow } from '../../../server/locations/schemas.js';
import { cellValue } from '../../../server/imports/cells.js';
import { placeholderSet } from '../../../server/imports/placeholders.js';
import { cleanedCells, sheetValues, uploadRowOfValues } from '../../../server/imports/sheet-row.js';
import { dayLabel, DAYS, type Day } from '../../../server/locations/hours.js';
import { DEFAULT_OPTIONS, type ColumnOptions } from './columns/column-options.js';
import type { ColumnMapping } from './header-mapping.js';

export { cellValue };

/** Values the user typed over a row's mapped values in the preview, by field. */
export type RowEdits = Partial<Record<RowField, string>>;

/** How many rows and bytes one upload request may carry (the server's MAX_IMPORT_ROWS and MAX_IMPORT_BYTES). */
export interface RequestLimits {
  rows: number;
  bytes: number;
}

/**
 * One upload row from a file row: only the mapped fields, several address columns joined with the
 * separator (", " by default), placeholders of the list in force blank,
 * per-day hours columns as `hours: {mon: "09:00-17:00", ...}` (the server reads the texts). A blank
 * cell is left out, or sent as "" when `blanks` is "clear" so that the server clears the stored value.
 * The name is always sent, even blank, so the server's dry run can flag it; the location id only when
 * it is there (it is a key, never cleared); every other rule stays on the server.
 */
export function uploadRowOf(
  cells: readonly string[],
  mapping: ColumnMapping,
  edits?: RowEdits,
  blanks: BlankCells = 'keep',
  options: ColumnOptions = DEFAULT_OPTIONS,
): UploadRow {
  // The server's own rules (server/imports/sheet-row.ts): a placeholder of the list in force is blank,
  // and the upload then asks the server to read none, so that a word the user kept stays.
  const cleaned = cleanedCells(cells, mapping, placeholderSet(options.placeholders));
  const values = sheetValues(cleaned, mapping, options.separator);
  for (const [field, value] of Object.entries(edits ?? {})) values[field] = value;
  return uploadRowOfValues(values, blanks) as UploadRow;
}

/** UTF-8 byte length of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The JSON body of one upload request, from rows already serialized one by one. */
export function uploadBody(clientId: string, rowJson: readonly string[]): string {
  return `{"clientId":${JSON.stringify(clientId)},"rows":[${rowJson.join(',')}]}`;
}

/**
 * Splits serialized rows into requests that each stay within the server's limits: [start, end)
 * ranges in order. A single row bigger than the byte limit still gets a request of its own (the
 * server answers 413 for it, which the user then sees).
 */
export function planRequests(rowJson: readonly string[], clientId: string, limits: RequestLimits): [number, number][] {
  const envelope = utf8Length(uploadBody(clientId, []));
  const ranges: [number, number][] = [];
  let start = 0;
  let bytes = envelope;
  for (let index = 0; index < rowJson.length; index++) {
    const rowBytes = utf8Length(rowJson[index] as string) + 1;
    const full = index - start >= limits.rows || bytes + rowBytes > limits.bytes;
    if (full && index > start) {
      ranges.push([start, index]);
      start = index;
      bytes = envelope;
    }
    bytes += rowBytes;
  }
  if (rowJson.length > start) ranges.push([start, rowJson.length]);
  return ranges;
}

/**
 * A value of an upload row as the text a user edits: per-day hours as one week line ("Mon 09:00-17:00;
 * Sat x"), which the server reads like a "Hours" column.
 */
export function rowValueText(value: UploadRow[keyof UploadRow]): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(', ');
  return Object.entries(value)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([day, text]) => `${DAYS.includes(day as Day) ? dayLabel(day as Day) : day} ${text}`)
    .join('; ');
}
