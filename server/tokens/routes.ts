import { recordChange } from '../audit/queries.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { authorizeWrite } from '../auth/authorize.js';
import { revokeApiToken } from '../auth/queries.js';
import { write } from '../db/write.js';
import { Forbidden, Invalid, NotFound } from '../http/errors.js';
import { NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { checkGrant, grantToken } from './grant.js';
import { apiTokenById, listApiTokens } from './queries.js';
import { withRecordedUse } from './usage.js';
import {
  ApiToken,
  ApiTokenListQuery,
  ApiTokenParams,
  CreateApiTokenBody,
  CreatedApiToken,
  type CreateApiTokenBody as CreateBody,
} from './schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function nameOf(body: CreateBody): string {
  const name = body.name.trim();
  if (name === '') throw Invalid('name must not be blank', [{ path: '/body/name', message: 'must not be blank' }]);
  return name;
}

/** Issue 10, section 1: a user's API tokens (README: "API tokens"). */
export const tokenRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(tokenListRoutes, context);
  await app.register(tokenRevokeRoutes, context);
};

/** A user's tokens listed and made. */
const tokenListRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;
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
      const tokens = listApiTokens(
        db,
        request.query.all ? { organizationId: principal.organizationId } : { userId: principal.userId },
      );
      return withRecordedUse(db, tokens);
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
      const grant = { name: nameOf(body), scopes: body.scopes, clientId: body.clientId ?? null };
      checkGrant(db, principal, grant);
      const created = await write(db, () => {
        const now = clock.now();
        authorizeWrite(db, principal, NEEDS.ownTokens, now);
        const expiresAt = body.expiresInDays == null ? null : now + body.expiresInDays * DAY_MS;
        const token = grantToken(db, principal, grant, expiresAt, now);
        recordChange(
          db,
          principal,
          {
            action: 'token.created',
            target: { type: 'token', id: token.id, name: token.name },
            clientId: token.client_id,
            summary: { scopes: token.scopes },
          },
          now,
        );
        return token;
      });
      reply.code(201);
      return created;
    },
  );
};

/** A token revoked: its owner's, or any of the organization's for an Admin. */
const tokenRevokeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;
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
      const principal = principalOf(request);
      await write(db, () => {
        authorizeWrite(db, principal, NEEDS.ownTokens, clock.now());
        const token = apiTokenById(db, principal.organizationId, request.params.id);
        if (token === undefined || (token.user_id !== principal.userId && principal.role !== 'admin')) {
          throw NotFound('No API token with this id');
        }
        revokeApiToken(db, token.id);
        recordChange(
          db,
          principal,
          {
            action: 'token.revoked',
            target: { type: 'token', id: token.id, name: token.name },
            clientId: token.client_id,
          },
          clock.now(),
        );
      });
      return { success: true as const };
    },
  );
};
