import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../app.js';
import { Unauthorized } from '../http/errors.js';
import { isApiTokenSecret } from '../tokens/queries.js';
import { recordTokenUse } from '../tokens/usage.js';
import { principalByBearer } from './queries.js';

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,200})$/;

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw Unauthorized('Sign in first: send Authorization: Bearer <access token>');
  const match = BEARER.exec(header.trim());
  if (match === null) throw Unauthorized('The Authorization header must be "Bearer <access token>"');
  return match[1]!;
}

/** The onRequest hook of every /api route: a valid, unexpired access token or API token, or 401. */
export function makeAuthenticate(context: AppContext): onRequestHookHandler {
  const db = context.store.db;
  return async function authenticate(request) {
    const bearer = bearerToken(request);
    const now = context.clock.now();
    const principal = principalByBearer(db, bearer, now);
    if (principal === undefined) {
      // An API token's 401 says nothing of why: unknown, revoked and expired look the same to a prober.
      throw Unauthorized(
        isApiTokenSecret(bearer)
          ? 'The API token is not valid'
          : 'The access token is invalid or has expired: refresh it or sign in again',
      );
    }
    if (principal.credential.kind === 'api_token') recordTokenUse(db, principal.credential.id, now);
    request.principal = principal;
  };
}
