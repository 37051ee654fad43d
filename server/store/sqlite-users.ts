import { recordChange } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { credentialsByEmail, deleteOtherSessions, deleteSessionsOfUser, sessionUserById } from '../auth/queries.js';
import { clientById } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import { write } from '../db/write.js';
import { Conflict, Invalid, NotFound } from '../http/errors.js';
import { accessOf, NEEDS } from '../http/guards.js';
import type { Role } from '../http/schemas.js';
import { deleteApiTokensOfUser } from '../tokens/queries.js';
import {
  countAdmins,
  deleteUser,
  emailTaken,
  insertUser,
  listUsers,
  organizationName,
  updateUser,
  userById,
} from '../users/queries.js';
import type { UserStore } from './store.js';

// What user management needs, checked when the headers arrive and again inside each write.
const ADMIN = NEEDS.admin;
const LAST_ADMIN = 'This is the last Admin of the organization: make another user an Admin first';
const EMAIL_TAKEN = 'A user with this e-mail address already exists';

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

/** The users' side of the SQLite store: each write one transaction, the Admin's right re-checked inside. */
export function sqliteUsers(db: Db): UserStore {
  return {
    me: async (principal) => ({
      ...sessionUserById(db, principal.userId)!,
      organization: { id: principal.organizationId, name: organizationName(db, principal.organizationId) },
      access: accessOf(principal),
    }),
    passwordHashOf: async (email) => credentialsByEmail(db, email)?.password_hash,
    list: async (organizationId) => listUsers(db, organizationId),
    byId: async (organizationId, id) => userById(db, organizationId, id),
    checkNew: async (organizationId, user) => {
      checkClientAssignment(db, organizationId, user.role, user.clientId);
      if (user.email !== undefined && emailTaken(db, user.email, user.id)) throw Conflict(EMAIL_TAKEN);
    },
    changeOwnPassword: (principal, passwordHash, now) =>
      write(db, () => {
        authorizeWrite(db, principal, NEEDS.signedIn, now);
        updateUser(db, principal.userId, { passwordHash }, now);
        const target = { type: 'user' as const, id: principal.userId, name: principal.email };
        recordChange(db, principal, { action: 'user.password_changed', target }, now);
        // As when an Admin sets it (PATCH /api/users/:id): the password may have leaked.
        deleteOtherSessions(db, principal.userId, principal.credential.id);
        deleteApiTokensOfUser(db, principal.userId);
      }),
    create: (principal, user, now) =>
      write(db, () => {
        const { organizationId } = principal;
        authorizeWrite(db, principal, ADMIN, now);
        // Again under the write lock: the client may have gone while the password was hashed.
        checkClientAssignment(db, organizationId, user.role, user.clientId);
        if (emailTaken(db, user.email)) throw Conflict(EMAIL_TAKEN);
        const created = insertUser(db, { organizationId, ...user }, now);
        const target = { type: 'user' as const, id: created.id, name: created.email };
        const summary = { role: created.role };
        recordChange(db, principal, { action: 'user.created', target, clientId: user.clientId, summary }, now);
        return created;
      }),
    update: (principal, id, change, now) =>
      write(db, () => {
        const { organizationId } = principal;
        const { email, passwordHash, role, clientId } = change;
        authorizeWrite(db, principal, ADMIN, now);
        // Again under the write lock: the user or the client may have changed while the password was hashed.
        const current = userById(db, organizationId, id);
        if (current === undefined) throw NotFound('No user with this id');
        if (current.role === 'admin' && role !== 'admin' && countAdmins(db, organizationId) === 1)
          throw Conflict(LAST_ADMIN);
        if (email !== undefined && emailTaken(db, email, id)) throw Conflict(EMAIL_TAKEN);
        checkClientAssignment(db, organizationId, role, clientId);
        updateUser(db, id, { email, passwordHash, role, clientId }, now);
        if (passwordHash !== undefined || role !== current.role || clientId !== current.client_id)
          deleteSessionsOfUser(db, id);
        // A new password may follow a leak: the user's API tokens go with it, as does a Client Viewer's
        // when its client changes. A new role only narrows them, at once (README: "API tokens").
        if (passwordHash !== undefined || clientId !== current.client_id) deleteApiTokensOfUser(db, id);
        const after = userById(db, organizationId, id)!;
        const target = { type: 'user' as const, id, name: after.email };
        const changes = userChanges(current, after, passwordHash !== undefined);
        recordChange(db, principal, { action: 'user.updated', target, changes }, now);
        return after;
      }),
    remove: (principal, id, now) =>
      write(db, () => {
        authorizeWrite(db, principal, ADMIN, now);
        const user = userById(db, principal.organizationId, id);
        if (user === undefined) throw NotFound('No user with this id');
        if (user.role === 'admin' && countAdmins(db, principal.organizationId) === 1) throw Conflict(LAST_ADMIN);
        deleteUser(db, user.id);
        const target = { type: 'user' as const, id: user.id, name: user.email };
        recordChange(db, principal, { action: 'user.deleted', target, clientId: user.client_id }, now);
      }),
  };
}
