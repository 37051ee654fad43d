import fs from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { openDatabase } from '../../server/db/open.js';
import { adminWithClient, restarted } from '../helpers/app.js';

/**
 * Migration 6 moves operation_rows from a WITHOUT ROWID table to a rowid table. A delete and an edit
 * made before the upgrade, their kept values in the old table, are undone after it as they were.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The operation_rows table as the migrations before 6 made it (WITHOUT ROWID), from their own SQL. */
function version5Table(): string {
  const scratch = new Database(':memory:');
  migrate(
    scratch,
    migrations.filter((migration) => migration.version <= 5),
  );
  const sql = scratch.prepare("SELECT sql FROM sqlite_master WHERE name = 'operation_rows'").pluck().get() as string;
  scratch.close();
  return sql;
}

/** Puts the database's operation_rows back in the table of version 5, with the rows it holds, at user_version 5. */
function asVersion5(file: string, key: Parameters<typeof openDatabase>[1]): void {
  const db = openDatabase(file, key);
  db.exec(`
    ALTER TABLE operation_rows RENAME TO new_rows;
    DROP INDEX operation_rows_by_key;
    ${version5Table()};
    INSERT INTO operation_rows SELECT operation_id, location_id, action, before, left_revision FROM new_rows;
    DROP TABLE new_rows;
    -- and what the migrations after 6 added
    DROP INDEX mappings_of_client;
    DROP INDEX locations_by_code_without_zeros;
    DROP INDEX operations_by_organization;
    PRAGMA user_version = 5;
  `);
  expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'operation_rows'").pluck().get()).toMatch(
    /WITHOUT ROWID/,
  );
  db.close();
}

describe('upgrading operation_rows (migration 6)', () => {
  it('keeps every kept row, and undoes a delete and an edit made before the upgrade', async () => {
    const { t, admin, clientId } = await adminWithClient('Before the upgrade');
    dirs.push(t.dataDir);
    const rows = [
      { name: 'Kept', store_code: 'K-1', phone: '+1 415 555 0100', country: 'US', hours: 'Mon-Fri 9:00-17:00' },
      { name: 'Edited', store_code: 'E-1', labels: 'west, flagship', latitude: '37.774929', longitude: '-122.419416' },
    ];
    await t.request({ method: 'POST', url: '/api/locations/upload', token: admin, body: { clientId, rows } });
    const listed = async (request: typeof t.request, token: string) =>
      (await request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token })).json<
        Record<string, unknown>[]
      >();
    const before = await listed(t.request, admin);
    const [kept, edited] = before.map((row) => row.id as string);
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids: [edited], set: { status: 'temporarily_closed' } },
      })
    ).json<{ operation_id: string }>();
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids: [kept] } })
    ).json<{ operation_id: string }>();
    const keptRows = t.store.db.prepare('SELECT * FROM operation_rows ORDER BY operation_id, location_id').all();
    expect(keptRows).toHaveLength(2);
    const after = await restarted(t, (file) => asVersion5(file, t.key));
    try {
      const { store, request } = after;
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
      const table = store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'operation_rows'").pluck().get();
      expect(table).not.toMatch(/WITHOUT ROWID/i);
      expect(store.db.prepare('SELECT * FROM operation_rows ORDER BY operation_id, location_id').all()).toEqual(
        keptRows,
      );
      const signedIn = await after.signIn('admin@example.com');
      const undo = async (operationId: string) =>
        (await request({ method: 'POST', url: `/api/operations/${operationId}/undo`, token: signedIn })).json();
      expect(await undo(removed.operation_id)).toMatchObject({ recreated: 1, conflicts: [] });
      expect(await undo(edit.operation_id)).toMatchObject({ restored: 1, conflicts: [] });
      const listedAfter = await listed(request, signedIn);
      const withoutTimes = (row: Record<string, unknown>) => ({ ...row, updated_at: undefined });
      expect(listedAfter.map(withoutTimes)).toEqual(before.map(withoutTimes));
    } finally {
      await after.close();
    }
  });
});
