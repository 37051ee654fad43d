import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { Invalid } from '../http/errors.js';
import { mappingColumnsProblem } from '../imports/mapping-columns.js';
import {
  CreateMappingBody,
  Mapping,
  MappingColumn,
  MappingParams,
  MappingsQuery,
  UpdateMappingBody,
} from './schemas.js';

/** Issue 12: saved column mappings, per client or shared (README: "Saved mappings"). Admin writes. */
export const mappingRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(mappingReadRoutes, context);
  await app.register(mappingWriteRoutes, context);
};

/** The mappings listed, and found for a file's headers. */
const mappingReadRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data }) => {
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
      return data.mappings.list(principal, clientId, request.query.headers?.split('|'));
    },
  );
};

/** A mapping saved, changed and deleted, each in one transaction with its audit entry (Admin). */
const mappingWriteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
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
      checkColumns(request.body.columns);
      const clientId = request.body.client_id?.toLowerCase() ?? null;
      reply.code(201);
      return data.mappings.create(principalOf(request), { ...request.body, client_id: clientId }, clock.now());
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
      if (request.body.columns !== undefined) checkColumns(request.body.columns);
      return data.mappings.update(principalOf(request), request.params.id, request.body, clock.now());
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
      await data.mappings.delete(principalOf(request), request.params.id, clock.now());
      return { success: true as const };
    },
  );
};

/** A 400 for columns no import could apply (imports/table-rows.ts, mappingColumnsProblem). */
function checkColumns(columns: Static<typeof MappingColumn>[]): void {
  const problem = mappingColumnsProblem(columns);
  if (problem !== null) throw Invalid(problem, [{ path: '/body/columns', message: problem }]);
}
