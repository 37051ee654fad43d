import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { Forbidden, nameOrRefusal } from '../http/errors.js';
import { NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { ApiToken, ApiTokenListQuery, ApiTokenParams, CreateApiTokenBody, CreatedApiToken } from './schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Issue 10, section 1: a user's API tokens (README: "API tokens"). */
export const tokenRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(tokenListRoutes, context);
  await app.register(tokenRevokeRoutes, context);
};

/** A user's tokens listed and made. */
const tokenListRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  const own = { onRequest: requireAccess(NEEDS.ownTokens) };

  app.get(
    '/api/tokens',
    {
      ...own,
      schema: {
        tags: ['tokens'],
        summary: "The caller's API tokens, newest first; all=true: every token of the organization (Admin)",
        querystring: ApiTokenListQuery,
        response: { 200: Type.Array(ApiToken), ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (request.query.all && principal.role !== 'admin') {
        throw Forbidden("Only Admin users can list the organization's tokens");
      }
      return data.tokens.list(
        request.query.all ? { organizationId: principal.organizationId } : { userId: principal.userId },
      );
    },
  );

  app.post(
    '/api/tokens',
    {
      ...own,
      schema: {
        tags: ['tokens'],
        summary: 'Create an API token for the caller; its secret is in the answer, this once',
        body: CreateApiTokenBody,
        response: { 201: CreatedApiToken, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { body } = request;
      const grant = { name: nameOrRefusal(body.name, 'name'), scopes: body.scopes, clientId: body.clientId ?? null };
      const now = clock.now();
      const expiresAt = body.expiresInDays == null ? null : now + body.expiresInDays * DAY_MS;
      const created = await data.tokens.create(principal, grant, expiresAt, now);
      reply.code(201);
      return created;
    },
  );
};

/** A token revoked: its owner's, or any of the organization's for an Admin. */
const tokenRevokeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  const own = { onRequest: requireAccess(NEEDS.ownTokens) };

  app.delete(
    '/api/tokens/:id',
    {
      ...own,
      schema: {
        tags: ['tokens'],
        summary: 'Revoke an API token of the caller (an Admin: any of the organization); it stops working at once',
        params: ApiTokenParams,
        response: { 200: Success, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await data.tokens.revoke(principalOf(request), request.params.id, clock.now());
      return { success: true as const };
    },
  );
};
