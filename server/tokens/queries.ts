import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import { hashToken } from '../auth/tokens.js';
import type { Principal } from '../http/guards.js';
import type { Role } from '../http/schemas.js';
import { parseScopes, scopesAllowed, scopeString, type Scope } from './scopes.js';
import type { ApiToken } from './schemas.js';

/** Tells an API token from a session's access token at a glance, for people and secret scanners. */
export const API_TOKEN_PREFIX = 'adk_pat_';

/** 256 random bits after the prefix; only its SHA-256 is stored (as for sessions: auth/tokens.ts). */
export function newApiTokenSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function isApiTokenSecret(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}

interface ApiTokenRow {
  id: string;
  name: string;
  scopes: string;
  client_id: string | null;
  user_id: string;
  user_email: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
}

const TOKEN_COLUMNS = `t.id, t.name, t.scopes, t.client_id, t.user_id, u.email AS user_email, t.created_at,
  t.last_used_at, t.expires_at`;

const iso = (ms: number | null) => (ms === null ? null : nowIso(ms));

function rowToApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes) ?? [],
    client_id: row.client_id,
    user_id: row.user_id,
    user_email: row.user_email,
    created_at: nowIso(row.created_at),
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
  };
}

export interface NewApiToken {
  userId: string;
  name: string;
  scopes: readonly Scope[];
  clientId: string | null;
  expiresAt: number | null;
}

/** Stores a new token and returns it with its secret, which exists nowhere else from now on. */
export function insertApiToken(db: Db, token: NewApiToken, now: number): { id: string; secret: string } {
  const id = randomUUID();
  const secret = newApiTokenSecret();
  statement(
    db,
    `INSERT INTO api_tokens (id, user_id, name, hash, scopes, client_id, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    token.userId,
    token.name,
    hashToken(secret),
    scopeString(token.scopes),
    token.clientId,
    now,
    token.expiresAt,
  );
  return { id, secret };
}

/** One token of the organization, with its owner. */
export function apiTokenById(db: Db, organizationId: string, id: string): ApiToken | undefined {
  const row = statement<[string, string], ApiTokenRow>(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.id = ? AND u.organization_id = ?`,
  ).get(id, organizationId);
  return row === undefined ? undefined : rowToApiToken(row);
}

/** A user's tokens, or (Admin) every token of an organization, newest first. */
export function listApiTokens(db: Db, of: { userId: string } | { organizationId: string }): ApiToken[] {
  const [where, value] = 'userId' in of ? ['t.user_id', of.userId] : ['u.organization_id', of.organizationId];
  // `where` is one of the two fixed column names above, never input.
  return statement<[string], ApiTokenRow>(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE ${where} = ? ORDER BY t.created_at DESC, t.id`,
  )
    .all(value)
    .map(rowToApiToken);
}

/** Call principalsChanged after it: a revoked token must be refused at the next request. */
export function deleteApiToken(db: Db, id: string): void {
  statement(db, 'DELETE FROM api_tokens WHERE id = ?').run(id);
}

/** Revokes every token of a user (its password or client changed). */
export function deleteApiTokensOfUser(db: Db, userId: string): void {
  statement(db, 'DELETE FROM api_tokens WHERE user_id = ?').run(userId);
}

/** Records a use; the caller makes sure this happens at most once a minute per token. */
export function touchApiToken(db: Db, id: string, at: number): void {
  statement(db, 'UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(at, id);
}

interface TokenPrincipalRow {
  id: string;
  scopes: string;
  client_id: string | null;
  expires_at: number | null;
  user_id: string;
  organization_id: string;
  email: string;
  role: Role;
  user_client_id: string | null;
}

/**
 * The caller behind an API token's secret, with what it may do now: its scopes cut to its owner's role,
 * and a Client Viewer's token never past that client. Undefined when unknown or expired. The lookup is
 * by the secret's SHA-256 through a unique index: no timing of a string compare tells anything about a
 * secret (README: "API tokens").
 */
export function lookUpTokenPrincipal(
  db: Db,
  secret: string,
  now: number,
): { principal: Principal; expiresAt: number } | undefined {
  const row = statement<[Buffer], TokenPrincipalRow>(
    db,
    `SELECT t.id, t.scopes, t.client_id, t.expires_at, u.id AS user_id, u.organization_id, u.email, u.role,
       u.client_id AS user_client_id
     FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ?`,
  ).get(hashToken(secret));
  if (row === undefined || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  return {
    expiresAt: row.expires_at ?? Number.POSITIVE_INFINITY,
    principal: {
      userId: row.user_id,
      credential: { kind: 'api_token', id: row.id },
      organizationId: row.organization_id,
      email: row.email,
      role: row.role,
      clientId: row.role === 'client_viewer' ? row.user_client_id : row.client_id,
      scopes: scopesAllowed(parseScopes(row.scopes) ?? [], row.role),
    },
  };
}
