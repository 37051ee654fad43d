import { recordChange } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { clientById } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import { write } from '../db/write.js';
import { Forbidden, NotFound } from '../http/errors.js';
import { canSeeClient, NEEDS, type Principal } from '../http/guards.js';
import { headerSetKey } from '../imports/columns.js';
import { withSavedMapping } from '../mappings/apply.js';
import { deleteMapping, insertMapping, listMappings, mappingById, updateMapping } from '../mappings/queries.js';
import type { Mapping, UpdateMappingBody } from '../mappings/schemas.js';
import type { MappingStore } from './store.js';

/**
 * Saved mappings on SQLite (issue 12): each write one transaction with its audit entry, the caller's right
 * to import for the mapping's client (or, for a shared one, the whole organization) re-checked inside it.
 */
export function mappingStore(db: Db): MappingStore {
  return {
    list: async (principal, clientId, headers) => {
      if (clientId !== null) visibleClient(db, principal, clientId);
      const headerKey = headers === undefined ? undefined : headerSetKey(headers);
      return listMappings(db, principal.organizationId, clientId, headerKey);
    },
    create: (principal, body, now) =>
      write(db, () => {
        authorize(db, principal, body.client_id, now);
        const header_key = headerSetKey(body.columns.map((column) => column.header));
        const created = insertMapping(db, principal.organizationId, { ...body, header_key }, now);
        record(db, principal, 'mapping.created', created, now);
        return created;
      }),
    update: (principal, id, body, now) =>
      write(db, () => {
        const after = changed(existing(db, principal, id, now), body);
        updateMapping(db, after, now);
        record(db, principal, 'mapping.updated', after, now);
        return mappingById(db, principal.organizationId, after.id)!;
      }),
    delete: (principal, id, now) =>
      write(db, () => {
        const mapping = existing(db, principal, id, now);
        deleteMapping(db, mapping.id);
        record(db, principal, 'mapping.deleted', mapping, now);
      }),
    withSaved: async (organizationId, format, mappingId) => withSavedMapping(db, organizationId, format, mappingId),
  };
}

/** The mapping with the body's changes; new columns give it a new header set. */
function changed(before: Mapping, { name, columns, options }: UpdateMappingBody): Mapping {
  return {
    ...before,
    ...(name !== undefined ? { name: name.trim() } : {}),
    ...(columns !== undefined ? { columns, header_key: headerSetKey(columns.map((column) => column.header)) } : {}),
    ...(options !== undefined ? { options } : {}),
  };
}

/** 404 for a client not in the organization, 403 for another client than the caller's own. */
function visibleClient(db: Db, principal: Principal, clientId: string): void {
  if (clientById(db, principal.organizationId, clientId) === undefined) throw NotFound('No client with this id');
  if (!canSeeClient(principal, clientId)) throw Forbidden('You can only see the mappings of your own client');
}

/** Inside the write: the caller may still import, for this client; a shared mapping needs the whole organization. */
function authorize(db: Db, principal: Principal, clientId: string | null, now: number): void {
  if (clientId === null) {
    authorizeWrite(db, principal, { ...NEEDS.import, wholeOrganization: true }, now);
    return;
  }
  if (clientById(db, principal.organizationId, clientId) === undefined) throw NotFound('No client with this id');
  authorizeWrite(db, principal, { ...NEEDS.import, clientId }, now);
}

/** A mapping of the organization the caller may change, or 404. */
function existing(db: Db, principal: Principal, id: string, now: number): Mapping {
  const mapping = mappingById(db, principal.organizationId, id);
  if (mapping === undefined) throw NotFound('No mapping with this id');
  authorize(db, principal, mapping.client_id, now);
  return mapping;
}

function record(db: Db, principal: Principal, action: string, mapping: Mapping, now: number): void {
  recordChange(
    db,
    principal,
    { action, target: { type: 'mapping', id: mapping.id, name: mapping.name }, clientId: mapping.client_id },
    now,
  );
}
