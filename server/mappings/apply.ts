import type { Db } from '../db/open.js';
import { Invalid, NotFound } from '../http/errors.js';
import type { TableFormat } from '../imports/table-body.js';
import { mappingById } from './queries.js';

/**
 * The upload's format with the saved mapping `?mapping=` names: 404 when the organization has no such
 * mapping for this client (its own or a shared one); 400 for a JSON body, which has no columns to map.
 */
export function withSavedMapping(
  db: Db,
  organizationId: string,
  format: TableFormat | undefined,
  mappingId: string | undefined,
): TableFormat | undefined {
  if (mappingId === undefined) return format;
  if (format === undefined) throw Invalid('?mapping= reads a CSV or .xlsx file; JSON rows are already mapped');
  const mapping = mappingById(db, organizationId, mappingId.toLowerCase());
  if (mapping === undefined || (mapping.client_id !== null && mapping.client_id !== format.clientId)) {
    throw NotFound('No mapping with this id for this client');
  }
  const { name, columns, options } = mapping;
  return { ...format, mapping: { name, columns, options: { ...options } } };
}
