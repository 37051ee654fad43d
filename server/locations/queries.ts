import type { Db } from '../db/open.js';
import { pageParams, statement, type Page } from '../db/sql.js';

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
 * A client's locations in import (rowid) order, as JSON arrays of up to `pageRows` entries, each built
 * by SQLite from the expression `entry` and read only when wanted: a big client never makes one big
 * string, and the thread is free between pages.
 */
export function* locationPages(db: Db, clientId: string, entry: string, pageRows: number): Generator<string> {
  const page = statement<[string, number, number], { json: string; last: number | null }>(
    db,
    `SELECT json_group_array(${entry}) AS json, max(rid) AS last
     FROM (SELECT rowid AS rid, * FROM locations WHERE client_id = ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
  );
  for (let after = 0; ;) {
    const { json, last } = page.get(clientId, after, pageRows)!;
    if (last === null) return;
    yield json;
    after = last;
  }
}

/**
 * The whole list as JSON text in pieces of CHUNK_ROWS rows (locationPages), read when the response is
 * ready for more. Pieces follow rowid, so locations imported meanwhile (appended) come at the end, whole.
 */
export function* locationsJsonPieces(db: Db, clientId: string): Generator<string> {
  yield '[';
  let first = true;
  for (const json of locationPages(db, clientId, LOCATION_JSON, CHUNK_ROWS)) {
    yield first ? json.slice(1, -1) : `,${json.slice(1, -1)}`;
    first = false;
  }
  yield ']';
}

export function addToLocationsCount(db: Db, clientId: string, added: number): void {
  statement(db, 'UPDATE clients SET locations_count = locations_count + ? WHERE id = ?').run(added, clientId);
}

export function clientOrganization(db: Db, clientId: string): string | undefined {
  return statement<[string], { organization_id: string }>(db, 'SELECT organization_id FROM clients WHERE id = ?').get(
    clientId,
  )?.organization_id;
}
