import { mappingStore } from './sqlite-mappings.js';
import { listEntries, recordChange, recordEntry, systemActor } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import {
  createSession,
  credentialsByEmail,
  endCredential,
  principalByBearer,
  revokeApiToken,
  rotateSession,
  sessionUserById,
} from '../auth/queries.js';
import { bootstrapAdmin } from '../users/bootstrap.js';
import { anyUserExists } from '../users/queries.js';
import { clientChanges, recordClientEntry } from '../clients/audit.js';
import { clientById, insertClient, listClients, updateClient } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import type { LocationRecord } from '../locations/schemas.js';
import { isWholeList } from '../db/sql.js';
import { write } from '../db/write.js';
import { HttpError, NotFound } from '../http/errors.js';
import { NEEDS } from '../http/guards.js';
import { patchLocation } from '../locations/edit.js';
import {
  clientOrganization,
  locationRecord,
  locationsJson,
  locationsJsonPieces,
  registerLocationFunctions,
} from '../locations/queries.js';
import { rescoreLocations } from '../locations/rescore.js';
import { checkGrant, grantToken } from '../tokens/grant.js';
import { apiTokenById, listApiTokens } from '../tokens/queries.js';
import { recordTokenUse, withRecordedUse } from '../tokens/usage.js';
import type { AuditStore, AuthStore, ClientStore, DataStore, DeviceStore, LocationStore, TokenStore } from './store.js';
import { sqliteUsers } from './sqlite-users.js';
import type { Writer } from './writer.js';

/**
 * The store on SQLite: today's synchronous `(db, ...)` functions on the server's connection, each write
 * one IMMEDIATE transaction (db/write.ts), and the long writes (imports, bulk changes, a client's
 * deletion) sent to the writer thread, one typed request and one reply each (store/writes.ts).
 */
export function sqliteStore(db: Db, writer: Writer): DataStore {
  // The writer thread does the checkpoints (store/writer-worker.ts): this connection's event loop never
  // copies the pages of a big import into the database file.
  db.pragma('wal_autocheckpoint = 0');
  // Locations stored under older rules (health, keys) are brought up to date before any request.
  rescoreLocations(db);
  registerLocationFunctions(db);
  return {
    clients: clientStore(db, writer),
    locations: locationStore(db, writer),
    audit: auditStore(db, writer),
    tokens: tokenStore(db),
    auth: authStore(db),
    mappings: mappingStore(db),
    users: sqliteUsers(db),
    devices: deviceStore(db),
    sessions: {
      principalByBearer: async (bearer, now) => principalByBearer(db, bearer, now),
      recordTokenUse: (tokenId, now) => recordTokenUse(db, tokenId, now),
    },
  };
}

function clientStore(db: Db, writer: Writer): ClientStore {
  return {
    list: async (organizationId, page) => listClients(db, organizationId, page),
    byId: async (organizationId, clientId) => clientById(db, organizationId, clientId),
    exists: async (clientId) => clientOrganization(db, clientId) !== undefined,
    create: (principal, fields, now) =>
      write(db, () => {
        authorizeWrite(db, principal, NEEDS.createClient, now);
        const created = insertClient(db, principal.organizationId, fields, now);
        recordClientEntry(db, principal, 'client.created', created, null, now);
        return created;
      }),
    update: (principal, clientId, fields, now) =>
      write(db, () => {
        authorizeWrite(db, principal, { ...NEEDS.clients, clientId }, now);
        const before = clientById(db, principal.organizationId, clientId);
        if (before === undefined) throw NotFound('No client with this id');
        const after = { ...before, ...fields };
        const changes = clientChanges(before, after);
        // Nothing changed: nothing written, nothing traced (as a location's PATCH).
        if (changes === null) return before;
        updateClient(db, clientId, after);
        recordClientEntry(db, principal, 'client.updated', after, changes, now);
        return after;
      }),
    delete: (principal, clientId, now) => writer.write('deleteClient', { principal, clientId, now }),
  };
}

/** Thrown out of a dry run's transaction, so that SQLite rolls it back, with what it would have answered. */
class RolledBack extends Error {
  constructor(readonly record: LocationRecord) {
    super('dry run');
  }
}

function locationStore(db: Db, writer: Writer): LocationStore {
  return {
    // SQLite writes the JSON (locations/queries.ts): the whole list in pieces read as the answer drains.
    listJson: async (clientId, page, withPlace) =>
      isWholeList(page) ? locationsJsonPieces(db, clientId, withPlace) : locationsJson(db, clientId, page, withPlace),
    record: async (organizationId, id) => locationRecord(db, organizationId, id),
    patch: (principal, id, body, now, dryRun = false) =>
      write(db, () => {
        patchLocation(db, principal, id, body, now);
        const record = locationRecord(db, principal.organizationId, id)!;
        // A dry run is the change itself, undone: the same checks, the record as it would be.
        if (dryRun) throw new RolledBack(record);
        return record;
      }).catch((error: unknown) => {
        if (error instanceof RolledBack) return error.record;
        throw error;
      }),
    edit: (request) => writer.write('editLocations', request),
    delete: (request) => writer.write('deleteLocations', request),
    import: (request) => writer.importLocations(request),
  };
}

function auditStore(db: Db, writer: Writer): AuditStore {
  return {
    list: async (organizationId, query, reader) => listEntries(db, organizationId, query, reader),
    undo: (request) => writer.write('undoOperation', request),
  };
}

function tokenStore(db: Db): TokenStore {
  return {
    list: async (of) => withRecordedUse(db, listApiTokens(db, of)),
    create: (principal, grant, expiresAt, now) =>
      write(db, () => {
        // A grant beyond the caller's rights is its 400 or 403 before the caller's own right is re-checked.
        checkGrant(db, principal, grant);
        authorizeWrite(db, principal, NEEDS.ownTokens, now);
        const token = grantToken(db, principal, grant, expiresAt, now);
        const target = { type: 'token' as const, id: token.id, name: token.name };
        const change = {
          action: 'token.created',
          target,
          clientId: token.client_id,
          summary: { scopes: token.scopes },
        };
        recordChange(db, principal, change, now);
        return token;
      }),
    revoke: (principal, tokenId, now) =>
      write(db, () => {
        authorizeWrite(db, principal, NEEDS.ownTokens, now);
        const token = apiTokenById(db, principal.organizationId, tokenId);
        if (token === undefined || (token.user_id !== principal.userId && principal.role !== 'admin')) {
          throw NotFound('No API token with this id');
        }
        revokeApiToken(db, token.id);
        const target = { type: 'token' as const, id: token.id, name: token.name };
        recordChange(db, principal, { action: 'token.revoked', target, clientId: token.client_id }, now);
      }),
  };
}

function authStore(db: Db): AuthStore {
  return {
    credentialsByEmail: async (email) => credentialsByEmail(db, email),
    userById: async (userId) => sessionUserById(db, userId),
    signIn: (user, address, now) =>
      write(db, () => {
        const tokens = createSession(db, user.id, now);
        // A new session, in the trail with the session itself (issue 11).
        const actor = { type: 'user' as const, id: user.id, email: user.email, name: user.email, token_id: null };
        const target = { type: 'user' as const, id: user.id, name: user.email };
        const entry = { organizationId: user.organization_id, actor, action: 'user.signed_in', target };
        recordEntry(db, { ...entry, clientId: user.client_id, summary: { address } }, now);
        return tokens;
      }),
    signInThrottled: (user, address, failures, now) =>
      write(db, () => {
        const target = { type: 'user' as const, id: user.id, name: user.email };
        const entry = { organizationId: user.organization_id, actor: systemActor('the sign-in throttle'), target };
        const summary = { address, failures };
        recordEntry(db, { ...entry, action: 'user.sign_in_throttled', clientId: user.client_id, summary }, now);
      }),
    startSession: (userId, now) => write(db, () => createSession(db, userId, now)),
    refresh: (refreshToken, now) => write(db, () => rotateSession(db, refreshToken, now)),
    end: (credential) => write(db, () => endCredential(db, credential)),
    anyUserExists: async () => anyUserExists(db),
    setUp: (admin, now) => bootstrapAdmin(db, admin, now),
  };
}

function deviceStore(db: Db): DeviceStore {
  return {
    checkApprover: async (principal, grant, now) => {
      authorizeWrite(db, principal, NEEDS.ownTokens, now);
      if (grant !== null) checkGrant(db, principal, grant);
    },
    grantApproved: (approverId, grant, now) =>
      write(db, () => {
        // The approver as the database has them now: the token is made with their rights at that moment.
        const user = sessionUserById(db, approverId);
        if (user === undefined) return undefined;
        const owner = {
          userId: approverId,
          organizationId: user.organization_id,
          role: user.role,
          clientId: user.client_id,
        };
        try {
          return grantToken(db, owner, grant, null, now);
        } catch (error) {
          if (error instanceof HttpError && error.statusCode < 500) return undefined;
          throw error;
        }
      }),
  };
}
