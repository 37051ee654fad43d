import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteClient } from '../../server/clients/queries.js';
import { importLocations, type ImportRequest } from '../../server/locations/import.js';
import { undoOperation } from '../../server/audit/undo.js';
import { principalByBearer } from '../../server/auth/queries.js';
import { deleteLocationsOf, editLocationsOf } from '../../server/locations/edit.js';
import { rescoreLocations } from '../../server/locations/rescore.js';
import { deleteLocations } from '../../server/locations/queries.js';
import type { BulkEdit } from '../../server/locations/schemas.js';
import { preparedSql } from '../../server/db/sql.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * STYLE rule 3: a hot query's plan uses an index; a SCAN of a whole table grows with the data. The
 * statements checked are the app's own, as prepared while every endpoint runs (no SQL restated here).
 */
const SCANS_ALLOWED: Record<string, string> = {
  'SELECT 1 AS one FROM users LIMIT 1': 'stops at the first row',
  'DELETE FROM sessions WHERE refresh_expires_at <= ?': 'a sweep at start-up only',
  'PRAGMA data_version': 'no table',
  'SELECT id, organization_id, name FROM clients': 'a rescore after an upgrade: once, at start',
};

describe('the query plans of the app', () => {
  let t: TestApp;
  let statements: string[];

  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    const admin = await t.login('admin@example.com');
    const clientId = await t.createClient(admin);
    const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      t.request({ method, url, token: admin, body });
    await request('GET', '/api/clients');
    await request('GET', '/api/clients?limit=1&offset=1');
    await request('GET', `/api/locations?clientId=${clientId}`);
    await request('GET', '/api/me');
    const user = (
      await request('POST', '/api/users', { email: 'v@example.com', password: 'password1', role: 'viewer' })
    ).json<{ id: string }>();
    await request('PATCH', `/api/users/${user.id}`, { role: 'client_viewer', clientId });
    await request('GET', '/api/users');
    await request('DELETE', `/api/users/${user.id}`);
    const tokens = (
      await t.request({
        method: 'POST',
        url: '/auth/callback',
        body: { email: 'admin@example.com', password: 'correct horse battery' },
      })
    ).json<{ refresh_token: string }>();
    await t.request({ method: 'POST', url: '/auth/refresh', body: { refresh_token: tokens.refresh_token } });
    await t.request({ method: 'POST', url: '/auth/refresh', body: { refresh_token: tokens.refresh_token } });
    await t.request({ method: 'GET', url: '/auth/setup' });
    // The writer thread's writes, run on this connection so that their statements are here too: an
    // import into an empty client, then create and upsert imports that match existing locations.
    const db = t.store.db;
    const rows = [
      { name: 'A', address: '1 Main St', store_code: 'A-1', google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
      { name: 'B', address: '2 Main St', phone: '+1 415 555 0100', country: 'US' },
      { name: 'C', store_code: '0042' },
    ];
    const importing = (mode: ImportRequest['mode'], dryRun = false) =>
      importLocations(db, {
        organizationId: t.organizationId,
        body: new TextEncoder().encode(JSON.stringify({ clientId, rows })),
        dryRun,
        duplicates: 'skip',
        mode,
        blanks: 'keep',
        now: Date.now(),
      });
    expect(importing('create').statusCode).toBe(201);
    expect(importing('create').statusCode).toBe(201);
    rows[1]!.phone = '+1 415 555 0199';
    // The code as Excel saves it: matched by the code without its zeros.
    rows[2]!.store_code = '42';
    expect(importing('upsert').statusCode).toBe(201);
    expect(importing('update', true).statusCode).toBe(200);
    const [first] = (await request('GET', `/api/locations?clientId=${clientId}`)).json<{ id: string }[]>();
    await request('GET', `/api/locations/${first!.id}`);
    // The writer thread's bulk writes and undos, run on this connection too (over HTTP they run on the
    // writer's own): a bulk edit, an edit of another field, the bulk edit's undo (a merge); a bulk edit and
    // its undo (a restore); a bulk delete, its undo (re-inserts) and the undo's undo (removes); and the
    // first import's undo (the locations it created).
    const principal = principalByBearer(db, admin, t.clock.now())!;
    const ids = [first!.id];
    const now = () => t.clock.now();
    const edit = (set: BulkEdit['set']) =>
      editLocationsOf(db, { principal, ids, now: now(), edit: { set }, dryRun: false }).operation_id!;
    const undo = (operationId: string) => undoOperation(db, { principal, operationId, dryRun: false, now: now() });
    const bulk = edit({ status: 'temporarily_closed' });
    await request('PATCH', `/api/locations/${first!.id}`, { phone: '+1 415 555 0123' });
    expect(undo(bulk)).toMatchObject({ restored: 1, conflicts: [] });
    expect(undo(edit({ city: 'Elsewhere' }))).toMatchObject({ restored: 1, conflicts: [] });
    // A rescore after an upgrade, then the undo of an edit made before it (it works the health out again).
    const beforeUpgrade = edit({ city: 'Before the upgrade' });
    db.prepare("UPDATE rule_versions SET version = 0 WHERE feature = 'locations'").run();
    rescoreLocations(db, now());
    undo(beforeUpgrade);
    const back = undo(deleteLocationsOf(db, { principal, ids, now: now() }).operation_id!);
    expect(back).toMatchObject({ recreated: 1 });
    expect(undo(back.operation_id!)).toMatchObject({ removed: 1 });
    // The trail's pages: the organization's, and a location's (its own entries and its operations').
    await request('GET', '/api/audit?limit=10');
    await request('GET', `/api/audit?locationId=${first!.id}`);
    const firstImport = db
      .prepare("SELECT id FROM operations WHERE kind = 'import' ORDER BY created_at LIMIT 1")
      .pluck()
      .get() as string;
    undo(firstImport);
    deleteLocations(db, JSON.stringify([first!.id]));
    deleteClient(db, t.organizationId, clientId);
    await request('POST', '/auth/logout');
    statements = preparedSql(t.store.db);
  });
  afterAll(() => t.close());

  it('every endpoint above prepared its statements through statement()', () => {
    expect(statements.length).toBeGreaterThan(20);
    expect(statements.some((sql) => sql.includes('FROM locations WHERE client_id = ?'))).toBe(true);
    // The writer's undo and a rescore's statements are among them: keepNow, writeBack, setDerived.
    for (const part of ['json_remove(json_object(', "iif(json_type(s, '$.city') IS NULL", 'health_flags = @flags'])
      expect(statements.some((sql) => sql.includes(part))).toBe(true);
  });

  it('no statement scans a whole table, but for the few named with their reason', () => {
    const scans: string[] = [];
    for (const sql of statements) {
      // An INSERT ... VALUES has no plan to speak of; an INSERT ... SELECT reads, and is checked.
      if (
        (/^\s*INSERT/i.test(sql) && !/\bSELECT\b/i.test(sql)) ||
        SCANS_ALLOWED[sql.replace(/\s+/g, ' ').trim()] !== undefined
      )
        continue;
      // A value for each parameter: positional (?) or by name (@name).
      const names = [...sql.matchAll(/@(\w+)/g)].map((match) => match[1]!);
      const params =
        names.length > 0
          ? [Object.fromEntries(names.map((name) => [name, 'x']))]
          : (sql.match(/\?/g) ?? []).map(() => 'x');
      const plan = t.store.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail);
      // A bare "SCAN t" reads every row; "SCAN t USING INDEX i" walks the whole index, which grows the same
      // way (an undo's search for the locations an import created walked every client's). A scan of a
      // table-valued function (json_each) reads the request's own list.
      const whole = /^SCAN \w+( USING (COVERING )?INDEX \w+)?$/;
      if (plan.some((step) => whole.test(step.trim()))) scans.push(`${sql}\n  ${plan.join('\n  ')}`);
    }
    expect(scans).toEqual([]);
  });
});
