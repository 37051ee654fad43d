import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import type { LocationValues } from './fields.js';
import { storedLocationsPage, updateLocation } from './queries.js';
import { derived, RULE_VERSION } from './record.js';

const PAGE = 5_000;

/**
 * Brings locations stored under older rules (the health score and its notes, the match key) up to the
 * current ones: once after an upgrade (migration 0002 leaves existing rows at version 0), in one
 * transaction, before the server answers anything. The values themselves never change, nor updated_at.
 */
export function rescoreLocations(db: Db): void {
  const applied = statement<[], number>(db, "SELECT version FROM rule_versions WHERE feature = 'locations'")
    .pluck()
    .get();
  if (applied === undefined || applied >= RULE_VERSION) return;
  db.transaction(() => {
    for (let after = 0; ;) {
      const page = storedLocationsPage(db, after, PAGE);
      if (page.length === 0) break;
      after = page.at(-1)!.rid;
      for (const location of page) {
        const {
          id,
          client_id: _client,
          health_score: _score,
          health_status: _status,
          rid: _rid,
          updated_at,
          ...values
        } = location;
        updateLocation(db, id, derived(values as LocationValues), Date.parse(updated_at));
      }
    }
    statement(db, "UPDATE rule_versions SET version = ? WHERE feature = 'locations'").run(RULE_VERSION);
  })();
}
