import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { connectionCache } from '../db/cache.js';
import { nowIso, statement } from '../db/sql.js';
import { sessionScopes, type Credential, type Principal } from '../http/guards.js';
import { deleteApiToken, isApiTokenSecret, lookUpTokenPrincipal } from '../tokens/queries.js';
import type { Role } from '../http/schemas.js';
import type { SessionUser } from './schemas.js';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, hashToken, newToken } from './tokens.js';

export interface Credentials {
  id: string;
  organization_id: string;
  email: string;
  password_hash: string;
  role: Role;
  client_id: string | null;
}

export interface IssuedTokens {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

/** E-mail addresses compare case-insensitively and without surrounding space. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function credentialsByEmail(db: Db, email: string): Credentials | undefined {
  return statement<[string], Credentials>(
    db,
    'SELECT id, organization_id, email, password_hash, role, client_id FROM users WHERE email = ?',
  ).get(normalizeEmail(email));
}

export function createSession(db: Db, userId: string, now: number): IssuedTokens {
  const tokens: IssuedTokens = {
    sessionId: randomUUID(),
    accessToken: newToken(),
    refreshToken: newToken(),
    accessExpiresAt: now + ACCESS_TOKEN_SECONDS * 1000,
  };
  statement(
    db,
    `INSERT INTO sessions (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    tokens.sessionId,
    userId,
    hashToken(tokens.accessToken),
    tokens.accessExpiresAt,
    hashToken(tokens.refreshToken),
    now + REFRESH_TOKEN_SECONDS * 1000,
    nowIso(now),
  );
  return tokens;
}

interface PrincipalRow {
  session_id: string;
  access_expires_at: number;
  user_id: string;
  organization_id: string;
  email: string;
  role: Role;
  client_id: string | null;
}

/**
 * Who holds which access token or API token, remembered between requests: most API calls then cost no hash and no
 * query. Every write of this connection that can end a session or change a user's role or client calls
 * principalsChanged; another connection's commit (the writer worker deleting a client) clears it too.
 * Expiry is checked on every hit.
 */
const principals = (db: Db) => connectionCache<string, { principal: Principal; expiresAt: number }>(db, 'principals');

/** Call after any write to sessions, API tokens or users (revocation, role or client change, removal). */
export function principalsChanged(db: Db): void {
  principals(db).clear();
}

/**
 * The caller behind a Bearer credential (a session's access token or an API token), or undefined when it
 * is unknown, revoked or expired.
 */
export function principalByBearer(db: Db, bearer: string, now: number): Principal | undefined {
  const cache = principals(db);
  const hit = cache.get(bearer);
  if (hit !== undefined) {
    if (hit.expiresAt > now) return hit.principal;
    cache.delete(bearer);
    return undefined;
  }
  const found = isApiTokenSecret(bearer) ? lookUpTokenPrincipal(db, bearer, now) : lookUpPrincipal(db, bearer, now);
  if (found === undefined) return undefined;
  cache.set(bearer, found);
  return found.principal;
}

function lookUpPrincipal(
  db: Db,
  accessToken: string,
  now: number,
): { principal: Principal; expiresAt: number } | undefined {
  const row = statement<[Buffer], PrincipalRow>(
    db,
    `SELECT s.id AS session_id, s.access_expires_at, u.id AS user_id, u.organization_id, u.email, u.role, u.client_id
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.access_hash = ?`,
  ).get(hashToken(accessToken));
  if (row === undefined || row.access_expires_at <= now) return undefined;
  return {
    expiresAt: row.access_expires_at,
    principal: {
      userId: row.user_id,
      credential: { kind: 'session', id: row.session_id },
      organizationId: row.organization_id,
      email: row.email,
      role: row.role,
      clientId: row.client_id,
      scopes: sessionScopes(row.role),
    },
  };
}

export type RefreshOutcome =
  { kind: 'rotated'; tokens: IssuedTokens; userId: string } | { kind: 'reused' } | { kind: 'invalid' };

/**
 * Exchanges a refresh token for a new pair; call it inside write(). The presented token dies; presenting
 * it again later means someone else holds a copy, so the whole session goes (OAuth 2.0 Security BCP,
 * "Refresh Token Protection": rotation with reuse detection).
 */
export function rotateSession(db: Db, refreshToken: string, now: number): RefreshOutcome {
  const hash = hashToken(refreshToken);
  const session = statement<[Buffer], { id: string; user_id: string; refresh_expires_at: number }>(
    db,
    'SELECT id, user_id, refresh_expires_at FROM sessions WHERE refresh_hash = ?',
  ).get(hash);
  if (session === undefined) {
    const rotated = statement<[Buffer], { session_id: string }>(
      db,
      'SELECT session_id FROM rotated_refresh_tokens WHERE hash = ?',
    ).get(hash);
    if (rotated === undefined) return { kind: 'invalid' };
    deleteSession(db, rotated.session_id);
    return { kind: 'reused' };
  }
  if (session.refresh_expires_at <= now) {
    deleteSession(db, session.id);
    return { kind: 'invalid' };
  }
  const tokens: IssuedTokens = {
    sessionId: session.id,
    accessToken: newToken(),
    refreshToken: newToken(),
    accessExpiresAt: now + ACCESS_TOKEN_SECONDS * 1000,
  };
  statement(db, 'INSERT INTO rotated_refresh_tokens (hash, session_id) VALUES (?, ?)').run(hash, session.id);
  statement(
    db,
    `UPDATE sessions SET access_hash = ?, access_expires_at = ?, refresh_hash = ?, refresh_expires_at = ? WHERE id = ?`,
  ).run(
    hashToken(tokens.accessToken),
    tokens.accessExpiresAt,
    hashToken(tokens.refreshToken),
    now + REFRESH_TOKEN_SECONDS * 1000,
    session.id,
  );
  // The old access token of this session must stop working at once.
  principalsChanged(db);
  return { kind: 'rotated', tokens, userId: session.user_id };
}

export function deleteSession(db: Db, sessionId: string): void {
  statement(db, 'DELETE FROM sessions WHERE id = ?').run(sessionId);
  principalsChanged(db);
}

/** Sign-out: ends the session, or revokes the API token, that the request came with. */
export function endCredential(db: Db, credential: Credential): void {
  if (credential.kind === 'session') deleteSession(db, credential.id);
  else revokeApiToken(db, credential.id);
}

/** Revokes an API token: the next request with it gets 401. */
export function revokeApiToken(db: Db, tokenId: string): void {
  deleteApiToken(db, tokenId);
  principalsChanged(db);
}

/** Revokes every session of a user (password or role changed, user removed). */
export function deleteSessionsOfUser(db: Db, userId: string): void {
  statement(db, 'DELETE FROM sessions WHERE user_id = ?').run(userId);
  principalsChanged(db);
}

/** Ends every session of a user but one: the user changed its own password from that one. */
export function deleteOtherSessions(db: Db, userId: string, keepSessionId: string): void {
  statement(db, 'DELETE FROM sessions WHERE user_id = ? AND id <> ?').run(userId, keepSessionId);
  principalsChanged(db);
}

/** Sessions whose refresh token has expired are of no use to anyone. */
export function deleteExpiredSessions(db: Db, now: number): number {
  const removed = statement(db, 'DELETE FROM sessions WHERE refresh_expires_at <= ?').run(now).changes;
  principalsChanged(db);
  return removed;
}

export function sessionUserById(db: Db, userId: string): SessionUser | undefined {
  return statement<[string], SessionUser>(
    db,
    'SELECT id, email, role, organization_id, client_id FROM users WHERE id = ?',
  ).get(userId);
}
