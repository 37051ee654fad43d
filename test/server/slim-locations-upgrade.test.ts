import fs from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { openDatabase } from '../../server/db/open.js';
import { healthWords } from '../../server/locations/health.js';
import { keyHashes, matchKey } from '../../server/locations/record.js';
import { adminWithClient, restarted, type TestApp } from '../helpers/app.js';

/**
 * Migration 10 makes the locations table again: keys as hashes, health notes as bits, updated_at null
 * until a change. A database of version 9 (its locations, and what its operations kept for their undos, in
 * that release's shape) is opened by this one: every location reads as before, an import matches the old
 * rows by place id and by name and address, and the operations made before the upgrade are undone as they
 * were.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The locations table and its indexes as migrations 1 to 9 made them, from their own SQL. */
function version9Schema(): string[] {
  const scratch = new Database(':memory:');
  migrate(
    scratch,
    migrations.filter((migration) => migration.version <= 9),
  );
  const sql = scratch
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'locations' AND sql IS NOT NULL ORDER BY type DESC")
    .pluck()
    .all() as string[];
  scratch.close();
  return sql;
}

type Kept = Record<string, unknown>;

/** What release 9 kept of a location: the match key and the notes in words where this one keeps hashes and bits. */
function asKeptBy9(kept: Kept, location: { name: string; address: string | null; country: string | null }): Kept {
  const { place_hash: _place, match_hash: match, health_flags: flags, ...rest } = kept;
  return {
    ...rest,
    ...(match !== undefined && { match_key: matchKey(location.name, location.address) }),
    ...(flags !== undefined && { health_notes: JSON.stringify(healthWords(flags as number, location.country)) }),
  };
}

/** Puts the database back in release 9's shape, the rows it holds with it, at user_version 9. */
function asVersion9(file: string, key: TestApp['key']): void {
  const db = openDatabase(file, key);
  db.function('old_key', (name, address) => matchKey(name as string, address as string | null));
  db.function('old_notes', (flags, country) => JSON.stringify(healthWords(flags as number, country as string | null)));
  const [table, ...indexes] = version9Schema();
  db.exec(`
    ALTER TABLE locations RENAME TO slim;
    ${table};
    INSERT INTO locations (rowid, id, client_id, name, address, city, state, zip, country, google_place_id, health_score,
        health_status, created_at, store_code, phone, website, latitude, longitude, primary_category, labels, status,
        hours, match_key, health_notes, updated_at, created_by, revision)
      SELECT rowid, id, client_id, name, address, city, state, zip, country, google_place_id, health_score,
        health_status, created_at, store_code, phone, website, latitude, longitude, primary_category, labels, status,
        hours, old_key(name, address), old_notes(health_flags, country), coalesce(updated_at, created_at), created_by,
        revision
      FROM slim ORDER BY rowid;
    DROP TABLE slim;
    ${indexes.join(';\n')};
    UPDATE rule_versions SET version = 2 WHERE feature = 'locations';
  `);
  const rows = db.prepare('SELECT rowid AS rid, before FROM operation_rows WHERE before IS NOT NULL').all() as {
    rid: number;
    before: string;
  }[];
  const update = db.prepare('UPDATE operation_rows SET before = ? WHERE rowid = ?');
  const current = db.prepare('SELECT name, address, country FROM locations WHERE id = ?');
  for (const { rid, before } of rows) {
    const kept = JSON.parse(before) as Kept;
    const location = (current.get(kept.id) ?? kept) as { name: string; address: string | null; country: string | null };
    update.run(JSON.stringify(asKeptBy9(kept, { ...location, ...kept } as typeof location)), rid);
  }
  db.pragma('user_version = 9');
  expect(db.prepare("SELECT count(*) FROM pragma_table_info('locations') WHERE name = 'match_key'").pluck().get()).toBe(
    1,
  );
  db.close();
}

type Listed = Record<string, unknown> & { id: string; name: string };

describe('upgrading the locations table (migration 10)', () => {
  it('keeps every location as listed, matches old rows on re-import, and undoes what was done before the upgrade', async () => {
    const { t, admin, clientId } = await adminWithClient('Before the slim table');
    dirs.push(t.dataDir);
    const upload = (rows: object[], query = '') =>
      t.request({ method: 'POST', url: `/api/locations/upload${query}`, token: admin, body: { clientId, rows } });
    const placeId = 'ChIJN1t_tDeuEmsRUsoyG83frY4';
    const first = [
      {
        name: 'Placed',
        address: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
        google_place_id: placeId,
      },
      { name: 'Café  Ümlaut', address: '2 Main St', phone: '+1 415 555 0100', country: 'US' },
      {
        name: 'Rich',
        store_code: '0042',
        hours: 'Mon-Fri 9:00-17:00',
        labels: 'west, flagship',
        latitude: '37.774929',
        longitude: '-122.419416',
        primary_category: 'Cafe',
        website: 'bluebird.example',
      },
    ];
    expect((await upload(first)).statusCode).toBe(201);
    const list = async (request: typeof t.request, token: string) =>
      (
        await request({ method: 'GET', url: `/api/locations?clientId=${clientId}&include=google_place_id`, token })
      ).json<Listed[]>();
    const imported = await list(t.request, admin);
    const [placed, umlaut, rich] = imported.map((row) => row.id);
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids: [placed, umlaut], set: { status: 'temporarily_closed', primary_category: 'Bakery' } },
      })
    ).json<{ operation_id: string }>();
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids: [rich] } })
    ).json<{ operation_id: string }>();
    const second = (await upload([{ name: 'Later', address: '9 Main St' }])).json<{ operation_id: string }>();
    const before = await list(t.request, admin);

    const after = await restarted(t, (file) => asVersion9(file, t.key));
    try {
      const { store, request } = after;
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
      const token = await after.signIn('admin@example.com');
      // Every location as it was listed, updated_at included.
      expect(await list(request, token)).toEqual(before);
      // The keys were worked out at start: the stored hashes are the rule's.
      const stored = store.db
        .prepare('SELECT name, address, google_place_id, place_hash, match_hash FROM locations ORDER BY rowid')
        .all() as { name: string; address: string | null; google_place_id: string | null }[];
      for (const row of stored) expect(row).toMatchObject(keyHashes(clientId, row));

      // A re-import matches the old rows: by place id (its name written otherwise), and by name and address.
      const dryRun = await request({
        method: 'POST',
        url: '/api/locations/upload?dryRun=true',
        token,
        body: {
          clientId,
          rows: [
            { name: 'PLACED (new name)', google_place_id: placeId },
            { name: 'café ümlaut', address: '2  MAIN ST' },
          ],
        },
      });
      expect(dryRun.json<{ rows: { duplicate_of: unknown }[] }>().rows.map((row) => row.duplicate_of)).toEqual([
        { reason: 'google_place_id', location_id: placed },
        { reason: 'name_and_address', location_id: umlaut },
      ]);

      // The operations of release 9, undone: the import after, the delete, the bulk change.
      const undo = async (operationId: string) =>
        (await request({ method: 'POST', url: `/api/operations/${operationId}/undo`, token })).json();
      expect(await undo(second.operation_id)).toMatchObject({ removed: 1, conflicts: [] });
      expect(await undo(removed.operation_id)).toMatchObject({ recreated: 1, conflicts: [] });
      expect(await undo(edit.operation_id)).toMatchObject({ restored: 2, conflicts: [] });
      const withoutUpdate = (row: Listed) => ({ ...row, updated_at: undefined });
      expect((await list(request, token)).map(withoutUpdate)).toEqual(imported.map(withoutUpdate));
    } finally {
      await after.close();
    }
  });
});
