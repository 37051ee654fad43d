import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { healthFlagsOf } from '../../server/locations/health.js';
import { locationsJson } from '../../server/locations/queries.js';
import { emptyValues, keyHashes, RULE_VERSION } from '../../server/locations/record.js';
import { openDatabase } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { randomKey, tempDir } from '../helpers/app.js';

/**
 * A database of the first release (schema version 1: the spec's seven fields) opened by this one: the
 * listing fields are added empty, and at start every location is scored by the current rule and gets
 * the key an import matches it by, so that a re-import of the same sheet finds it.
 */
const dir = tempDir('agency-desk-upgrade-');
const oldRow = {
  name: 'Café  Ümlaut',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
};
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('upgrading a version 1 database with locations', () => {
  it('keeps every value, rescores, and matches the old rows on re-import', async () => {
    const file = databaseFileIn(dir);
    const key = randomKey();
    const old = openDatabase(file, key, { create: true });
    migrate(
      old,
      migrations.filter((migration) => migration.version === 1),
    );
    const now = '2026-01-01T00:00:00.000Z';
    old.prepare("INSERT INTO organizations VALUES ('o1', 'Old Agency', ?)").run(now);
    old
      .prepare(
        "INSERT INTO clients (id, organization_id, name, created_at, locations_count) VALUES ('00000000-0000-4000-8000-0000000000c1', 'o1', 'Old', ?, 2)",
      )
      .run(now);
    const insert = old.prepare(
      `INSERT INTO locations (id, client_id, name, address, city, state, zip, country, google_place_id, health_score,
         health_status, created_at) VALUES (?, '00000000-0000-4000-8000-0000000000c1', ?, ?, 'Springfield', 'IL', '62701', 'US', ?, 100, 'green', ?)`,
    );
    insert.run('00000000-0000-4000-8000-000000000001', 'Café  Ümlaut', '1 Main St', oldRow.google_place_id, now);
    insert.run('00000000-0000-4000-8000-000000000002', 'No Place', '2 Main St', null, now);
    old.close();

    const store = openStore(file, key);
    const app = await buildApp({ store, logger: false, dashboardDir: null });
    try {
      const rows = store.db
        .prepare(
          'SELECT name, health_score, health_status, health_flags, place_hash, match_hash, status, updated_at FROM locations ORDER BY rowid',
        )
        .all();
      const clientId = '00000000-0000-4000-8000-0000000000c1';
      expect(rows).toEqual([
        {
          name: 'Café  Ümlaut',
          health_score: 80,
          health_status: 'green',
          health_flags: healthFlagsOf({ ...emptyValues(''), ...oldRow, country: 'US' }).flags,
          ...keyHashes(clientId, {
            name: 'Café  Ümlaut',
            address: '1 Main St',
            google_place_id: oldRow.google_place_id,
          }),
          status: 'open',
          // Never changed since it was made: it reads as its created_at.
          updated_at: null,
        },
        expect.objectContaining({ name: 'No Place', health_score: 60, health_status: 'yellow', place_hash: null }),
      ]);
      // The notes in words, as the list gives them.
      const listed = JSON.parse(locationsJson(store.db, clientId, { limit: 10, offset: 0 })) as object[];
      expect(listed[0]).toMatchObject({
        health_hints: ['No phone number', 'No primary category', 'No website', 'No opening hours'],
        health_issues: [],
        updated_at: now,
      });
      expect(store.db.prepare("SELECT version FROM rule_versions WHERE feature = 'locations'").pluck().get()).toBe(
        RULE_VERSION,
      );
      // The match key of an old row finds it: the same name and address in another case is a duplicate.
      const { importLocations } = await import('../../server/locations/import.js');
      const answer = importLocations(store.db, {
        organizationId: 'o1',
        body: new TextEncoder().encode(
          JSON.stringify({
            clientId: '00000000-0000-4000-8000-0000000000c1',
            rows: [{ name: 'CAFÉ ÜMLAUT', address: '1 main st' }],
          }),
        ),
        dryRun: true,
        duplicates: 'skip',
        mode: 'create',
        blanks: 'keep',
        now: Date.now(),
      });
      expect('bytes' in answer && JSON.parse(Buffer.concat(answer.bytes).toString()).rows[0].duplicate_of).toEqual({
        reason: 'name_and_address',
        location_id: '00000000-0000-4000-8000-000000000001',
      });
    } finally {
      await app.close();
      store.close();
    }
  });
});
