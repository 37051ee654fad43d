import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../app.js';
import { Unauthorized } from '../http/errors.js';
import { principalByAccessToken } from './queries.js';

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,200})$/;

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw Unauthorized('Sign in first: send Authorization: Bearer <access token>');
  const match = BEARER.exec(header.trim());
  if (match === null) throw Unauthorized('The Authorization header must be "Bearer <access token>"');
  return match[1]!;
}

/** The onRequest hook of every /api route: a valid, unexpired access token or 401. */
export function makeAuthenticate(context: AppContext): onRequestHookHandler {
  return async function authenticate(request) {
    const principal = principalByAccessToken(context.store.db, bearerToken(request), context.clock.now());
    if (principal === undefined) {
      throw Unauthorized('The access token is invalid or has expired: refresh it or sign in again');
    }
    request.principal = principal;
  };
}
