import type { Migration } from './index.js';

/**
 * Issue 9: the listing fields of a location, and the keys an import matches rows on, as indexed
 * columns. Existing rows are at rule version 0: at start the server fills their match key and scores
 * them by the current health rule (server/locations/rescore.ts), so that the schema never has to know
 * the rules. A permanently closed location's health_status reads "closed" (computed in the list), so
 * the CHECK of 0001 stands.
 */
export const listingFields: Migration = {
  version: 2,
  name: 'listing fields',
  up(db) {
    db.exec(`
      ALTER TABLE locations ADD COLUMN store_code TEXT;
      ALTER TABLE locations ADD COLUMN phone TEXT;
      ALTER TABLE locations ADD COLUMN website TEXT;
      ALTER TABLE locations ADD COLUMN latitude REAL;
      ALTER TABLE locations ADD COLUMN longitude REAL;
      ALTER TABLE locations ADD COLUMN primary_category TEXT;
      -- a JSON array of texts
      ALTER TABLE locations ADD COLUMN labels TEXT;
      ALTER TABLE locations ADD COLUMN status TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'temporarily_closed', 'permanently_closed'));
      -- a JSON object {mon: [["09:00", "17:00"]], ...}
      ALTER TABLE locations ADD COLUMN hours TEXT;
      -- the folded name and address that duplicates and upserts match on; null without an address
      ALTER TABLE locations ADD COLUMN match_key TEXT;
      -- a JSON array: what lowers the score, or for a green location what would raise it
      ALTER TABLE locations ADD COLUMN health_notes TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE locations ADD COLUMN updated_at TEXT;
      UPDATE locations SET updated_at = created_at;

      -- which version of a feature's rules the stored rows follow (locations: the health score, the match key)
      CREATE TABLE rule_versions (feature TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO rule_versions VALUES ('locations', 0);

      CREATE UNIQUE INDEX locations_by_store_code ON locations(client_id, store_code) WHERE store_code IS NOT NULL;
      CREATE INDEX locations_by_match_key ON locations(client_id, match_key) WHERE match_key IS NOT NULL;
    `);
  },
};
