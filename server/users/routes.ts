import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { Me } from '../auth/schemas.js';
import { Forbidden, Invalid, NotFound, TooManyRequests } from '../http/errors.js';
import { NEEDS, principalOf, requireAccess, type Principal } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { ChangeOwnPasswordBody, CreateUserBody, UpdateUserBody, User, UserParams } from './schemas.js';

/** The caller (any role), and user management (Admin): one plugin each, registered together. */
export const userRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(meRoutes, context);
  await app.register(userListRoutes, context);
  await app.register(userChangeRoutes, context);
  await app.register(userRemoveRoutes, context);
};

/** The caller itself: its profile and its own password. */
const meRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock, loginThrottle }) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['users'],
        summary: "The signed-in user, and what this request's credential (a session or an API token) may do",
        response: { 200: Me, ...errors(401) },
      },
    },
    async (request) => data.users.me(principalOf(request)),
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own password; your other sessions end and your API tokens are revoked',
        body: ChangeOwnPasswordBody,
        response: { 200: Success, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.credential.kind !== 'session') {
        throw Forbidden('An API token cannot change a password: sign in to the dashboard');
      }
      await checkCurrentPassword(principal, request.body.current_password);
      const passwordHash = await hashPassword(request.body.new_password);
      await data.users.changeOwnPassword(principal, passwordHash, clock.now());
      return { success: true as const };
    },
  );

  /** The current password, under the sign-in's per-account back-off: a stolen session cannot guess it fast. */
  async function checkCurrentPassword(principal: Principal, password: string): Promise<void> {
    const account = `account:${principal.email}`;
    const waitMs = loginThrottle.account.waitMs(account);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw TooManyRequests(`Too many wrong passwords: try again in ${seconds} s`, seconds);
    }
    const stored = await data.users.passwordHashOf(principal.email);
    if (stored === undefined || !(await verifyPassword(stored, password))) {
      loginThrottle.account.fail(account);
      throw Invalid('current_password is wrong', [{ path: '/body/current_password', message: 'is wrong' }]);
    }
    loginThrottle.account.succeed(account);
  }
};

// What user management needs, checked when the headers arrive and again inside each write.
const ADMIN = NEEDS.admin;

/** The organization's users, listed and added (Admin). */
const userListRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  const admin = { onRequest: requireAccess(ADMIN) };

  app.get(
    '/api/users',
    {
      ...admin,
      schema: {
        tags: ['users'],
        summary: "The organization's users (Admin)",
        response: { 200: Type.Array(User), ...errors(401, 403) },
      },
    },
    async (request) => data.users.list(principalOf(request).organizationId),
  );

  app.post(
    '/api/users',
    {
      ...admin,
      schema: {
        tags: ['users'],
        summary: 'Add a user (Admin)',
        body: CreateUserBody,
        response: { 201: User, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { email, role, password } = request.body;
      const clientId = request.body.clientId ?? null;
      await data.users.checkNew(principal.organizationId, { role, clientId, email });
      const passwordHash = await hashPassword(password);
      const user = await data.users.create(principal, { email, passwordHash, role, clientId }, clock.now());
      reply.code(201);
      return user;
    },
  );
};

/** A user changed (Admin). */
const userChangeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  const admin = { onRequest: requireAccess(ADMIN) };

  app.patch(
    '/api/users/:id',
    {
      ...admin,
      schema: {
        tags: ['users'],
        summary: "Change a user's e-mail, password, role or client; a new password or role ends their sessions (Admin)",
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: User, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { organizationId } = principal;
      const { id } = request.params;
      const body = request.body;
      const before = await data.users.byId(organizationId, id);
      if (before === undefined) throw NotFound('No user with this id');
      const role = body.role ?? before.role;
      // Leaving the Client Viewer role drops the client; keeping it keeps the client unless a new one is sent.
      const clientId = body.clientId !== undefined ? body.clientId : role === 'client_viewer' ? before.client_id : null;
      await data.users.checkNew(organizationId, { role, clientId });
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
      return data.users.update(principal, id, { email: body.email, passwordHash, role, clientId }, clock.now());
    },
  );
};

/** A user removed (Admin); never the organization's last Admin. */
const userRemoveRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  const admin = { onRequest: requireAccess(ADMIN) };

  app.delete(
    '/api/users/:id',
    {
      ...admin,
      schema: {
        tags: ['users'],
        summary: 'Remove a user and end their sessions (Admin)',
        params: UserParams,
        response: { 200: Success, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await data.users.remove(principalOf(request), request.params.id, clock.now());
      return { success: true as const };
    },
  );
};
