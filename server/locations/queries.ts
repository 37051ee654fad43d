import type { Db } from '../db/open.js';
import { nowIso, pageParams, statement, type Page } from '../db/sql.js';
import { LOCATION_FIELDS, readableUrl, type LocationValues } from './fields.js';
import { healthWords } from './health.js';
import { clientKeyBase, keyHash } from './keys.js';
import { matchKey, type LocationRow } from './record.js';
import type { HealthStatus, LocationRecord } from './schemas.js';

/**
 * The SQL functions the locations' queries call, on a connection that lists locations (the server's
 * own): `health_words(flags, country)`, a location's health notes in words as a JSON array (health.ts,
 * healthWords). Its words are the rule's, kept in one place: SQLite asks for them a row at a time, and
 * the few sets of notes a client's locations share are worded once.
 */
export function registerLocationFunctions(db: Db): void {
  const worded = new Map<string, string>();
  db.function('health_words', { deterministic: true }, (flags, country) => {
    const key = `${flags as number}|${(country as string | null) ?? ''}`;
    let json = worded.get(key);
    if (json === undefined) {
      json = JSON.stringify(healthWords(flags as number, country as string | null));
      // Bounded: a set of notes a country at most (a few hundred), never a location each.
      if (worded.size > 10_000) worded.clear();
      worded.set(key, json);
    }
    return json;
  });
}

/**
 * When a location was last changed, in SQL (`alias` its table's, as "l."): a location never changed since
 * it was made has no updated_at of its own, and reads as its created_at. The list, the CLI's export and an
 * import's read of the locations it updates all say it so.
 */
export const changedAtSql = (alias = '') => `coalesce(${alias}updated_at, ${alias}created_at)`;

/**
 * A column as SQL for a value of SQLite's JSON. SQLite's JSON writes a double with 15 significant digits,
 * which would move a coordinate of 17 (48.85661400000001 became 48.856614); its text is exact (SQLite 3.53
 * writes up to 17 digits, 48.856614000000008, which reads back as the same double). So a coordinate goes in
 * as that text, and any other column as it is.
 */
export const jsonColumn = (column: string, table = '') =>
  column === 'latitude' || column === 'longitude' ? `CAST(${table}${column} AS TEXT)` : `${table}${column}`;

/**
 * One location as JSON, written by SQLite: the Location schema's fields, in its order. A permanently
 * closed location reads as "closed" rather than by its score; the notes are issues below green and
 * hints at green, worded by health_words (registerLocationFunctions). A coordinate goes in as the text
 * of its double, read back as a number by json() (jsonColumn: exported and imported again, it stays). A
 * location never changed since it was made has no updated_at of its own: its created_at.
 */
const LOCATION_JSON = `json_object(
  'id', id, 'name', name, 'address', address, 'city', city, 'state', state, 'zip', zip,
  'country', country, 'health_score', health_score,
  'health_status', CASE WHEN status = 'permanently_closed' THEN 'closed' ELSE health_status END,
  'created_at', created_at, 'store_code', store_code, 'phone', phone, 'website', website,
  'latitude', json(${jsonColumn('latitude')}), 'longitude', json(${jsonColumn('longitude')}), 'primary_category', primary_category,
  'labels', json(labels), 'status', status, 'hours', json(hours),
  'health_issues', json(CASE WHEN health_status = 'green' OR health_flags = 0 THEN '[]' ELSE health_words(health_flags, country) END),
  'health_hints', json(CASE WHEN health_status <> 'green' OR health_flags = 0 THEN '[]' ELSE health_words(health_flags, country) END),
  'updated_at', ${changedAtSql()})`;

/** The list's entry with its place id (?include=google_place_id, for an export). */
const LOCATION_WITH_PLACE_JSON = `json_insert(${LOCATION_JSON}, '$.google_place_id', google_place_id)`;

/** The whole record: the list's JSON with the client and the place id (GET /api/locations/:id). */
const RECORD_JSON = `json_insert(${LOCATION_JSON}, '$.client_id', client_id, '$.google_place_id', google_place_id)`;

const entryOf = (withPlace: boolean) => (withPlace ? LOCATION_WITH_PLACE_JSON : LOCATION_JSON);

/**
 * The client's locations as one JSON array text, built by SQLite itself: no row objects are made in
 * JavaScript and nothing is stringified, which is what makes listing 100,000 rows fast (README: "Speed").
 * Import order (rowid) is the list's order.
 */
export function locationsJson(db: Db, clientId: string, page: Page, withPlace = false): string {
  return statement<[string, number, number], { json: string }>(
    db,
    `SELECT coalesce(json_group_array(${entryOf(withPlace)}), '[]') AS json
     FROM (SELECT * FROM locations WHERE client_id = ? ORDER BY rowid LIMIT ? OFFSET ?)`,
  ).get(clientId, ...pageParams(page))!.json;
}

const CHUNK_ROWS = 5_000;

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((text) => Buffer.from(text));

/**
 * The whole list as JSON text in pieces of CHUNK_ROWS rows, each built by SQLite and read only when the
 * response is ready for more: a big client never makes one big string, and the thread is free between
 * pages. Pieces follow rowid, so locations imported meanwhile (appended) come at the end, whole.
 * Each piece comes as SQLite's UTF-8 bytes (the text cast to a blob), sent as they are: as a string, a
 * piece of 3.5 MB was copied twice more (into V8's heap, then back to UTF-8 for the socket), and the
 * strings, too big for the young generation, waited for a full collection: listing 100,000 locations
 * three times took the server from 180 to 278 MB.
 */
export function* locationsJsonPieces(db: Db, clientId: string, withPlace = false): Generator<Uint8Array> {
  const page = statement<[string, number, number], { json: Buffer; last: number | null }>(
    db,
    `SELECT CAST(json_group_array(${entryOf(withPlace)}) AS BLOB) AS json, max(rid) AS last
     FROM (SELECT rowid AS rid, * FROM locations WHERE client_id = ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
  );
  yield OPEN!;
  for (let after = 0, first = true; ; first = false) {
    const { json, last } = page.get(clientId, after, CHUNK_ROWS)!;
    if (last === null) break;
    if (!first) yield COMMA!;
    yield json.subarray(1, json.length - 1);
    after = last;
  }
  yield CLOSE!;
}

/** A location of the organization, whole, or undefined. */
export function locationRecord(db: Db, organizationId: string, id: string): LocationRecord | undefined {
  const json = statement<[string, string], string>(
    db,
    `SELECT ${RECORD_JSON} FROM locations
     WHERE id = ? AND client_id IN (SELECT id FROM clients WHERE organization_id = ?)`,
  )
    .pluck()
    .get(id, organizationId);
  return json === undefined ? undefined : (JSON.parse(json) as LocationRecord);
}

/** A stored location as the rules read it, with its id and client. */
export interface StoredLocation extends LocationValues {
  id: string;
  client_id: string;
  health_score: number;
  health_status: HealthStatus;
}

export interface StoredColumns extends Omit<StoredLocation, 'labels' | 'hours'> {
  labels: string | null;
  hours: string | null;
}

const STORED_COLUMNS = `id, client_id, name, address, city, state, zip, country, google_place_id, store_code, phone,
  website, latitude, longitude, primary_category, labels, status, hours, health_score, health_status`;

/**
 * What an import reads of a location it may update (the stored columns, its revision and derived columns),
 * made from the row's values as one object literal: V8 builds it at its full shape at once. Made a
 * property at a time, its 24 properties grew a store outside the object again and again (four times the
 * memory; npm run bench: the upsert's planner, most of whose time went to collecting garbage). The
 * statement reads the columns in the literal's order (TO_UPDATE_COLUMNS).
 */
function toUpdateRow(v: readonly unknown[]): Record<string, unknown> {
  return {
    id: v[0],
    client_id: v[1],
    name: v[2],
    address: v[3],
    city: v[4],
    state: v[5],
    zip: v[6],
    country: v[7],
    google_place_id: v[8],
    store_code: v[9],
    phone: v[10],
    website: v[11],
    latitude: v[12],
    longitude: v[13],
    primary_category: v[14],
    labels: v[15],
    status: v[16],
    hours: v[17],
    health_score: v[18],
    health_status: v[19],
    revision: v[20],
    place_hash: v[21],
    match_hash: v[22],
    health_flags: v[23],
    changed_at: v[24],
  };
}

const TO_UPDATE_COLUMNS = Object.keys(toUpdateRow([])).map((column) =>
  column === 'changed_at' ? changedAtSql() : column,
);

/** Columns stored as JSON text that the rules read as values: parsed when read, written back as the text. */
export const PARSED_COLUMNS = ['labels', 'hours'] as const;

/** Columns stored as JSON text. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(PARSED_COLUMNS);

type Parsed<Row> = Omit<Row, (typeof PARSED_COLUMNS)[number]> & Pick<StoredLocation, 'labels' | 'hours'>;

/**
 * A stored row as the rules read it: its PARSED_COLUMNS parsed, in place; its website as today's rule
 * writes it (an earlier release stored …/%C3%A9clairs for …/éclairs: the same row again is no change).
 */
export function fromColumns<Row extends StoredColumns>(row: Row): Parsed<Row> {
  const columns = row as unknown as Record<string, unknown>;
  for (const column of PARSED_COLUMNS) {
    const text = columns[column];
    if (typeof text === 'string') columns[column] = JSON.parse(text);
  }
  return withReadableWebsite(row as unknown as Parsed<Row>);
}

/** A stored row's website as today's rule writes it (fromColumns). */
function withReadableWebsite<Row extends { website: string | null }>(row: Row): Row {
  if (typeof row.website === 'string' && row.website.includes('%')) row.website = readableUrl(row.website);
  return row;
}

/** How many of these ids (a JSON array) are locations of the organization, by client: counted, not read. */
export function locationsPerClient(db: Db, organizationId: string, idsJson: string): Map<string, number> {
  const rows = statement<[string, string], { client_id: string; n: number }>(
    db,
    `SELECT client_id, count(*) AS n FROM locations
     WHERE id IN (SELECT value FROM json_each(?))
       AND client_id IN (SELECT id FROM clients WHERE organization_id = ?)
     GROUP BY client_id`,
  ).all(idsJson, organizationId);
  return new Map(rows.map(({ client_id, n }) => [client_id, n]));
}

/**
 * The ids of a JSON array that are not locations of the organization, with their places in it, the first
 * `limit` of them: what a bulk change refused names.
 */
export function idsNotOfOrganization(
  db: Db,
  organizationId: string,
  idsJson: string,
  limit: number,
): { at: number; id: string }[] {
  return statement<[string, string, number], { at: number; id: string }>(
    db,
    `SELECT k.key AS at, k.value AS id FROM json_each(?) k
     WHERE NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = k.value
       AND l.client_id IN (SELECT id FROM clients WHERE organization_id = ?))
     ORDER BY k.key LIMIT ?`,
  ).all(idsJson, organizationId, limit);
}

/** A stored location an import may update, with what its undo keeps: its revision and derived columns. */
export interface LocationToUpdate extends StoredLocation {
  revision: number;
  place_hash: number | null;
  match_hash: number | null;
  health_flags: number;
  /** When it was last changed (its updated_at, else its created_at): what an export's Updated column wrote. */
  changed_at: string;
}

/**
 * Each column as the JSON array of a row holds it: labels and hours as the JSON they are stored as, a
 * coordinate as the number its exact text is (jsonColumn), any other as it is.
 */
function toUpdateJson(column: string): string {
  const value = jsonColumn(column);
  return JSON_COLUMNS.has(column) || value !== column ? `json(${value})` : column;
}

// Each id is found by the primary key, never by scanning a client: CROSS JOIN keeps the ids first.
const TO_UPDATE_OF_IDS = `SELECT json_array(${TO_UPDATE_COLUMNS.map(toUpdateJson).join(', ')})
  FROM (SELECT value AS wanted FROM json_each(?)) k CROSS JOIN locations ON locations.id = k.wanted`;

/**
 * The stored locations of these ids (a JSON array), of the organization's clients only, with what a change's
 * undo keeps of each (its revision and derived columns: partialSnapshot), so that an edit reads a location once.
 */
export function storedLocations(db: Db, organizationId: string, idsJson: string): LocationToUpdate[] {
  return toUpdateRows(
    statement<[string, string], string>(
      db,
      `${TO_UPDATE_OF_IDS} WHERE client_id IN (SELECT id FROM clients WHERE organization_id = ?)`,
    )
      .pluck()
      .all(idsJson, organizationId),
  );
}

/**
 * The client's locations of these ids (a JSON array), each read once for all an import needs of it: its
 * values to compare, and its revision and derived columns for the undo.
 */
export function locationsToUpdate(db: Db, clientId: string, idsJson: string): LocationToUpdate[] {
  return toUpdateRows(
    statement<[string, string], string>(db, `${TO_UPDATE_OF_IDS} WHERE client_id = ?`).pluck().all(idsJson, clientId),
  );
}

// Each row read as one JSON array, which JSON.parse makes into values, then an object here (toUpdateRow):
// better-sqlite3 makes each of a row's 25 values through V8's API, which cost more than the rest of
// reading 100,000 rows (an object of 24 columns made a property at a time more still).
function toUpdateRows(rows: string[]): LocationToUpdate[] {
  // Its labels and hours come parsed with the rest (toUpdateJson).
  return rows.map((text) =>
    withReadableWebsite(toUpdateRow(JSON.parse(text) as unknown[]) as unknown as LocationToUpdate),
  );
}

/** Every location in rowid order, a page at a time: the rows after `afterRowid`. */
export function storedLocationsPage(db: Db, afterRowid: number, limit: number): (StoredLocation & { rid: number })[] {
  return statement<[number, number], StoredColumns & { rid: number }>(
    db,
    `SELECT rowid AS rid, ${STORED_COLUMNS} FROM locations WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  )
    .all(afterRowid, limit)
    .map(fromColumns);
}

/**
 * Writes what the rules derive from a location's fields (a rescore under new rules, or an undo that put
 * back values kept under older ones), and nothing else: its fields, revision and updated_at stay.
 * Returns whether any of them changed.
 */
export function setDerived(db: Db, id: string, row: LocationRow): boolean {
  return (
    statement(
      db,
      `UPDATE locations SET place_hash = @place, match_hash = @match, health_score = @score, health_status = @status,
         health_flags = @flags
       WHERE id = @id AND (place_hash IS NOT @place OR match_hash IS NOT @match OR health_score IS NOT @score
         OR health_status IS NOT @status OR health_flags IS NOT @flags)`,
    ).run({
      id,
      place: row.place_hash,
      match: row.match_hash,
      score: row.health_score,
      status: row.health_status,
      flags: row.health_flags,
    }).changes > 0
  );
}

/** A location's columns after its id: its fields, then what the rules derive from them. */
const ROW_COLUMNS = [
  ...LOCATION_FIELDS,
  'place_hash',
  'match_hash',
  'health_score',
  'health_status',
  'health_flags',
] as const;

/** A row's columns in the order insertLocations reads them: its id, then ROW_COLUMNS. */
export function insertColumns(id: string, row: LocationRow): unknown[] {
  // Made at its length: an import makes 100,000 (pushing grew each four times).
  const values = new Array<unknown>(ROW_COLUMNS.length + 1);
  values[0] = id;
  for (let at = 0; at < ROW_COLUMNS.length; at++) {
    const column = ROW_COLUMNS[at]!;
    const value = row[column];
    values[at + 1] = value !== null && JSON_COLUMNS.has(column) ? JSON.stringify(value) : value;
  }
  return values;
}

/**
 * Inserts rows, each given as insertColumns() wrote it: one prepared statement run a row, inside the
 * caller's transaction. A new location has no updated_at of its own (it reads as its created_at).
 */
export function insertLocations(
  db: Db,
  clientId: string,
  rows: unknown[][],
  now: number,
  createdBy: string | null = null,
): void {
  const insert = statement(
    db,
    `INSERT INTO locations (id, ${ROW_COLUMNS.join(', ')}, client_id, created_at, created_by)
     VALUES (${Array(ROW_COLUMNS.length + 4)
       .fill('?')
       .join(', ')})`,
  );
  const at = nowIso(now);
  for (const row of rows) insert.run(...row, clientId, at, createdBy);
}

/**
 * The columns an index holds, in groups that change together: SQLite rewrites an index's entry for every
 * row whose SET list names one of its columns, changed or not, so an update names them only when their
 * values change (a re-import that changes a city then touches no key index).
 */
export const KEY_GROUPS = [
  ['store_code'],
  ['google_place_id', 'place_hash'],
  ['name', 'address', 'match_hash'],
] as const;

/** The stored values of the key columns, to leave unchanged ones out of an UPDATE. */
export type StoredKeys = Pick<LocationValues, 'name' | 'address' | 'store_code' | 'google_place_id'>;

/**
 * Writes a location's fields (its id and client stay). Given its stored keys, the key columns whose
 * values are the same are left out of the statement; at most eight statements, each prepared once.
 */
export function updateLocation(db: Db, id: string, row: LocationRow, now: number, before?: StoredKeys): void {
  const [changed, values] = locationUpdate(row, before);
  updateColumns(db, id, changed, values, now);
}

/**
 * What updateLocation writes, as plain numbers and values: the key groups that change (a bit each,
 * KEY_GROUPS' order) and the values of the columns their statement sets. An import works them out on its
 * planner thread and sends these to the writer (updateColumns): an array of values crosses threads in a
 * fraction of the time of the row's object (npm run bench: the upsert).
 */
export function locationUpdate(row: LocationRow, before?: StoredKeys): [changed: number, values: unknown[]] {
  let changed = (1 << KEY_GROUPS.length) - 1;
  if (before !== undefined) {
    KEY_GROUPS.forEach((group, at) => {
      // A key's hash follows its fields: the same fields, the same hash.
      const same = (column: (typeof group)[number]) =>
        column === 'place_hash' || column === 'match_hash' || before[column] === row[column];
      if (group.every(same)) changed &= ~(1 << at);
    });
  }
  // insertColumns' values follow the id: ROW_COLUMNS' column `at` is its `at + 1`.
  const values = insertColumns('', row);
  return [changed, updateStatement(changed).columns.map((at) => values[at + 1])];
}

/** Writes a location's columns as locationUpdate gave them. */
export function updateColumns(db: Db, id: string, changed: number, values: unknown[], now: number): void {
  statement(db, updateStatement(changed).sql).run(...values, nowIso(now), id);
}

/** The UPDATE for a set of changed key groups (a bit each, KEY_GROUPS' order), made once for each of the eight. */
const updateStatements = new Map<number, { sql: string; columns: number[] }>();

function updateStatement(changed: number): { sql: string; columns: number[] } {
  let made = updateStatements.get(changed);
  if (made === undefined) {
    const kept = new Set<string>(KEY_GROUPS.flatMap((group, at) => (changed & (1 << at) ? [] : [...group])));
    const columns = ROW_COLUMNS.flatMap((column, at) => (kept.has(column) ? [] : [at]));
    const sql = `UPDATE locations SET ${columns.map((at) => `${ROW_COLUMNS[at]} = ?`).join(', ')}, updated_at = ?,
       revision = revision + 1
     WHERE id = ?`;
    made = { sql, columns };
    updateStatements.set(changed, made);
  }
  return made;
}

/** Removes these locations; returns how many went from each client, so that the counts follow. */
export function deleteLocations(db: Db, idsJson: string): Map<string, number> {
  const byClient = statement<[string], { client_id: string; n: number }>(
    db,
    `SELECT client_id, count(*) AS n FROM locations WHERE id IN (SELECT value FROM json_each(?)) GROUP BY client_id`,
  ).all(idsJson);
  statement(db, 'DELETE FROM locations WHERE id IN (SELECT value FROM json_each(?))').run(idsJson);
  const removed = new Map(byClient.map(({ client_id, n }) => [client_id, n]));
  for (const [clientId, n] of removed) addToLocationsCount(db, clientId, -n);
  return removed;
}

/** The kinds of key an import matches a row on, besides a location's id (import.ts). */
export type KeyKind = 'store_code' | 'google_place_id' | 'name_and_address';

/**
 * Which of these keys already name a location of the client: key → the location's id, the first one
 * (rowid) when several do. A store code is looked up as it is, on its unique index; a place id and a
 * name and address by their hashes (keys.ts) on the hash indexes, each candidate then compared with the
 * key itself: the place id in SQL, the name and address by the rule that folds them (matchKey), so that
 * two keys that share a hash never match each other.
 */
export function locationsByKey(db: Db, clientId: string, kind: KeyKind, keys: readonly string[]): Map<string, string> {
  if (kind === 'store_code') return locationsByStoreCode(db, clientId, keys);
  const base = clientKeyBase(clientId);
  const json = JSON.stringify(keys.map((key) => [key, keyHash(base, key)]));
  const found = new Map<string, string>();
  if (kind === 'google_place_id') {
    const rows = statement<[string, string], { key: string; id: string | null }>(
      db,
      `SELECT k.value ->> 0 AS key,
         (SELECT id FROM locations WHERE place_hash = k.value ->> 1 AND client_id = ? AND google_place_id = k.value ->> 0
          ORDER BY rowid LIMIT 1) AS id
       FROM json_each(?) k`,
    ).all(clientId, json);
    for (const { key, id } of rows) if (id !== null) found.set(key, id);
    return found;
  }
  // Each key's candidates in rowid order: the first whose name and address fold to the key wins.
  const candidates = statement<[string, string], { key: string; id: string; name: string; address: string }>(
    db,
    `SELECT k.value ->> 0 AS key, l.id, l.name, l.address
     FROM json_each(?) k CROSS JOIN locations l ON l.match_hash = k.value ->> 1 AND l.client_id = ?
     ORDER BY l.rowid`,
  ).all(json, clientId);
  for (const { key, id, name, address } of candidates) {
    if (!found.has(key) && matchKey(name, address) === key) found.set(key, id);
  }
  return found;
}

function locationsByStoreCode(db: Db, clientId: string, codes: readonly string[]): Map<string, string> {
  // The unique index on (client_id, store_code) answers each code.
  const rows = statement<[string, string], { key: string; id: string | null }>(
    db,
    `SELECT k.value AS key,
       (SELECT id FROM locations WHERE client_id = ? AND store_code = k.value ORDER BY rowid LIMIT 1) AS id
     FROM json_each(?) k`,
  ).all(clientId, JSON.stringify(codes));
  const found = new Map<string, string>();
  for (const { key, id } of rows) if (id !== null) found.set(key, id);
  return found;
}

/**
 * The client's locations whose store code is in mixed capitals ("Sea-003": neither all in capitals nor all
 * in small letters), by the code in small letters: what a row's "SEA-003" is in other capitals, which no
 * index of the exact codes finds. Read once a dry run, on the client's index; most clients have none.
 */
export function mixedCaseCodes(db: Db, clientId: string): Map<string, string> {
  const rows = statement<[string], { id: string; code: string }>(
    db,
    `SELECT id, store_code AS code FROM locations
     WHERE client_id = ? AND store_code <> upper(store_code) AND store_code <> lower(store_code)
     ORDER BY rowid`,
  ).all(clientId);
  const found = new Map<string, string>();
  for (const { id, code } of rows) if (!found.has(code.toLowerCase())) found.set(code.toLowerCase(), id);
  return found;
}

/**
 * The client's locations whose store code is one of these codes of digits (a JSON array) with zeros in
 * front, as Excel drops them (123 for 00123), each code's all (codes-without-zeros.ts), by migration 8's
 * partial index of the codes that start with a zero; none that the operation `operationId` created.
 */
export function locationsByCodeWithoutZeros(
  db: Db,
  clientId: string,
  codesJson: string,
  operationId: string | null,
): Map<string, { id: string; code: string }[]> {
  // Not a location the import itself made: its code is the file's own, written as the file wrote it.
  const rows = statement<[string, string, string], { key: string; id: string; code: string }>(
    db,
    `SELECT k.value AS key, l.id AS id, l.store_code AS code
     FROM json_each(?) k JOIN locations l
       ON l.client_id = ? AND substr(l.store_code, 1, 1) = '0' AND ltrim(l.store_code, '0') = k.value
     WHERE l.created_by IS NULL OR l.created_by <> ?
     ORDER BY l.rowid`,
  ).all(codesJson, clientId, operationId ?? '');
  const found = new Map<string, { id: string; code: string }[]>();
  for (const { key, id, code } of rows) found.set(key, [...(found.get(key) ?? []), { id, code }]);
  return found;
}

/** A location's name ('' when there is none of this id). */
export function locationName(db: Db, id: string): string {
  return statement<[string], string>(db, 'SELECT name FROM locations WHERE id = ?').pluck().get(id) ?? '';
}

/**
 * Gives a location a store code, or takes it away (null), and nothing else: an import writes a code it
 * moved after every row (code-moves.ts); an undo lets codes go before it gives them back.
 */
/**
 * A location's labels in another order, the same set: no change (labels are a set), so neither its
 * revision nor its updated_at moves, and no undo takes the order for a change since.
 */
export function setLabelsOrder(db: Db, id: string, labels: readonly string[]): void {
  statement(db, 'UPDATE locations SET labels = ? WHERE id = ?').run(JSON.stringify(labels), id);
}

export function setStoreCode(db: Db, id: string, code: string | null): void {
  statement(db, 'UPDATE locations SET store_code = ? WHERE id = ?').run(code, id);
}

export function addToLocationsCount(db: Db, clientId: string, added: number): void {
  if (added !== 0)
    statement(db, 'UPDATE clients SET locations_count = locations_count + ? WHERE id = ?').run(added, clientId);
}

export function locationsCount(db: Db, clientId: string): number {
  return statement<[string], number>(db, 'SELECT locations_count FROM clients WHERE id = ?').pluck().get(clientId) ?? 0;
}

export function clientOrganization(db: Db, clientId: string): string | undefined {
  return statement<[string], { organization_id: string }>(db, 'SELECT organization_id FROM clients WHERE id = ?').get(
    clientId,
  )?.organization_id;
}
