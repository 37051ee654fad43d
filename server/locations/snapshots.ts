import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import { LOCATION_FIELDS } from './fields.js';
import { inIdOrder, piecesOf } from './pieces.js';
import { deleteLocations, jsonColumn, KEY_GROUPS, PARSED_COLUMNS } from './queries.js';

/**
 * A location's stored columns as one JSON object, for what an undo needs (operation_rows): written by
 * SQLite and read back by it, so that a location put back is the same to the last column.
 */
const COLUMNS = [
  'id',
  'client_id',
  ...LOCATION_FIELDS,
  'place_hash',
  'match_hash',
  'health_score',
  'health_status',
  'health_flags',
  'created_at',
  'updated_at',
  'created_by',
];

// With the revision: a restore and a re-insert put it back too (writeBack, reinsertKept). And with the
// rowid, the list's order (import order): a re-insert takes its place back when it is still free. A
// coordinate is kept as its exact text (jsonColumn), which the column reads back as the same number.
const SNAPSHOT = `json_object(${[...COLUMNS, 'revision', 'rowid'].map((column) => `'${column}', ${jsonColumn(column)}`).join(', ')})`;

/** What an undo's plan reads of a location as it is now: its values stay in SQL (keepNow, writeBack, rememberDeleted). */
export interface Current {
  id: string;
  client_id: string;
  /** One more at every change (undo's conflict check). */
  revision: number;
  name: string;
}

/** Where an operation keeps a location's values before (its row replaced when it keeps the same one again). */
const KEEP_INTO = 'INSERT OR REPLACE INTO operation_rows (operation_id, location_id, action, before, left_revision)';

/** What an operation kept of one location, read by SQLite where it is written back: never by this thread. */
const KEPT = '(SELECT before AS s FROM operation_rows WHERE operation_id = ? AND location_id = ?)';

/**
 * Puts a deleted location back, with its id, from what the operation kept of it; in its place in the list
 * (its rowid) when no location has taken that since (SQLite gives a new row the highest rowid plus one,
 * so only the last location's can be taken), else at the end. A snapshot without a rowid (written before
 * it was kept) goes at the end. It comes back at `at`, and at the revision it had, as a restore puts it
 * back: a delete and its undo change nothing, so the operation before the delete still finds the location
 * as it left it and can be undone in turn (stepping back through the history), while any change after
 * the undo moves the revision on and shows as a conflict. A snapshot that kept no revision (written in
 * the trail's first days, before they were kept) comes back at 1, as it always has. Returns the revision.
 */
export function reinsertKept(db: Db, operationId: string, locationId: string, at: string): number {
  // At its kept revision, never at 0 afresh: a re-inserted location that started again at 0 could be edited back up to a
  // revision an older operation left it at, and that operation's undo would take the edit for no change.
  const columns = COLUMNS.filter((column) => column !== 'updated_at');
  return statement<[string, string, string], number>(
    db,
    `INSERT INTO locations (rowid, ${columns.join(', ')}, updated_at, revision)
     SELECT iif(EXISTS (SELECT 1 FROM locations WHERE rowid = s ->> 'rowid'), NULL, s ->> 'rowid'),
       ${columns.map(keptValue).join(', ')}, ?, coalesce(s ->> 'revision', 1)
     FROM ${KEPT}
     RETURNING revision`,
  )
    .pluck()
    .get(at, operationId, locationId)!;
}

/**
 * A column's value in what an operation kept (`s`). A snapshot kept before migration 10 has no health
 * flags (it kept the notes in words): 0 until the undo works them out again, as it does after any change
 * of the rules (deriveAgain).
 */
const keptValue = (column: string) =>
  column === 'health_flags' ? `coalesce(s ->> '${column}', 0)` : `s ->> '${column}'`;

/** The columns a restore can write back: all but the location's id and client, which stay, and `updated_at`, now. */
const RESTORED = COLUMNS.filter((column) => column !== 'id' && column !== 'client_id' && column !== 'updated_at');

/** The columns the rules derive from a location's fields: a change of the fields may move any of them. */
export const DERIVED_COLUMNS = ['place_hash', 'match_hash', 'health_score', 'health_status', 'health_flags'] as const;

/** A location's restorable columns now, as one JSON object (keepNow picks the kept ones out of it). */
const NOW_JSON = `json_object(${['id', ...RESTORED, 'revision'].map((column) => `'${column}', ${jsonColumn(column, 'l.')}`).join(', ')})`;

/**
 * The path of each column the kept values `k.s` lack (a path to nothing when they hold it): what keepNow
 * removes. With `derived` what the rules derive is kept whatever the operation kept.
 */
const unkeptPaths = (derived: boolean) =>
  RESTORED.filter((column) => !derived || !(DERIVED_COLUMNS as readonly string[]).includes(column))
    .map((column) => `iif(json_type(k.s, '$.${column}') IS NULL, '$.${column}', '$.-')`)
    .join(', ');

/** keepNow's statement, its text made once for each of its two forms: it runs once for each location restored. */
const keepNowSql = (derived: boolean) => `${KEEP_INTO}
     SELECT ?, l.id, 'updated', json_remove(${NOW_JSON}, ${unkeptPaths(derived)}), ?
     FROM locations l, ${KEPT} k
     WHERE l.id = ?`;
const KEEP_NOW_SQL = { kept: keepNowSql(false), withDerived: keepNowSql(true) };

/** An undo's ids: the operation it reverts (whose kept values it reads) and its own (which keeps the values now). */
export interface UndoIds {
  operationId: string;
  undoId: string;
}

/**
 * The first half of an undo's restore, done for every restore before any store code is let go (applyUndo):
 * keeps, for the undo's own undo, what the location is now in the columns the operation kept, and its id
 * and revision. When the rules changed since the operation (`rulesChanged`), the undo works the health and
 * match key out again after it (deriveAgain), so it keeps them too: undoing the undo then puts back the
 * ones the fields it puts back give. One statement for every location, whatever it kept: SQLite removes
 * the columns it did not keep (a json_each of the two objects took 3 s for 100,000 locations; this 1 s less).
 */
export function keepNow(
  db: Db,
  { operationId, undoId }: UndoIds,
  location: { id: string; leftRevision: number },
  rulesChanged: boolean,
) {
  statement(db, rulesChanged ? KEEP_NOW_SQL.withDerived : KEEP_NOW_SQL.kept).run(
    undoId,
    location.leftRevision,
    operationId,
    location.id,
    location.id,
  );
}

/**
 * The second half of an undo's restore: writes a location's columns back as the operation kept them. A
 * snapshot may hold only some columns (an import or an edit keeps only what it changes, partialSnapshot):
 * the others stay. The statement names a key index's columns only when the snapshot holds them (one of
 * eight statements, by KEY_GROUPS), so that an index whose columns it leaves alone is not touched. The
 * revision goes back to the kept one, so that the location is as the operation before left it and that
 * operation can be undone in turn (stepping back through the history); a snapshot without one (written
 * before it was kept) moves it one up instead.
 */
export function writeBack(db: Db, operationId: string, location: { id: string; keptColumns: string }, at: string) {
  const kept = new Set(location.keptColumns.split(','));
  const groups = KEY_GROUPS.reduce(
    (bits, group, at) => (group.some((column) => kept.has(column)) ? bits | (1 << at) : bits),
    0,
  );
  statement(db, writeBackSql(groups)).run(operationId, location.id, at, location.id);
}

const writeBackStatements = new Map<number, string>();

/** The restore's UPDATE for a set of key groups the snapshot holds (a bit each, KEY_GROUPS' order). */
function writeBackSql(groups: number): string {
  let sql = writeBackStatements.get(groups);
  if (sql === undefined) {
    const left = new Set<string>(KEY_GROUPS.flatMap((group, at) => (groups & (1 << at) ? [] : [...group])));
    const columns = RESTORED.filter((column) => !left.has(column));
    const back = columns.map((column) => `iif(json_type(s, '$.${column}') IS NULL, ${column}, s ->> '${column}')`);
    sql = `UPDATE locations SET (${[...columns, 'revision'].join(', ')}) =
         (SELECT ${[...back, "coalesce(s ->> 'revision', revision + 1)"].join(', ')} FROM ${KEPT}),
       updated_at = ?
     WHERE id = ?`;
    writeBackStatements.set(groups, sql);
  }
  return sql;
}

const PARSED: ReadonlySet<string> = new Set(PARSED_COLUMNS);

/**
 * A snapshot of only the columns a change writes, as they were stored: what an undo needs of an updated
 * location whose other columns the change left as they were. A 100,000-row re-import that changes one
 * field keeps a few dozen bytes a location instead of the whole row. `stored` holds the columns as the
 * rules read them (PARSED_COLUMNS parsed; the text they came from was JSON.stringify's).
 */
export function partialSnapshot(id: string, stored: object, columns: Iterable<string>): string {
  const before: Record<string, unknown> = { id };
  for (const column of columns) {
    const value = (stored as Record<string, unknown>)[column];
    before[column] = PARSED.has(column) && value !== null ? JSON.stringify(value) : value;
  }
  return JSON.stringify(before);
}

/** Remembers, for an operation, a location it changed, deleted or created, with its values before. */
export function rememberRow(
  db: Db,
  operationId: string,
  locationId: string,
  action: 'updated' | 'deleted' | 'created',
  before: string | null,
  leftRevision: number | null,
): void {
  statement(db, `${KEEP_INTO} VALUES (?, ?, ?, ?, ?)`).run(operationId, locationId, action, before, leftRevision);
}

/**
 * Remembers, for a delete, the locations of these ids (a JSON array) as they are now, in one statement.
 * In id order: operation_rows' key (operation, location) is a unique index, which then grows at its end
 * rather than at a random page a row.
 */
export function rememberDeleted(db: Db, operationId: string, idsJson: string): void {
  statement(
    db,
    `${KEEP_INTO}
     SELECT ?, id, 'deleted', ${SNAPSHOT}, NULL FROM locations
     WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  ).run(operationId, idsJson);
}

/**
 * Remembers, for an operation that is about to update a location (saved once, its revision one up), the
 * values it had in the fields the operation changes, its revision and what the rules derive: an undo puts
 * back those alone, and a later undo of another change sees which they were.
 */
export function rememberUpdated(
  db: Db,
  operationId: string,
  location: { id: string; revision: number },
  fields: readonly string[],
): void {
  const kept = partialSnapshot(location.id, location, [...fields, 'revision', ...DERIVED_COLUMNS]);
  rememberRow(db, operationId, location.id, 'updated', kept, location.revision + 1);
}

/**
 * Deletes these locations for an operation, a piece at a time in id order, each kept whole first for its
 * undo (rememberDeleted), and counted off its client.
 */
export function deleteKeeping(db: Db, operationId: string, ids: readonly string[]): void {
  for (const piece of piecesOf(inIdOrder(ids))) {
    rememberDeleted(db, operationId, piece);
    deleteLocations(db, piece);
  }
}

/** An operation's kept values of one location (null for one it created): read one at a time as an undo writes it back. */
export function keptBefore(db: Db, operationId: string, locationId: string): string | null {
  return statement<[string, string], string | null>(
    db,
    'SELECT before FROM operation_rows WHERE operation_id = ? AND location_id = ?',
  )
    .pluck()
    .get(operationId, locationId)!;
}

/**
 * The locations an import created (created_by: only an import sets it, and an import is of one client),
 * with what the undo's plan reads; found by the client's index. No index on created_by: every imported
 * row would pay for it.
 */
export function createdBy(db: Db, clientId: string, operationId: string): Current[] {
  return statement<[string, string], Current>(
    db,
    'SELECT id, client_id, revision, name FROM locations WHERE client_id = ? AND created_by = ?',
  ).all(clientId, operationId);
}

/**
 * The operations that removed locations of the organization after the trail's place `since` (bulk deletes,
 * and undos, which remove what they undo), as a JSON array: where an undo finds what became of a location
 * gone since (removedName, createdAndRemoved). Read from the trail's entries, one an operation.
 */
export function removalsSince(db: Db, organizationId: string, clientId: string | null, since: number): string {
  // Of the operation's client, or over several clients (their entries name none): another client's
  // deletes, 100,000 rows each, are never read (the review).
  const ids = statement<[string, number, string | null, string | null], string>(
    db,
    `SELECT DISTINCT e.operation_id FROM audit_entries e JOIN operations o ON o.id = e.operation_id
     WHERE e.organization_id = ? AND e.seq > ? AND o.kind IN ('bulk_delete', 'undo')
       AND (? IS NULL OR e.client_id = ? OR e.client_id IS NULL)`,
  )
    .pluck()
    .all(organizationId, since, clientId, clientId);
  return JSON.stringify(ids);
}

/** What those operations kept of a location they removed: its name (from any of them: a location removed twice was put back between). */
export function removedName(db: Db, removals: string, locationId: string): string | undefined {
  return statement<[string, string], string>(
    db,
    `SELECT before ->> 'name' FROM operation_rows
     WHERE location_id = ? AND action = 'deleted' AND operation_id IN (SELECT value FROM json_each(?)) LIMIT 1`,
  )
    .pluck()
    .get(locationId, removals);
}

/** The locations an import created that those operations removed and that are gone still, with their names. */
export function createdAndRemoved(db: Db, removals: string, importId: string): { id: string; name: string }[] {
  return statement<[string, string], { id: string; name: string }>(
    db,
    `SELECT r.location_id AS id, max(r.before ->> 'name') AS name FROM operation_rows r
     WHERE r.operation_id IN (SELECT value FROM json_each(?)) AND r.action = 'deleted'
       AND r.before ->> 'created_by' = ? AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = r.location_id)
     GROUP BY r.location_id ORDER BY r.location_id`,
  ).all(removals, importId);
}

/**
 * One of an operation's rows as an undo's plan reads it: what the operation kept of the location (a few
 * of its values, taken out of the JSON by SQLite: the JSON itself stays in the table until written back)
 * and the location as it is now (nulls when it is gone).
 */
export interface PlannedRow {
  location_id: string;
  action: 'updated' | 'deleted' | 'created';
  left_revision: number | null;
  before_name: string | null;
  before_client: string | null;
  /** The revision the kept values had, when they kept it. */
  before_revision: number | null;
  /** 1 when the kept values hold a store code (null included): writing them back sets it. */
  gives_code: 0 | 1;
  code: string | null;
  /** The columns the kept values of an updated location hold, comma-separated (what its restore writes). */
  kept_columns: string | null;
  client_id: string | null;
  name: string | null;
  revision: number | null;
  /** 1 for a deleted location whose client is gone too: it cannot come back. */
  client_gone: 0 | 1;
}

/** An operation's rows read this many at a time, in location id order. */
const PLANNED_ROWS = 1_000;

/** An operation's rows, a piece at a time (keyset on the location id): no piece waits for the whole. */
export function* plannedRows(db: Db, operationId: string): Generator<PlannedRow[]> {
  const read = statement<[string, string, number], PlannedRow>(
    db,
    `SELECT r.location_id, r.action, r.left_revision, r.before ->> 'name' AS before_name,
       r.before ->> 'client_id' AS before_client, r.before ->> 'revision' AS before_revision,
       json_type(r.before, '$.store_code') IS NOT NULL AS gives_code, r.before ->> 'store_code' AS code,
       iif(r.action = 'updated', (SELECT group_concat(key) FROM json_each(r.before)), NULL) AS kept_columns,
       l.client_id, l.name, l.revision,
       r.action = 'deleted' AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.id = r.before ->> 'client_id') AS client_gone
     FROM operation_rows r LEFT JOIN locations l ON l.id = r.location_id
     WHERE r.operation_id = ? AND r.location_id > ? ORDER BY r.location_id LIMIT ?`,
  );
  for (let after = ''; ;) {
    const piece = read.all(operationId, after, PLANNED_ROWS);
    if (piece.length === 0) return;
    yield piece;
    after = piece.at(-1)!.location_id;
  }
}
