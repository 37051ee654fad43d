import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../app.js';
import { HttpError } from '../http/errors.js';
import { API_TOKEN_PREFIX, isApiTokenSecret } from '../tokens/queries.js';

// RFC 9110 §11.1: the scheme is case-insensitive ("bearer", "BEARER").
const BEARER = /^Bearer +([A-Za-z0-9_-]{20,200})$/i;

/**
 * A 401 that says how to authenticate (RFC 9110 §11.6.1, RFC 6750 §3): `Bearer` alone when no credential
 * came, with error="invalid_token" when one came and was refused.
 */
export function notAuthenticated(message: string, tokenSent: boolean): HttpError {
  const challenge = tokenSent ? 'Bearer error="invalid_token"' : 'Bearer';
  return new HttpError(401, message, undefined, { 'www-authenticate': challenge });
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw notAuthenticated('Sign in first: send Authorization: Bearer <access token>', false);
  const match = BEARER.exec(header.trim());
  if (match === null) {
    // "Bearer nope" has the right form, and a token that cannot be one: it is the token that is wrong. One
    // with the API tokens' prefix, cut or mistyped, is told so, not to sign in (found by a script's walk).
    const token = /^Bearer +(\S+)$/i.exec(header.trim())?.[1];
    const words =
      token === undefined
        ? 'The Authorization header must be "Bearer <access token>"'
        : token.startsWith(API_TOKEN_PREFIX)
          ? 'The API token is not valid: copy it whole, as it was shown when it was made'
          : 'The access token is invalid or has expired: refresh it or sign in again';
    throw notAuthenticated(words, true);
  }
  return match[1]!;
}

/** The onRequest hook of every /api route: a valid, unexpired access token or API token, or 401. */
export function makeAuthenticate(context: AppContext): onRequestHookHandler {
  const { sessions } = context.data;
  return async function authenticate(request) {
    const bearer = bearerToken(request);
    const now = context.clock.now();
    const principal = await sessions.principalByBearer(bearer, now);
    if (principal === undefined) {
      // An API token's 401 says nothing of why: unknown, revoked and expired look the same to a prober.
      throw notAuthenticated(
        isApiTokenSecret(bearer)
          ? 'The API token is not valid'
          : 'The access token is invalid or has expired: refresh it or sign in again',
        true,
      );
    }
    if (principal.credential.kind === 'api_token') sessions.recordTokenUse(principal.credential.id, now);
    request.principal = principal;
  };
}
