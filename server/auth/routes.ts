import { recordEntry, systemActor } from '../audit/queries.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app.js';
import type { Db } from '../db/open.js';
import { write } from '../db/write.js';
import { Conflict, Invalid, TooManyRequests, Unauthorized } from '../http/errors.js';
import { errors, Success } from '../http/schemas.js';
import { principalOf } from '../http/guards.js';
import { bootstrapAdmin } from '../users/bootstrap.js';
import { anyUserExists } from '../users/queries.js';
import { deviceCookie, trustedDevice } from './device.js';
import { verifyAgainstNobody, verifyPassword } from './passwords.js';
import {
  createSession,
  credentialsByEmail,
  endCredential,
  rotateSession,
  sessionUserById,
  type IssuedTokens,
} from './queries.js';
import { LoginBody, RefreshBody, SetupBody, SetupStatus, TokenResponse, type SessionUser } from './schemas.js';
import { makeAuthenticate } from './session.js';
import { ACCESS_TOKEN_SECONDS } from './tokens.js';

const WRONG_CREDENTIALS = 'Wrong e-mail or password';

/**
 * A burst of wrong passwords for an account that reached the throttle, in the trail once per burst (the
 * guess that started the back-off), never once per guess: refused guesses cannot fill the trail. The
 * actor is the throttle itself: who guessed is not known, only the address the guesses came from.
 */
async function recordThrottled(
  db: Db,
  user: { id: string; organization_id: string; email: string; client_id: string | null },
  address: string,
  failures: number,
  now: number,
): Promise<void> {
  await write(db, () =>
    recordEntry(
      db,
      {
        organizationId: user.organization_id,
        actor: systemActor('the sign-in throttle'),
        action: 'user.sign_in_throttled',
        target: { type: 'user', id: user.id, name: user.email },
        clientId: user.client_id,
        summary: { address, failures },
      },
      now,
    ),
  );
}

function tokenResponse(tokens: IssuedTokens, user: SessionUser): TokenResponse {
  return {
    access_token: tokens.accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: new Date(tokens.accessExpiresAt).toISOString(),
    refresh_token: tokens.refreshToken,
    user,
  };
}

/** Sign-in, refresh, sign-out and first-run setup (spec section 5; README: "Sessions"). */
export const authRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(signInRoutes, context);
  await app.register(sessionRoutes, context);
  await app.register(setupRoutes, context);
};

/** Sign-in with e-mail and password, under the throttle and with the device cookie. */
const signInRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { store, clock, loginThrottle } = context;
  const db = store.db;

  app.post(
    '/auth/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Obtain a session token with e-mail and password',
        body: LoginBody,
        response: { 200: TokenResponse, ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const found = credentialsByEmail(db, request.body.email);
      const outcome = await loginThrottle.attempt(
        {
          email: request.body.email,
          ip: request.ip,
          device: found === undefined ? null : trustedDevice(request.headers.cookie, found.id, found.password_hash),
        },
        async () => {
          const ok =
            found === undefined
              ? await verifyAgainstNobody(request.body.password)
              : await verifyPassword(found.password_hash, request.body.password);
          return ok ? found : undefined;
        },
      );
      if (outcome.kind === 'wait') {
        const seconds = Math.ceil(outcome.ms / 1000);
        throw TooManyRequests(`Too many failed sign-ins: try again in ${seconds} s`, seconds);
      }
      if (outcome.kind === 'wrong') {
        if (outcome.throttled && found !== undefined)
          await recordThrottled(db, found, request.ip, outcome.failures, clock.now());
        throw Unauthorized(WRONG_CREDENTIALS);
      }
      const { password_hash: passwordHash, ...user } = outcome.value;
      // This browser is now known to the account: others' guesses will not lock it out (auth/device.ts).
      reply.header('set-cookie', deviceCookie(user.id, passwordHash));
      const session = await write(db, () => {
        const tokens = createSession(db, user.id, clock.now());
        // A new session, in the trail with the session itself (issue 11).
        recordEntry(
          db,
          {
            organizationId: user.organization_id,
            actor: { type: 'user', id: user.id, email: user.email, name: user.email, token_id: null },
            action: 'user.signed_in',
            target: { type: 'user', id: user.id, name: user.email },
            clientId: user.client_id,
            summary: { address: request.ip },
          },
          clock.now(),
        );
        return tokens;
      });
      return tokenResponse(session, user);
    },
  );
};

/** A session renewed or ended. */
const sessionRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { store, clock } = context;
  const db = store.db;

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new token pair (the old refresh token stops working)',
        body: RefreshBody,
        response: { 200: TokenResponse, ...errors(400, 401) },
      },
    },
    async (request) => {
      const outcome = await write(db, () => rotateSession(db, request.body.refresh_token, clock.now()));
      if (outcome.kind === 'reused') {
        request.log.warn('a rotated refresh token was presented again: the session is revoked');
        throw Unauthorized('This refresh token was already used; the session has been ended. Sign in again.');
      }
      if (outcome.kind === 'invalid') throw Unauthorized('The refresh token is invalid or has expired. Sign in again.');
      const user = sessionUserById(db, outcome.userId);
      if (user === undefined) throw Unauthorized('The account no longer exists');
      return tokenResponse(outcome.tokens, user);
    },
  );

  app.post(
    '/auth/logout',
    {
      onRequest: makeAuthenticate(context),
      schema: {
        tags: ['auth'],
        summary: 'End the session of the access token',
        security: [{ bearer: [] }],
        response: { 200: Success, ...errors(401) },
      },
    },
    async (request) => {
      await write(db, () => endCredential(db, principalOf(request).credential));
      return { success: true as const };
    },
  );
};

/** First-run setup: whether it is needed, and the first Admin with its organization. */
const setupRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { store, clock } = context;
  const db = store.db;

  app.get(
    '/auth/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether the first account can still be created',
        response: { 200: SetupStatus },
      },
    },
    async () => ({ needed: !anyUserExists(db) }),
  );

  app.post(
    '/auth/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'First run only: create the organization and its first Admin, and sign in',
        body: SetupBody,
        response: { 201: TokenResponse, ...errors(400, 409) },
      },
    },
    async (request, reply) => {
      if (anyUserExists(db)) throw Conflict('Agency Desk is already set up: sign in instead');
      if (request.body.organization_name.trim() === '') {
        throw Invalid('organization_name must not be blank', [
          { path: '/body/organization_name', message: 'must not be blank' },
        ]);
      }
      const created = await bootstrapAdmin(
        db,
        {
          organizationName: request.body.organization_name,
          email: request.body.email,
          password: request.body.password,
        },
        clock.now(),
      );
      if (created === undefined) throw Conflict('Agency Desk is already set up: sign in instead');
      const user = sessionUserById(db, created.id)!;
      reply.header('set-cookie', deviceCookie(user.id, credentialsByEmail(db, user.email)!.password_hash));
      reply.code(201);
      return tokenResponse(await write(db, () => createSession(db, user.id, clock.now())), user);
    },
  );
};
