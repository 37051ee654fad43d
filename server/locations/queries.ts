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

interface Piece {
  /** A JSON array of up to CHUNK_ROWS rows. */
  json: string;
  /** The last rowid in it; null when there was no row left. */
  last: number | null;
}

/**
 * A JSON array in pieces of CHUNK_ROWS rows, each built by SQLite and read when the response is ready
 * for more: a 100,000-row array never sits whole in memory, and the event loop is free between pieces.
 * `piece(after)` gives the rows after rowid `after`, in rowid order.
 */
function* arrayPieces(after: number, piece: (after: number) => Piece): Generator<string> {
  yield '[';
  for (let first = true; ; first = false) {
    const { json, last } = piece(after);
    if (last === null) break;
    yield first ? json.slice(1, -1) : `,${json.slice(1, -1)}`;
    after = last;
  }
  yield ']';
}

/**
 * The whole list as JSON text in pieces (arrayPieces). Pieces follow rowid, so locations imported
 * meanwhile (appended) come at the end, whole.
 */
export function locationsJsonPieces(db: Db, clientId: string): Generator<string> {
  const piece = statement<[string, number, number], Piece>(
    db,
    `SELECT json_group_array(${LOCATION_JSON}) AS json, max(rid) AS last
     FROM (SELECT rowid AS rid, * FROM locations WHERE client_id = ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
  );
  return arrayPieces(0, (after) => piece.get(clientId, after, CHUNK_ROWS)!);
}

export function addToLocationsCount(db: Db, clientId: string, added: number): void {
  statement(db, 'UPDATE clients SET locations_count = locations_count + ? WHERE id = ?').run(added, clientId);
}

export function clientOrganization(db: Db, clientId: string): string | undefined {
  return statement<[string], { organization_id: string }>(db, 'SELECT organization_id FROM clients WHERE id = ?').get(
    clientId,
  )?.organization_id;
}
