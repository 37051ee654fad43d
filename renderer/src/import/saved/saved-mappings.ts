import type { Mapping } from '../../../../server/mappings/schemas.js';
import { authorized } from '../../api/session.js';
import { formatDate } from '../../format.js';
import { headerKey, type ColumnMapping } from '../header-mapping.js';

/**
 * Saved mappings (README "Saved mappings"): the server keeps them (`/api/mappings`, server/mappings/);
 * here, turning one into the column step's mapping and back.
 */
export type SavedMapping = Mapping;

/** The client's mappings (and the shared ones), or only those for this header set. */
export async function fetchMappings(clientId: string, headers?: readonly string[]): Promise<SavedMapping[]> {
  const query = new URLSearchParams({ clientId });
  if (headers) query.set('headers', headers.join('|'));
  return (await authorized<SavedMapping[]>(`/api/mappings?${query}`)).data;
}

/** The mapping a file's headers get from a saved one: each column the field saved for its header. */
export function applySaved(headers: readonly string[], saved: SavedMapping): ColumnMapping {
  const exact = new Map(saved.columns.map((column) => [column.header, column.field]));
  const byKey = new Map(saved.columns.map((column) => [headerKey(column.header), column.field]));
  return headers.map((header) => exact.get(header) ?? byKey.get(headerKey(header)) ?? null);
}

/** What to save: each named column of the file with its field (null: left out). */
export function columnsOf(headers: readonly string[], mapping: ColumnMapping): SavedMapping['columns'] {
  return headers.flatMap((header, column) =>
    header.trim() === '' ? [] : [{ header: header.slice(0, 200), field: mapping[column] ?? null }],
  );
}

/** A new mapping's name: the file it came from and the day. */
export function mappingName(fileName: string, now: Date): string {
  return `${fileName} (${formatDate(now.toISOString())})`.slice(0, 200);
}

/** What an import saves: its columns and its options (only those that are not the defaults). */
export type MappingToSave = Pick<SavedMapping, 'columns' | 'options'>;

/** Whether the saved mapping already says the same: then the import's own mark of its use is enough. */
export function sameMapping(saved: SavedMapping, next: MappingToSave): boolean {
  const options = (of: MappingToSave['options']) =>
    JSON.stringify([of.separator ?? null, of.placeholders ?? null, of.country ?? null]);
  return (
    JSON.stringify(saved.columns) === JSON.stringify(next.columns) && options(saved.options) === options(next.options)
  );
}

/**
 * After an import: the mapping is saved for the client, over the one found for these headers if
 * there was one (when it changed), else as a new one.
 */
export async function saveMapping(
  clientId: string,
  fileName: string,
  next: MappingToSave,
  existing: SavedMapping | null,
): Promise<void> {
  if (next.columns.length === 0) return;
  if (existing && existing.client_id === clientId) {
    if (!sameMapping(existing, next)) await authorized(`/api/mappings/${existing.id}`, { method: 'PATCH', json: next });
    return;
  }
  const name = mappingName(fileName, new Date());
  await authorized('/api/mappings', { method: 'POST', json: { client_id: clientId, name, ...next } });
}

/** When the mapping was last used or saved, whichever is later. */
export function lastUsedOf(saved: SavedMapping): string {
  const { last_used_at: used, updated_at: updated } = saved;
  return used !== null && used > updated ? used : updated;
}

/** The note's words: when the mapping was last used or saved. */
export function appliedNote(saved: SavedMapping): string {
  // A mapping is named after its file and the day it was saved: its last use is said only when it is another day.
  const used = formatDate(lastUsedOf(saved));
  return `Saved mapping “${saved.name}” applied${saved.name.includes(used) ? '' : `, last used ${used}`}`;
}
