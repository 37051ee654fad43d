import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import { LOCATION_FIELDS } from './fields.js';
import { PARSED_COLUMNS } from './queries.js';

/**
 * A location's stored columns as one JSON object, for what an undo needs (operation_rows): written by
 * SQLite and read back by it, so that a location put back is the same to the last column.
 */
const COLUMNS = [
  'id',
  'client_id',
  ...LOCATION_FIELDS,
  'match_key',
  'health_score',
  'health_status',
  'health_notes',
  'created_at',
  'updated_at',
  'created_by',
];

// With the revision: a restore puts it back too (restoreSnapshot), though a re-insert starts afresh. And
// with the rowid, the list's order (import order): a re-insert takes its place back when it is still free.
const SNAPSHOT = `json_object(${[...COLUMNS, 'revision', 'rowid'].map((column) => `'${column}', ${column}`).join(', ')})`;

export interface Snapshot {
  id: string;
  client_id: string;
  /** One more at every change (undo's conflict check); in `json` too, which a restore writes back. */
  revision: number;
  name: string;
  updated_at: string;
  created_at: string;
  created_by: string | null;
  json: string;
}

/** The locations of these ids (a JSON array) as they are now. */
export function snapshotsOf(db: Db, idsJson: string): Snapshot[] {
  return statement<[string], Snapshot>(
    db,
    `SELECT id, client_id, revision, name, updated_at, created_at, created_by, ${SNAPSHOT} AS json FROM locations
     WHERE id IN (SELECT value FROM json_each(?))`,
  ).all(idsJson);
}

/**
 * Puts a deleted location back, with its id, from its snapshot; in its place in the list (its rowid) when
 * no location has taken that since (SQLite gives a new row the highest rowid plus one, so only the last
 * location's can be taken), else at the end. A snapshot without a rowid (written before it was kept)
 * goes at the end.
 */
export function reinsertSnapshot(db: Db, json: string): void {
  // With its revision: a re-inserted location that started again at 0 could be edited back up to a
  // revision an older operation left it at, and that operation's undo would take the edit for no change.
  statement(
    db,
    `INSERT INTO locations (rowid, ${COLUMNS.join(', ')}, revision)
     SELECT iif(EXISTS (SELECT 1 FROM locations WHERE rowid = s ->> 'rowid'), NULL, s ->> 'rowid'),
       ${COLUMNS.map((column) => `s ->> '${column}'`).join(', ')}, coalesce(s ->> 'revision', 0)
     FROM (SELECT ? AS s)`,
  ).run(json);
}

/**
 * An undo's restore: writes a location's columns back as the snapshot has them (its id and client stay;
 * `updated_at` is now). A snapshot may hold only some columns (an import keeps only what it changes,
 * partialSnapshot): the others stay. The revision goes back to the snapshot's, so that the location is
 * as the operation before left it and that operation can be undone in turn (stepping back through the
 * history); a snapshot without one (written before it was kept) moves it one up instead. Returns the
 * revision the location is left at.
 */
export function restoreSnapshot(db: Db, json: string, at: string): number {
  const columns = COLUMNS.filter((column) => column !== 'id' && column !== 'client_id' && column !== 'updated_at');
  const values = columns.map((column) => `iif(json_type(s, '$.${column}') IS NULL, ${column}, s ->> '${column}')`);
  return statement<[string, string, string], number>(
    db,
    `UPDATE locations SET (${columns.join(', ')}, revision) =
       (SELECT ${values.join(', ')}, iif(json_type(s, '$.revision') IS NULL, revision + 1, s ->> 'revision')
        FROM (SELECT ? AS s)),
       updated_at = ?
     WHERE id = ?
     RETURNING revision`,
  )
    .pluck()
    .get(json, at, (JSON.parse(json) as { id: string }).id)!;
}

const PARSED: ReadonlySet<string> = new Set(PARSED_COLUMNS);

/** The columns the rules derive from a location's fields: a change of the fields may move any of them. */
export const DERIVED_COLUMNS = ['match_key', 'health_score', 'health_status', 'health_notes'] as const;

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
  statement(
    db,
    'INSERT OR REPLACE INTO operation_rows (operation_id, location_id, action, before, left_revision) VALUES (?, ?, ?, ?, ?)',
  ).run(operationId, locationId, action, before, leftRevision);
}

/** The locations an operation created (created_by), with what else the undo reads. */
export function createdBy(db: Db, clientId: string | null, operationId: string): Snapshot[] {
  // The client's index narrows the search; an operation over several clients reads them all (rare).
  return statement<[string | null, string | null, string], Snapshot>(
    db,
    `SELECT id, client_id, revision, name, updated_at, created_at, created_by, ${SNAPSHOT} AS json FROM locations
     WHERE (? IS NULL OR client_id = ?) AND created_by = ?`,
  ).all(clientId, clientId, operationId);
}

/** Marks a location as changed now (an undo's re-insert): a new revision, so that a later change shows as a conflict. */
export function touchLocation(db: Db, id: string, at: string): void {
  statement(db, 'UPDATE locations SET updated_at = ?, revision = revision + 1 WHERE id = ?').run(at, id);
}

export interface OperationRow {
  location_id: string;
  action: 'updated' | 'deleted' | 'created';
  before: string | null;
  left_revision: number | null;
}

export function operationRows(db: Db, operationId: string): OperationRow[] {
  return statement<[string], OperationRow>(
    db,
    'SELECT location_id, action, before, left_revision FROM operation_rows WHERE operation_id = ?',
  ).all(operationId);
}
