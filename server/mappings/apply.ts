import type { Db } from '../db/open.js';
import { NotFound } from '../http/errors.js';
import type { TableFormat } from '../imports/table-body.js';
import { mappingById } from './queries.js';

/** The saved mapping `?mapping=` names, when it is the organization's and for this client (or shared). */
function savedFor(db: Db, organizationId: string, mappingId: string, clientId: string) {
  const mapping = mappingById(db, organizationId, mappingId.toLowerCase());
  if (mapping === undefined || (mapping.client_id !== null && mapping.client_id !== clientId)) {
    throw NotFound('No mapping with this id for this client');
  }
  return mapping;
}

/**
 * The upload's format with the saved mapping `?mapping=` names: 404 when the organization has no such
 * mapping for this client (its own or a shared one). A JSON body's rows are mapped already: its mapping
 * is checked inside the import (useSavedMapping), where its client is known.
 */
export function withSavedMapping(
  db: Db,
  organizationId: string,
  format: TableFormat | undefined,
  mappingId: string | undefined,
): TableFormat | undefined {
  if (mappingId === undefined || format === undefined) return format;
  const { name, columns, options } = savedFor(db, organizationId, mappingId, format.clientId);
  return { ...format, mapping: { name, columns, options: { ...options } } };
}

/**
 * Inside an import's transaction: the mapping its rows were read with is the organization's and fits the
 * client (else 404, nothing written); a real import marks it used (README: "Saved mappings"), by the id
 * returned (markMappingUsed, among the import's writes).
 */
export function savedMappingToUse(
  db: Db,
  request: { organizationId: string; mappingId?: string; dryRun: boolean },
  clientId: string,
): string | undefined {
  if (request.mappingId === undefined) return undefined;
  const mapping = savedFor(db, request.organizationId, request.mappingId, clientId);
  return request.dryRun ? undefined : mapping.id;
}
