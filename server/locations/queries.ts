import type { Db } from '../db/open.js';
import { nowIso, pageParams, statement, type Page } from '../db/sql.js';
import { sortedRandomUuids } from '../db/uuid.js';
import type { ExistingLocation, PlannedRow } from './import-plan.js';

/** One location as JSON, written by SQLite: the Location schema's fields, in its order. */
const LOCATION_JSON = `json_object(
  'id', id, 'name', name, 'address', address, 'city', city, 'state', state, 'zip', zip,
  'country', country, 'health_score', health_score, 'health_status', health_status, 'created_at', created_at)`;

/**
 * The client's locations as one JSON array text, built by SQLite itself: no row objects are made in
 * JavaScript and nothing is stringified, which is what makes listing 100,000 rows fast (README: "Speed").
 * The column list and order match the Location schema; import order (rowid) is the list's order.
 */
export function locationsJson(db: Db, clientId: string, page: Page): string {
  return statement<[string, number, number], { json: string }>(
    db,
    `SELECT coalesce(json_group_array(${LOCATION_JSON}), '[]') AS json
     FROM (SELECT * FROM locations WHERE client_id = ? ORDER BY rowid LIMIT ? OFFSET ?)`,
  ).get(clientId, ...pageParams(page))!.json;
}

const CHUNK_ROWS = 5_000;

/**
 * The whole list as JSON text in pieces of 5,000 rows, each built by SQLite and each read when the
 * response is ready for more: a 100,000-row list never sits whole in memory, and the event loop is free
 * between pieces. Pieces follow rowid, so locations imported meanwhile (appended) come at the end, whole.
 */
export function* locationsJsonPieces(db: Db, clientId: string): Generator<string> {
  const piece = statement<[string, number, number], { json: string; last: number | null }>(
    db,
    `SELECT json_group_array(${LOCATION_JSON}) AS json, max(rid) AS last
     FROM (SELECT rowid AS rid, * FROM locations WHERE client_id = ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
  );
  yield '[';
  let after = 0;
  for (let first = true; ; first = false) {
    const { json, last } = piece.get(clientId, after, CHUNK_ROWS)!;
    if (last === null) break;
    yield first ? json.slice(1, -1) : `,${json.slice(1, -1)}`;
    after = last;
  }
  yield ']';
}

export function existingLocations(db: Db, clientId: string): IterableIterator<ExistingLocation> {
  return statement<[string], ExistingLocation>(
    db,
    'SELECT id, name, address, google_place_id FROM locations WHERE client_id = ?',
  ).iterate(clientId);
}

export interface Imported {
  id: string;
  name: string;
  city: string | null;
  state: string | null;
}

/** The one INSERT of a location (the bench's floor runs it too, to compare like with like). */
export const INSERT_LOCATION = `INSERT INTO locations (id, client_id, name, address, city, state, zip, country, google_place_id,
       health_score, health_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Inserts one row a call, inside the import's transaction; returns what the response lists of it. The
 * ids are random v4 UUIDs handed out in sorted order: the id index then grows at nearby pages instead of
 * random ones, which keeps later imports into a big database from slowing down (npm run bench).
 */
export function locationInserter(
  db: Db,
  clientId: string,
  rowCount: number,
  now: number,
): (row: PlannedRow) => Imported {
  const insert = statement(db, INSERT_LOCATION);
  const createdAt = nowIso(now);
  const ids = sortedRandomUuids(rowCount);
  let next = 0;
  return (row) => {
    const id = ids[next++]!;
    insert.run(
      id,
      clientId,
      row.name,
      row.address,
      row.city,
      row.state,
      row.zip,
      row.country,
      row.google_place_id,
      row.health_score,
      row.health_status,
      createdAt,
    );
    return { id, name: row.name, city: row.city, state: row.state };
  };
}

export function addToLocationsCount(db: Db, clientId: string, added: number): void {
  statement(db, 'UPDATE clients SET locations_count = locations_count + ? WHERE id = ?').run(added, clientId);
}

export function clientOrganization(db: Db, clientId: string): string | undefined {
  return statement<[string], { organization_id: string }>(db, 'SELECT organization_id FROM clients WHERE id = ?').get(
    clientId,
  )?.organization_id;
}
