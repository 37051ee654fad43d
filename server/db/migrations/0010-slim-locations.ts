import type { Migration } from './index.js';

/**
 * Issue 9's speed targets: a location's row and its indexes made smaller, so that an import writes fewer
 * pages (npm run bench: the import of 100,000 rows wrote 18,600 pages of 4 KiB where the issue's floor
 * writes 8,400). The table is made again, its rows copied in their order (rowid: the list's order):
 * - the keys an import matches on are 53-bit hashes within the client (place_hash, match_hash:
 *   locations/keys.ts), indexed alone: an entry of some 13 bytes where the texts with the client's id
 *   took 70 to 100; the place id's index on its text goes;
 * - the health notes are bits of the rule's notes (health_flags, worded when read: locations/health.ts),
 *   not a JSON array of words in every row;
 * - updated_at is null until the location changes (it reads as its created_at);
 * - the CHECKs name their values with OR: SQLite builds an `IN (...)` list's lookup table again at every
 *   run of the statement, which cost an import of 100,000 rows a fifth of its time.
 * The hashes and flags are derived by the rules, which the schema never knows: the rows come without them,
 * and at start the server works them out for every location (rule version 0: locations/rescore.ts).
 */
export const slimLocations: Migration = {
  version: 10,
  name: 'slim locations',
  up(db) {
    db.exec(`
      -- The columns in their order before (the CLI export writes them so), the derived ones in place of
      -- match_key and health_notes.
      CREATE TABLE locations_slim (
        id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        address TEXT,
        city TEXT,
        state TEXT,
        zip TEXT,
        country TEXT,
        google_place_id TEXT,
        health_score INTEGER NOT NULL CHECK (health_score BETWEEN 0 AND 100),
        health_status TEXT NOT NULL
          CHECK (health_status = 'green' OR health_status = 'yellow' OR health_status = 'red'),
        created_at TEXT NOT NULL,
        store_code TEXT,
        phone TEXT,
        website TEXT,
        latitude REAL,
        longitude REAL,
        primary_category TEXT,
        -- a JSON array of texts
        labels TEXT,
        status TEXT NOT NULL DEFAULT 'open'
          CHECK (status = 'open' OR status = 'temporarily_closed' OR status = 'permanently_closed'),
        -- a JSON object {mon: [["09:00", "17:00"]], ...}
        hours TEXT,
        -- the place id's and the folded name and address's keys within the client (locations/keys.ts)
        place_hash INTEGER,
        match_hash INTEGER,
        -- bit i: the health rule's note i applies (what lowers the score, or at green what would raise it)
        health_flags INTEGER NOT NULL DEFAULT 0,
        -- null until the location is changed
        updated_at TEXT,
        created_by TEXT,
        revision INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO locations_slim (rowid, id, client_id, name, address, city, state, zip, country, google_place_id,
          health_score, health_status, created_at, store_code, phone, website, latitude, longitude, primary_category,
          labels, status, hours, updated_at, created_by, revision)
        SELECT rowid, id, client_id, name, address, city, state, zip, country, google_place_id, health_score,
          health_status, created_at, store_code, phone, website, latitude, longitude, primary_category, labels,
          status, hours, nullif(updated_at, created_at), created_by, revision
        FROM locations ORDER BY rowid;
      DROP TABLE locations;
      ALTER TABLE locations_slim RENAME TO locations;

      -- rowid order within a client is import order: the list's order
      CREATE INDEX locations_by_client ON locations(client_id);
      CREATE UNIQUE INDEX locations_by_store_code ON locations(client_id, store_code) WHERE store_code IS NOT NULL;
      CREATE INDEX locations_by_code_without_zeros ON locations(client_id, ltrim(store_code, '0'))
        WHERE substr(store_code, 1, 1) = '0';
      CREATE INDEX locations_by_place_hash ON locations(place_hash) WHERE place_hash IS NOT NULL;
      CREATE INDEX locations_by_match_hash ON locations(match_hash) WHERE match_hash IS NOT NULL;

      UPDATE rule_versions SET version = 0 WHERE feature = 'locations';
    `);
  },
};
