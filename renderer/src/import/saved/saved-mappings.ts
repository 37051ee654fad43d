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

/**
 * After an import: the mapping is saved for the client, over the one found for these headers if
 * there was one, else as a new one.
 */
export async function saveMapping(
  clientId: string,
  fileName: string,
  columns: SavedMapping['columns'],
  existing: SavedMapping | null,
): Promise<void> {
  if (columns.length === 0) return;
  if (existing && existing.client_id === clientId) {
    await authorized(`/api/mappings/${existing.id}`, { method: 'PATCH', json: { columns } });
    return;
  }
  const name = mappingName(fileName, new Date());
  await authorized('/api/mappings', { method: 'POST', json: { client_id: clientId, name, columns } });
}

/** The note's words: when the mapping was last saved. */
export function appliedNote(saved: SavedMapping): string {
  return `Mapping from ${formatDate(saved.updated_at)} applied`;
}
