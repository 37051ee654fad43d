import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import type { Principal } from '../http/guards.js';
import { Invalid } from '../http/errors.js';
import type { AuditEntry, AuditQuery } from './schemas.js';

/** Who made a change, as the trail keeps it: the user, or the API token and its owner. */
export interface Actor {
  type: 'user' | 'token' | 'system';
  id: string | null;
  email: string | null;
  name: string | null;
  token_id: string | null;
}

export function actorOf(db: Db, principal: Principal): Actor {
  if (principal.credential.kind !== 'api_token') {
    return { type: 'user', id: principal.userId, email: principal.email, name: principal.email, token_id: null };
  }
  const name = statement<[string], string>(db, 'SELECT name FROM api_tokens WHERE id = ?')
    .pluck()
    .get(principal.credential.id);
  return {
    type: 'token',
    id: principal.userId,
    email: principal.email,
    name: name ?? null,
    token_id: principal.credential.id,
  };
}

/**
 * A change made outside the HTTP API, on the machine itself: by the command line (named with the
 * operating-system account that ran it) or at start from the environment.
 */
export function systemActor(name: string): Actor {
  return { type: 'system', id: null, email: null, name, token_id: null };
}

export interface NewEntry {
  organizationId: string;
  actor: Actor;
  action: string;
  target: { type: string; id: string | null; name: string | null };
  clientId?: string | null;
  locationId?: string | null;
  changes?: object | null;
  summary?: object | null;
  operationId?: string | null;
}

/** Writes one entry of the trail: call it inside the change's own transaction. */
export function recordEntry(db: Db, entry: NewEntry, now: number): void {
  statement(
    db,
    `INSERT INTO audit_entries (id, organization_id, at, actor_type, actor_id, actor_email, actor_name, token_id,
       action, target_type, target_id, target_name, client_id, location_id, changes, summary, operation_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    randomUUID(),
    entry.organizationId,
    nowIso(now),
    entry.actor.type,
    entry.actor.id,
    entry.actor.email,
    entry.actor.name,
    entry.actor.token_id,
    entry.action,
    entry.target.type,
    entry.target.id,
    entry.target.name,
    entry.clientId ?? null,
    entry.locationId ?? null,
    entry.changes ? JSON.stringify(entry.changes) : null,
    entry.summary ? JSON.stringify(entry.summary) : null,
    entry.operationId ?? null,
  );
}

/** A change by the caller, in the trail: its actor and organization come from the principal. */
export function recordChange(
  db: Db,
  principal: Principal,
  entry: Omit<NewEntry, 'organizationId' | 'actor'>,
  now: number,
): void {
  recordEntry(db, { ...entry, organizationId: principal.organizationId, actor: actorOf(db, principal) }, now);
}

export type OperationKind = 'import' | 'bulk_edit' | 'bulk_delete' | 'undo';

/**
 * Starts an operation (an import, a bulk change, an undo): its id goes on its entries and rows. An import
 * gives its id (its plan decides it before the writer makes the operation: locations/import-writes.ts).
 */
export function startOperation(
  db: Db,
  operation: { organizationId: string; clientId: string | null; kind: OperationKind; undoes?: string },
  now: number,
  id: string = randomUUID(),
): string {
  statement(
    db,
    'INSERT INTO operations (id, organization_id, client_id, kind, undoes, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(id, operation.organizationId, operation.clientId, operation.kind, operation.undoes ?? null, nowIso(now));
  return id;
}

/**
 * Removes an operation that changed nothing (a bulk edit whose locations had the values already, an
 * import of unchanged and skipped rows), before its entry is recorded: the trail keeps the entry, and no
 * operation is left to undo to no effect. It holds no rows: nothing else refers to it yet.
 */
export function dropOperation(db: Db, id: string): void {
  statement(db, 'DELETE FROM operations WHERE id = ?').run(id);
}

interface EntryRow {
  seq: number;
  id: string;
  at: string;
  actor_type: Actor['type'];
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  token_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  client_id: string | null;
  changes: string | null;
  summary: string | null;
  operation_id: string | null;
  undone_by: string | null;
}

/** Who reads: a Client Viewer (or a client-limited token) sees its client's entries, and no other user's e-mail. */
export interface Reader {
  userId: string;
  clientId: string | null;
}

// Each optional filter is bound twice: (? IS NULL OR column = ?). Positional, as every statement here.
const FILTERS = `organization_id = ?
  AND (? IS NULL OR client_id = ?)
  AND (? IS NULL OR location_id = ?)
  AND (? IS NULL OR actor_id = ?)
  AND (? IS NULL OR action = ?)
  AND (? IS NULL OR at >= ?)`;

/**
 * A location's history: its own entries, and those of the operations that changed it (an import that
 * created or updated it, a bulk edit or delete, an undo: each keeps a row of it, or created it). A walk
 * asked "where did my labels go?" of a location whose bulk change was in its client's history only. The
 * operations are few beside the entries: each is looked up in operation_rows by its key, and its entry by
 * audit_by_operation, so no index on operation_rows.location_id costs every operation's writes.
 */
const OF_LOCATION = `seq IN (
    SELECT seq FROM audit_entries WHERE location_id = ?
    UNION ALL
    SELECT seq FROM audit_entries WHERE operation_id IN (
      SELECT o.id FROM operations o WHERE o.organization_id = ? AND (
        EXISTS (SELECT 1 FROM operation_rows r WHERE r.operation_id = o.id AND r.location_id = ?)
        OR o.id = (SELECT created_by FROM locations WHERE id = ?))))`;
const LOCATION_FILTERS = FILTERS.replace('(? IS NULL OR location_id = ?)', OF_LOCATION);

/** The trail's newest entry's number (0 while it has none): where a feed is, and where a restore numbers on. */
export function newestSeq(db: Db): number {
  return (statement<[], number | null>(db, 'SELECT max(seq) FROM audit_entries').pluck().get() as number | null) ?? 0;
}

/**
 * A feed's cursor past every entry the trail has: no next_cursor ever said it. Answered empty, a script
 * would wait for entries numbered past it and silently miss those before (found by a walk with a cursor
 * kept across a restore). Checked only when nothing is new: one max() on the primary key.
 */
function refusePastCursor(db: Db, cursor: number): void {
  const newest = newestSeq(db);
  if (cursor <= newest) return;
  const message = `the cursor ${cursor} is past the trail's newest entry (${newest}): no next_cursor said it. Read the feed again from cursor=0`;
  throw Invalid(message, [{ path: '/querystring/cursor', message }]);
}

/**
 * A page of the trail, newest first; or, with order=asc, the entries after the cursor in the order they
 * were written: a change feed. seq grows in commit order (SQLite has one writer at a time), so a feed
 * that polls with its last cursor never skips or repeats an entry.
 */
export function listEntries(
  db: Db,
  organizationId: string,
  query: AuditQuery,
  reader: Reader,
): { entries: AuditEntry[]; next_cursor: number | null } {
  const limit = query.limit ?? 100;
  const asc = query.order === 'asc';
  const ofLocation = query.locationId !== undefined;
  const rows = statement<unknown[], EntryRow>(
    db,
    // Each entry with the undo of its operation, if any: one lookup by primary key an entry.
    `SELECT *, (SELECT undone_by FROM operations WHERE id = audit_entries.operation_id) AS undone_by
     FROM audit_entries WHERE ${ofLocation ? LOCATION_FILTERS : FILTERS} AND seq ${asc ? '>' : '<'} ?
     ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT ?`,
  ).all(
    organizationId,
    ...filterValues(query, reader, organizationId),
    query.cursor ?? (asc ? 0 : Number.MAX_SAFE_INTEGER),
    limit,
  );

  const entries = rows.map((row) => entryOf(row, reader));
  if (asc && rows.length === 0 && query.cursor !== undefined) refusePastCursor(db, query.cursor);
  // The feed (asc) always says where to go on from, even when nothing is new yet; a page newest first
  // says null on the last page.
  if (asc) return { entries, next_cursor: rows.at(-1)?.seq ?? query.cursor ?? 0 };
  return { entries, next_cursor: rows.length === limit ? rows.at(-1)!.seq : null };
}

/** FILTERS' values, each twice (OF_LOCATION's, for a location's history); a client-limited reader is held to its client. */
function filterValues(query: AuditQuery, reader: Reader, organizationId: string): (string | null)[] {
  const twice = (value: string | undefined | null) => [value ?? null, value ?? null];
  const location =
    query.locationId === undefined
      ? twice(undefined)
      : [query.locationId, organizationId, query.locationId, query.locationId];
  return [
    ...twice(reader.clientId ?? query.clientId),
    ...location,
    ...twice(query.actor),
    ...twice(query.action),
    ...twice(query.since),
  ];
}

function entryOf(row: EntryRow, reader: Reader): AuditEntry {
  // A client-limited reader sees no other user's e-mail address: as the actor, nor as the user an entry
  // is about (user.created, user.signed_in: found by a walk).
  const otherUser = (id: string | null) => reader.clientId !== null && id !== reader.userId;
  const hidden = otherUser(row.actor_id);
  return {
    id: row.id,
    at: row.at,
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      email: hidden ? null : row.actor_email,
      name: hidden && row.actor_type === 'user' ? null : row.actor_name,
      token_id: row.token_id,
    },
    action: row.action,
    target: {
      type: row.target_type,
      id: row.target_id,
      name: row.target_type === 'user' && otherUser(row.target_id) ? null : row.target_name,
    },
    client_id: row.client_id,
    changes: row.changes === null ? null : JSON.parse(row.changes),
    summary: row.summary === null ? null : JSON.parse(row.summary),
    operation_id: row.operation_id,
    undone_by: row.undone_by,
  };
}
