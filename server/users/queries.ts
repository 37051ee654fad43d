import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import type { Role } from '../http/schemas.js';
import { normalizeEmail, principalsChanged } from '../auth/queries.js';
import type { User } from './schemas.js';

const USER_COLUMNS = 'id, email, role, client_id, created_at';

export function listUsers(db: Db, organizationId: string): User[] {
  return statement<[string], User>(
    db,
    `SELECT ${USER_COLUMNS} FROM users WHERE organization_id = ? ORDER BY email`,
  ).all(organizationId);
}

export function userById(db: Db, organizationId: string, id: string): User | undefined {
  return statement<[string, string], User>(
    db,
    `SELECT ${USER_COLUMNS} FROM users WHERE organization_id = ? AND id = ?`,
  ).get(organizationId, id);
}

export function emailTaken(db: Db, email: string, exceptUserId = ''): boolean {
  return (
    statement<[string, string], { id: string }>(db, 'SELECT id FROM users WHERE email = ? AND id <> ?').get(
      normalizeEmail(email),
      exceptUserId,
    ) !== undefined
  );
}

export function countAdmins(db: Db, organizationId: string): number {
  return statement<[string], { n: number }>(
    db,
    `SELECT count(*) AS n FROM users WHERE organization_id = ? AND role = 'admin'`,
  ).get(organizationId)!.n;
}

export function anyUserExists(db: Db): boolean {
  return statement<[], { one: number }>(db, 'SELECT 1 AS one FROM users LIMIT 1').get() !== undefined;
}

export interface NewUser {
  organizationId: string;
  email: string;
  passwordHash: string;
  role: Role;
  clientId: string | null;
}

export function insertUser(db: Db, user: NewUser, now: number): User {
  const id = randomUUID();
  const at = nowIso(now);
  statement(
    db,
    `INSERT INTO users (id, organization_id, email, password_hash, role, client_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, user.organizationId, normalizeEmail(user.email), user.passwordHash, user.role, user.clientId, at, at);
  return { id, email: normalizeEmail(user.email), role: user.role, client_id: user.clientId, created_at: at };
}

export interface UserChanges {
  email?: string;
  passwordHash?: string;
  role?: Role;
  clientId?: string | null;
}

export function updateUser(db: Db, id: string, changes: UserChanges, now: number): void {
  const columns: [string, unknown][] = [];
  if (changes.email !== undefined) columns.push(['email', normalizeEmail(changes.email)]);
  if (changes.passwordHash !== undefined) columns.push(['password_hash', changes.passwordHash]);
  if (changes.role !== undefined) columns.push(['role', changes.role]);
  if (changes.clientId !== undefined) columns.push(['client_id', changes.clientId]);
  const sets = columns.map(([column]) => `${column} = ?`);
  const values = columns.map(([, value]) => value);
  sets.push('updated_at = ?');
  values.push(nowIso(now), id);
  // The column list comes from the fixed names above, never from input; every value is bound.
  db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...values);
  principalsChanged(db);
}

export function deleteUser(db: Db, id: string): void {
  statement(db, 'DELETE FROM users WHERE id = ?').run(id);
  principalsChanged(db);
}

export function insertOrganization(db: Db, name: string, now: number): string {
  const id = randomUUID();
  statement(db, 'INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, nowIso(now));
  return id;
}

export function organizationName(db: Db, id: string): string {
  return statement<[string], { name: string }>(db, 'SELECT name FROM organizations WHERE id = ?').get(id)?.name ?? '';
}
