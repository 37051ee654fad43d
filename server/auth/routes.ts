import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app.js';
import { Conflict, nameOrRefusal, TooManyRequests, Unauthorized } from '../http/errors.js';
import { errors, Success } from '../http/schemas.js';
import { principalOf } from '../http/guards.js';
import { deviceCookie, trustedDevice } from './device.js';
import { verifyAgainstNobody, verifyPassword } from './passwords.js';
import type { IssuedTokens } from '../store/store.js';
import { LoginBody, RefreshBody, SetupBody, SetupStatus, TokenResponse, type SessionUser } from './schemas.js';
import { makeAuthenticate } from './session.js';
import { ACCESS_TOKEN_SECONDS } from './tokens.js';

const WRONG_CREDENTIALS = 'Wrong e-mail or password';

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
  const { data, clock, loginThrottle } = context;

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
      const found = await data.auth.credentialsByEmail(request.body.email);
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
        // Once per burst, by the guess that started the account's back-off (README: "Audit trail").
        if (outcome.throttled && found !== undefined)
          await data.auth.signInThrottled(found, request.ip, outcome.failures, clock.now());
        throw Unauthorized(WRONG_CREDENTIALS);
      }
      const { password_hash: passwordHash, ...user } = outcome.value;
      // This browser is now known to the account: others' guesses will not lock it out (auth/device.ts).
      reply.header('set-cookie', deviceCookie(user.id, passwordHash));
      const session = await data.auth.signIn(user, request.ip, clock.now());
      return tokenResponse(session, user);
    },
  );
};

/** A session renewed or ended. */
const sessionRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { data, clock } = context;

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
      const outcome = await data.auth.refresh(request.body.refresh_token, clock.now());
      if (outcome.kind === 'reused') {
        request.log.warn('a rotated refresh token was presented again: the session is revoked');
        throw Unauthorized('This refresh token was already used; the session has been ended. Sign in again.');
      }
      if (outcome.kind === 'invalid') throw Unauthorized('The refresh token is invalid or has expired. Sign in again.');
      const user = await data.auth.userById(outcome.userId);
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
        response: { 200: Success, ...errors(400, 401) },
      },
    },
    async (request) => {
      await data.auth.end(principalOf(request).credential);
      return { success: true as const };
    },
  );
};

/** First-run setup: whether it is needed, and the first Admin with its organization. */
const setupRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { data, clock } = context;

  app.get(
    '/auth/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether the first account can still be created',
        response: { 200: SetupStatus },
      },
    },
    async () => ({ needed: !(await data.auth.anyUserExists()) }),
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
      if (await data.auth.anyUserExists()) throw Conflict('Agency Desk is already set up: sign in instead');
      nameOrRefusal(request.body.organization_name, 'organization_name');
      const created = await data.auth.setUp(
        {
          organizationName: request.body.organization_name,
          email: request.body.email,
          password: request.body.password,
        },
        clock.now(),
      );
      if (created === undefined) throw Conflict('Agency Desk is already set up: sign in instead');
      const user = (await data.auth.userById(created.id))!;
      const { password_hash: passwordHash } = (await data.auth.credentialsByEmail(user.email))!;
      reply.header('set-cookie', deviceCookie(user.id, passwordHash));
      reply.code(201);
      return tokenResponse(await data.auth.startSession(user.id, clock.now()), user);
    },
  );
};
