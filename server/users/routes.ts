import { recordChange } from '../audit/queries.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { authorizeWrite } from '../auth/authorize.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { credentialsByEmail, deleteOtherSessions, deleteSessionsOfUser, sessionUserById } from '../auth/queries.js';
import { deleteApiTokensOfUser } from '../tokens/queries.js';
import { Me } from '../auth/schemas.js';
import { clientById } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import { write } from '../db/write.js';
import { Conflict, Forbidden, Invalid, NotFound, TooManyRequests } from '../http/errors.js';
import { NEEDS, principalOf, requireAccess, type Principal } from '../http/guards.js';
import { errors, Success, type Role } from '../http/schemas.js';
import {
  countAdmins,
  deleteUser,
  emailTaken,
  insertUser,
  listUsers,
  organizationName,
  updateUser,
  userById,
} from './queries.js';
import { ChangeOwnPasswordBody, CreateUserBody, UpdateUserBody, User, UserParams } from './schemas.js';

/** What a user's change changed, for the trail: never the password itself, only that it changed. */
function userChanges(
  before: { email: string; role: string; client_id: string | null },
  after: { email: string; role: string; client_id: string | null },
  password: boolean,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['email', 'role', 'client_id'] as const) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  if (password) changes.password = { from: '(hidden)', to: '(changed)' };
  return changes;
}

const LAST_ADMIN = 'This is the last Admin of the organization: make another user an Admin first';

/** A Client Viewer needs a client of the organization; the other roles have none (README: "Roles"). */
function checkClientAssignment(db: Db, organizationId: string, role: Role, clientId: string | null): void {
  if (role === 'client_viewer') {
    if (clientId === null) {
      throw Invalid('A Client Viewer needs a client: send clientId', [
        { path: '/body/clientId', message: 'is required for client_viewer' },
      ]);
    }
    if (clientById(db, organizationId, clientId) === undefined) {
      throw Invalid('clientId does not name a client of your organization', [
        { path: '/body/clientId', message: 'is not a client of your organization' },
      ]);
    }
  } else if (clientId !== null) {
    throw Invalid('Only a Client Viewer is assigned a client', [
      { path: '/body/clientId', message: `must be absent for role ${role}` },
    ]);
  }
}

/** The caller (any role), and user management (Admin): one plugin each, registered together. */
export const userRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(meRoutes, context);
  await app.register(userListRoutes, context);
  await app.register(userChangeRoutes, context);
  await app.register(userRemoveRoutes, context);
};

/** The caller itself: its profile and its own password. */
const meRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock, loginThrottle }) => {
  const db = store.db;

  app.get(
    '/api/me',
    { schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: Me, ...errors(401) } } },
    async (request) => {
      const principal = principalOf(request);
      const user = sessionUserById(db, principal.userId)!;
      return {
        ...user,
        organization: { id: principal.organizationId, name: organizationName(db, principal.organizationId) },
      };
    },
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
      await write(db, () => {
        authorizeWrite(db, principal, NEEDS.signedIn, clock.now());
        updateUser(db, principal.userId, { passwordHash }, clock.now());
        recordChange(
          db,
          principal,
          { action: 'user.password_changed', target: { type: 'user', id: principal.userId, name: principal.email } },
          clock.now(),
        );
        // As when an Admin sets it (PATCH /api/users/:id): the password may have leaked.
        deleteOtherSessions(db, principal.userId, principal.credential.id);
        deleteApiTokensOfUser(db, principal.userId);
      });
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
    const stored = credentialsByEmail(db, principal.email);
    if (stored === undefined || !(await verifyPassword(stored.password_hash, password))) {
      loginThrottle.account.fail(account);
      throw Invalid('current_password is wrong', [{ path: '/body/current_password', message: 'is wrong' }]);
    }
    loginThrottle.account.succeed(account);
  }
};

// What user management needs, checked when the headers arrive and again inside each write.
const ADMIN = NEEDS.admin;

/** The organization's users, listed and added (Admin). */
const userListRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;
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
    async (request) => listUsers(db, principalOf(request).organizationId),
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
      const { organizationId } = principal;
      const clientId = request.body.clientId ?? null;
      checkClientAssignment(db, organizationId, request.body.role, clientId);
      if (emailTaken(db, request.body.email)) throw Conflict('A user with this e-mail address already exists');
      const passwordHash = await hashPassword(request.body.password);
      const user = await write(db, () => {
        authorizeWrite(db, principal, ADMIN, clock.now());
        // Again under the write lock: the client may have gone while the password was hashed.
        checkClientAssignment(db, organizationId, request.body.role, clientId);
        if (emailTaken(db, request.body.email)) throw Conflict('A user with this e-mail address already exists');
        const created = insertUser(
          db,
          { organizationId, email: request.body.email, passwordHash, role: request.body.role, clientId },
          clock.now(),
        );
        recordChange(
          db,
          principal,
          {
            action: 'user.created',
            target: { type: 'user', id: created.id, name: created.email },
            clientId,
            summary: { role: created.role },
          },
          clock.now(),
        );
        return created;
      });
      reply.code(201);
      return user;
    },
  );
};

/** A user changed (Admin). */
const userChangeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;
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
      const before = userById(db, organizationId, id);
      if (before === undefined) throw NotFound('No user with this id');
      const role = body.role ?? before.role;
      // Leaving the Client Viewer role drops the client; keeping it keeps the client unless a new one is sent.
      const clientId = body.clientId !== undefined ? body.clientId : role === 'client_viewer' ? before.client_id : null;
      checkClientAssignment(db, organizationId, role, clientId);
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
      return write(db, () => {
        authorizeWrite(db, principal, ADMIN, clock.now());
        // Again under the write lock: the user or the client may have changed while the password was hashed.
        const current = userById(db, organizationId, id);
        if (current === undefined) throw NotFound('No user with this id');
        if (current.role === 'admin' && role !== 'admin' && countAdmins(db, organizationId) === 1)
          throw Conflict(LAST_ADMIN);
        if (body.email !== undefined && emailTaken(db, body.email, id)) {
          throw Conflict('A user with this e-mail address already exists');
        }
        checkClientAssignment(db, organizationId, role, clientId);
        updateUser(db, id, { email: body.email, passwordHash, role, clientId }, clock.now());
        if (passwordHash !== undefined || role !== current.role || clientId !== current.client_id)
          deleteSessionsOfUser(db, id);
        // A new password may follow a leak: the user's API tokens go with it, as does a Client Viewer's
        // when its client changes. A new role only narrows them, at once (README: "API tokens").
        if (passwordHash !== undefined || clientId !== current.client_id) deleteApiTokensOfUser(db, id);
        const after = userById(db, organizationId, id)!;
        recordChange(
          db,
          principal,
          {
            action: 'user.updated',
            target: { type: 'user', id, name: after.email },
            changes: userChanges(current, after, passwordHash !== undefined),
          },
          clock.now(),
        );
        return after;
      });
    },
  );
};

/** A user removed (Admin); never the organization's last Admin. */
const userRemoveRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock }) => {
  const db = store.db;
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
      const principal = principalOf(request);
      await write(db, () => {
        authorizeWrite(db, principal, ADMIN, clock.now());
        const user = userById(db, principal.organizationId, request.params.id);
        if (user === undefined) throw NotFound('No user with this id');
        if (user.role === 'admin' && countAdmins(db, principal.organizationId) === 1) throw Conflict(LAST_ADMIN);
        deleteUser(db, user.id);
        recordChange(
          db,
          principal,
          { action: 'user.deleted', target: { type: 'user', id: user.id, name: user.email }, clientId: user.client_id },
          clock.now(),
        );
      });
      return { success: true as const };
    },
  );
};
