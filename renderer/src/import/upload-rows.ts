import type { RowField, UploadRow } from '../../../server/locations/schemas.js';
import type { ColumnMapping } from './header-mapping.js';

/** Values the user typed over a row's mapped values in the preview, by field. */
export type RowEdits = Partial<Record<RowField, string>>;

/** How many rows and bytes one upload request may carry (the server's MAX_IMPORT_ROWS and MAX_IMPORT_BYTES). */
export interface RequestLimits {
  rows: number;
  bytes: number;
}

/**
 * One upload row from a file row: only the mapped fields, several address columns joined with ", ",
 * empty optional values left out. The name is always sent, even blank, so the server's dry run can
 * flag it; trimming and every other rule stay on the server.
 */
export function uploadRowOf(cells: readonly string[], mapping: ColumnMapping, edits?: RowEdits): UploadRow {
  const row: UploadRow = { name: '' };
  const addressParts: string[] = [];
  mapping.forEach((field, column) => {
    if (field === null) return;
    const value = cells[column] ?? '';
    if (field === 'address') {
      if (value.trim() !== '') addressParts.push(value.trim());
    } else if (field === 'name') row.name = value;
    else if (value.trim() !== '') row[field] = value;
  });
  if (addressParts.length > 0) row.address = addressParts.join(', ');
  if (edits) {
    for (const [field, value] of Object.entries(edits) as [RowField, string][]) {
      if (field === 'name') row.name = value;
      else if (value.trim() === '') delete row[field];
      else row[field] = value;
    }
  }
  return row;
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
