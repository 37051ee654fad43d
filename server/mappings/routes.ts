import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { recordChange } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { clientById } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import { write } from '../db/write.js';
import { Forbidden, NotFound } from '../http/errors.js';
import { canSeeClient, NEEDS, principalOf, requireAccess, type Principal } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { headerSetKey } from '../imports/columns.js';
import { deleteMapping, insertMapping, listMappings, mappingById, updateMapping } from './queries.js';
import { CreateMappingBody, Mapping, MappingParams, MappingsQuery, UpdateMappingBody } from './schemas.js';

/** Issue 12: saved column mappings, per client or shared (README: "Saved mappings"). Admin writes. */
export const mappingRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(mappingReadRoutes, context);
  await app.register(mappingWriteRoutes, context);
};

/** The mappings listed, and found for a file's headers. */
const mappingReadRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store }) => {
  const db = store.db;

  app.get(
    '/api/mappings',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['mappings'],
        summary: "Saved mappings: a client's and the shared ones, or all; ?headers= those for a file's headers",
        querystring: MappingsQuery,
        response: { 200: Type.Array(Mapping), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const clientId = request.query.clientId?.toLowerCase() ?? principal.clientId;
      if (clientId !== null) visibleClient(db, principal, clientId);
      const headerKey =
        request.query.headers === undefined ? undefined : headerSetKey(request.query.headers.split('|'));
      return listMappings(db, principal.organizationId, clientId, headerKey);
    },
  );
};

/** A mapping saved, changed and deleted, each in one transaction with its audit entry (Admin). */
const mappingWriteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;

  app.post(
    '/api/mappings',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['mappings'],
        summary: 'Save a mapping for a client, or shared by every client (client_id null) (Admin)',
        body: CreateMappingBody,
        response: { 201: Mapping, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body;
      const clientId = body.client_id?.toLowerCase() ?? null;
      reply.code(201);
      return write(db, () => {
        authorize(db, principal, clientId, clock.now());
        const header_key = headerSetKey(body.columns.map((column) => column.header));
        const created = insertMapping(
          db,
          principal.organizationId,
          { ...body, client_id: clientId, header_key },
          clock.now(),
        );
        record(db, principal, 'mapping.created', created, clock.now());
        return created;
      });
    },
  );

  app.patch(
    '/api/mappings/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['mappings'],
        summary: 'Rename a mapping, or change its columns or options (Admin)',
        params: MappingParams,
        body: UpdateMappingBody,
        response: { 200: Mapping, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return write(db, () => {
        const after = changed(existing(db, principal, request.params.id, clock.now()), request.body);
        updateMapping(db, after, clock.now());
        record(db, principal, 'mapping.updated', after, clock.now());
        return mappingById(db, principal.organizationId, after.id)!;
      });
    },
  );

  app.delete(
    '/api/mappings/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['mappings'],
        summary: 'Delete a saved mapping (Admin)',
        params: MappingParams,
        response: { 200: Success, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return write(db, () => {
        const mapping = existing(db, principal, request.params.id, clock.now());
        deleteMapping(db, mapping.id);
        record(db, principal, 'mapping.deleted', mapping, clock.now());
        return { success: true as const };
      });
    },
  );
};

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
