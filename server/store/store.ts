import type { AuditEntry, AuditQuery } from '../audit/schemas.js';
import type { Reader } from '../audit/queries.js';
import type { Client, CreatedClient } from '../clients/schemas.js';
import type { NewClient } from '../clients/queries.js';
import type { Page } from '../db/sql.js';
import type { Credentials, IssuedTokens, RefreshOutcome } from '../auth/queries.js';
import type { Me, SessionUser } from '../auth/schemas.js';
import type { Credential, Principal } from '../http/guards.js';
import type { Role } from '../http/schemas.js';
import type { BootstrapAdmin } from '../users/bootstrap.js';
import type { User } from '../users/schemas.js';
import type { LocationRecord } from '../locations/schemas.js';
import type { TokenGrant } from '../tokens/grant.js';
import type { ApiToken, CreatedApiToken } from '../tokens/schemas.js';
import type { TableFormat } from '../imports/table-body.js';
import type { CreateMappingBody, Mapping, UpdateMappingBody } from '../mappings/schemas.js';
import type { ImportWriteRequest, Writes } from './writes.js';

/** The session's tokens as issued: the routes word them (auth/routes.ts tokenResponse). */
export type { IssuedTokens };

/**
 * The data operations the routes need, by feature: every route reaches the data through this interface
 * and awaits it, reads and writes alike. Today's store is SQLite's (store/sqlite-store.ts); a PostgreSQL
 * store for teams stands behind the same interface. Its contract (server/store/README.md): each write
 * method is one transaction; it checks the caller's right again inside it (auth/authorize.ts) and throws
 * the API's errors (http/errors.ts) for a refusal, after which nothing was written.
 */
export interface DataStore {
  clients: ClientStore;
  locations: LocationStore;
  audit: AuditStore;
  tokens: TokenStore;
  sessions: SessionStore;
  auth: AuthStore;
  users: UserStore;
  devices: DeviceStore;
  mappings: MappingStore;
}

/** A client's fields as a write sets them. */
export type ClientFields = Partial<NewClient>;

export interface ClientStore {
  /** The organization's clients, by name, one page of them, and how many there are. */
  list(organizationId: string, page: Page): Promise<{ clients: Client[]; total: number }>;
  byId(organizationId: string, clientId: string): Promise<Client | undefined>;
  /** Whether a client of this id exists in any organization: what a script's device request, not yet anyone's, can be told. */
  exists(clientId: string): Promise<boolean>;
  create(principal: Principal, fields: NewClient, now: number): Promise<CreatedClient>;
  /** Throws NotFound when the organization has no such client. */
  update(principal: Principal, clientId: string, fields: ClientFields, now: number): Promise<Client>;
  /** The client with its locations and Client Viewers, gone: false when there was none. */
  delete(principal: Principal, clientId: string, now: number): Promise<{ deleted: boolean }>;
}

/**
 * JSON text of a list, whole or in pieces, written by the database (the list's one hot path). A piece may
 * be UTF-8 bytes: the answer sends them as they are.
 */
export type JsonText = string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

export interface LocationStore {
  /**
   * A client's locations, in import order, as the JSON text of `Location[]` (with `google_place_id` when
   * asked): one page as one text, or the whole list (page without limit or offset) in pieces.
   */
  listJson(clientId: string, page: Page, withPlace: boolean): Promise<JsonText>;
  /** A location of the organization, whole, or undefined. */
  record(organizationId: string, id: string): Promise<LocationRecord | undefined>;
  /**
   * One location's fields changed (issue 9 §2); the record after. `dryRun`: every check the change
   * would pass (the store code's uniqueness too), the record as it would be, nothing kept.
   */
  patch(
    principal: Principal,
    id: string,
    body: Record<string, unknown>,
    now: number,
    dryRun?: boolean,
  ): Promise<LocationRecord>;
  edit(request: Writes['editLocations']['request']): Promise<Writes['editLocations']['reply']>;
  delete(request: Writes['deleteLocations']['request']): Promise<Writes['deleteLocations']['reply']>;
  /** An import, all or nothing; the body's pieces move to the store (transferred, not copied). */
  import(request: ImportWriteRequest): Promise<Writes['importLocations']['reply']>;
}

export interface AuditStore {
  /** A page of the trail, newest first, or with order=asc the change feed after the cursor (seq order). */
  list(
    organizationId: string,
    query: AuditQuery,
    reader: Reader,
  ): Promise<{ entries: AuditEntry[]; next_cursor: number | null }>;
  undo(request: Writes['undoOperation']['request']): Promise<Writes['undoOperation']['reply']>;
}

export interface TokenStore {
  /** A user's tokens, or every token of an organization, newest first, with their last use. */
  list(of: { userId: string } | { organizationId: string }): Promise<ApiToken[]>;
  /** A token made for the caller (its grant checked: http 400/403); its secret is in the answer, this once. */
  create(principal: Principal, grant: TokenGrant, expiresAt: number | null, now: number): Promise<CreatedApiToken>;
  /** Throws NotFound unless the token is the caller's, or the organization's for an Admin. */
  revoke(principal: Principal, tokenId: string, now: number): Promise<void>;
}

/** The auth hook's reads, on every request: who holds this bearer, and a note of an API token's use. */
export interface SessionStore {
  /** The caller behind an access token or an API token's secret, valid at `now`; undefined for none. */
  principalByBearer(bearer: string, now: number): Promise<Principal | undefined>;
  /** Notes an API token's use; written later and at most once a minute (never a write in the request). */
  recordTokenUse(tokenId: string, now: number): void;
}

/** Sign-in, the session's refresh and end, and first-run setup (spec section 5). */
export interface AuthStore {
  credentialsByEmail(email: string): Promise<Credentials | undefined>;
  userById(userId: string): Promise<SessionUser | undefined>;
  /** A new session for a user whose password was verified, in the trail with the address it came from. */
  signIn(user: SessionUser, address: string, now: number): Promise<IssuedTokens>;
  /**
   * A burst of wrong passwords that reached the account's throttle, in the trail once per burst (the guess
   * that started the back-off), never once per guess. The actor is the throttle: who guessed is unknown.
   */
  signInThrottled(user: Credentials, address: string, failures: number, now: number): Promise<void>;
  /** A session without a sign-in entry: the first Admin's, right after setup. */
  startSession(userId: string, now: number): Promise<IssuedTokens>;
  /** A refresh token exchanged for a new pair; a rotated one presented again ends its session. */
  refresh(refreshToken: string, now: number): Promise<RefreshOutcome>;
  /** Signs out: the session, or the API token, of the credential ends. */
  end(credential: Credential): Promise<void>;
  anyUserExists(): Promise<boolean>;
  /** The organization and its first Admin; undefined when a user exists already. */
  setUp(admin: BootstrapAdmin, now: number): Promise<User | undefined>;
}

/** A user as a write sets it; the password already hashed (the hash is slow: never inside a transaction). */
export interface UserFields {
  email: string;
  passwordHash: string;
  role: Role;
  clientId: string | null;
}

/** The caller itself, and the organization's users (Admin; the last Admin is never removed or demoted). */
export interface UserStore {
  me(principal: Principal): Promise<Me>;
  passwordHashOf(email: string): Promise<string | undefined>;
  list(organizationId: string): Promise<User[]>;
  byId(organizationId: string, id: string): Promise<User | undefined>;
  /** The cheap checks before a password is hashed: the client assignment (400), the e-mail not taken (409). */
  checkNew(
    organizationId: string,
    user: { role: Role; clientId: string | null; email?: string | undefined; id?: string },
  ): Promise<void>;
  /** The caller's own password; its other sessions end and its API tokens are revoked. */
  changeOwnPassword(principal: Principal, passwordHash: string, now: number): Promise<void>;
  create(principal: Principal, user: UserFields, now: number): Promise<User>;
  /** A new password, role or client ends the user's sessions. */
  update(
    principal: Principal,
    id: string,
    change: Partial<Pick<UserFields, 'email' | 'passwordHash'>> & Pick<UserFields, 'role' | 'clientId'>,
    now: number,
  ): Promise<User>;
  remove(principal: Principal, id: string, now: number): Promise<void>;
}

/**
 * The device grant's writes (RFC 8628). The requests themselves wait in the server's memory
 * (device/requests.ts): several servers over one database would keep them in a table instead.
 */
export interface DeviceStore {
  /** The caller may answer device requests now (re-checked), and may grant this one when approving. */
  checkApprover(principal: Principal, grant: TokenGrant | null, now: number): Promise<void>;
  /** The approver's API token for an approved request, with the rights the approver has now; undefined
   * when the approver is gone or lost the right to give these scopes since approving. */
  grantApproved(approverId: string, grant: TokenGrant, now: number): Promise<CreatedApiToken | undefined>;
}

/** Saved column mappings (issue 12), per client or shared; Admin writes, each with its audit entry. */
export interface MappingStore {
  /** A client's and the shared ones (clientId), or all (null); only those for a header set when given. */
  list(principal: Principal, clientId: string | null, headers: string[] | undefined): Promise<Mapping[]>;
  create(principal: Principal, body: CreateMappingBody & { client_id: string | null }, now: number): Promise<Mapping>;
  update(principal: Principal, id: string, body: UpdateMappingBody, now: number): Promise<Mapping>;
  delete(principal: Principal, id: string, now: number): Promise<void>;
  /** An upload's format with the saved mapping `?mapping=` names (404 unknown); JSON rows as they are. */
  withSaved(
    organizationId: string,
    format: TableFormat | undefined,
    mappingId: string | undefined,
  ): Promise<TableFormat | undefined>;
}
