import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import type { WriterOutcome } from '../db/writer-jobs.js';
import { errorBody } from '../http/errors.js';
import { addToLocationsCount, clientOrganization, locationPages } from './queries.js';

/**
 * The writer thread's half of an import (the parser thread's is import-job.ts): one transaction opened
 * here, fed checked rows in pieces while the parser checks the next ones, and committed or rolled back
 * at the end, so that either every row is written or none is (README: "Import rules").
 */
export interface OpenImport {
  organizationId: string;
  clientId: string;
  /** false for a dry run: read, check the client, hold nothing. */
  write: boolean;
  now: number;
}

/** An import in progress on this connection: its transaction is open. */
export interface OpenedImport {
  clientId: string;
  createdAt: string;
}

const notFound = (): WriterOutcome => ({
  statusCode: 404,
  payload: JSON.stringify(errorBody(404, 'No client with this id')),
});

/** Existing locations a piece, for duplicate detection: some 1 MB of JSON. */
const EXISTING_PIECE_ROWS = 10_000;

/**
 * Opens the import: an IMMEDIATE transaction takes the write lock before the first read, so that the
 * duplicate check against existing rows cannot go stale; a dry run reads in one snapshot and holds
 * nothing. Hands the client's existing locations to `existing` as JSON pieces `[[id, name, address,
 * google_place_id], ...]` written by SQLite (a big client never makes one big string); returns the open
 * import (undefined for a dry run), or the answer when the client is not the caller's to import into
 * (nothing then stays open).
 */
export function openImport(
  db: Db,
  job: OpenImport,
  existing: (json: string) => void,
): { opened: OpenedImport | undefined } | WriterOutcome {
  db.exec(job.write ? 'BEGIN IMMEDIATE' : 'BEGIN');
  try {
    if (clientOrganization(db, job.clientId) !== job.organizationId) {
      db.exec('ROLLBACK');
      return notFound();
    }
    const entry = 'json_array(id, name, address, google_place_id)';
    for (const json of locationPages(db, job.clientId, entry, EXISTING_PIECE_ROWS)) existing(json);
    if (!job.write) {
      db.exec('COMMIT');
      return { opened: undefined };
    }
    return { opened: { clientId: job.clientId, createdAt: nowIso(job.now) } };
  } catch (error) {
    rollbackImport(db);
    throw error;
  }
}

/**
 * Inserts checked rows, given as the parser thread's JSON `[[id, name, address, city, state, zip,
 * country, google_place_id, health_score, health_status], ...]`. SQLite reads the JSON itself: one
 * statement a piece instead of one call from JavaScript a row, which is what makes the insert faster
 * than the plain prepared-statement loop (npm run bench). json_each keeps the array's order, so rowid
 * order is the rows' order.
 */
export function insertRows(db: Db, opened: OpenedImport, json: string): void {
  statement(
    db,
    `INSERT INTO locations (id, client_id, name, address, city, state, zip, country, google_place_id,
       health_score, health_status, created_at)
     SELECT value ->> 0, :clientId, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
       value ->> 6, value ->> 7, value ->> 8, value ->> 9, :createdAt
     FROM json_each(:rows)`,
  ).run({ clientId: opened.clientId, createdAt: opened.createdAt, rows: json });
}

export function commitImport(db: Db, opened: OpenedImport, count: number): void {
  addToLocationsCount(db, opened.clientId, count);
  db.exec('COMMIT');
}

/** Ends an open import without a trace; harmless when nothing is open. */
export function rollbackImport(db: Db): void {
  if (db.inTransaction) db.exec('ROLLBACK');
}
