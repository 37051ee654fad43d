import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteClient } from '../../server/clients/queries.js';
import { importLocations, type ImportRequest } from '../../server/locations/import.js';
import { deleteLocations } from '../../server/locations/queries.js';
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
    expect(importing('upsert').statusCode).toBe(201);
    expect(importing('update', true).statusCode).toBe(200);
    const [first] = (await request('GET', `/api/locations?clientId=${clientId}`)).json<{ id: string }[]>();
    await request('GET', `/api/locations/${first!.id}`);
    // A bulk edit, a later edit of another field, then the bulk edit's undo: it merges (audit/undo.ts).
    const bulk = (
      await request('PATCH', '/api/locations', { ids: [first!.id], set: { status: 'temporarily_closed' } })
    ).json<{ operation_id: string }>();
    await request('PATCH', `/api/locations/${first!.id}`, { phone: '+1 415 555 0123' });
    expect((await request('POST', `/api/operations/${bulk.operation_id}/undo`)).json()).toMatchObject({
      restored: 1,
      conflicts: [],
    });
    // A bulk delete, its undo (recreates) and the undo's undo (removes): the undo's plan and its writes.
    const removed = (await request('POST', '/api/locations/delete', { ids: [first!.id] })).json<{
      operation_id: string;
    }>();
    const back = (await request('POST', `/api/operations/${removed.operation_id}/undo`)).json<{
      operation_id: string;
    }>();
    expect((await request('POST', `/api/operations/${back.operation_id}/undo`)).json()).toMatchObject({ removed: 1 });
    deleteLocations(db, JSON.stringify([first!.id]));
    deleteClient(db, t.organizationId, clientId);
    await request('POST', '/auth/logout');
    statements = preparedSql(t.store.db);
  });
  afterAll(() => t.close());

  it('every endpoint above prepared its statements through statement()', () => {
    expect(statements.length).toBeGreaterThan(20);
    expect(statements.some((sql) => sql.includes('FROM locations WHERE client_id = ?'))).toBe(true);
  });

  it('no statement scans a whole table, but for the few named with their reason', () => {
    const scans: string[] = [];
    for (const sql of statements) {
      if (/^\s*INSERT/i.test(sql) || SCANS_ALLOWED[sql.replace(/\s+/g, ' ').trim()] !== undefined) continue;
      const params = (sql.match(/\?/g) ?? []).map(() => 'x');
      const plan = t.store.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail);
      // "SCAN t USING INDEX" walks an index in order; a bare "SCAN t" reads every row.
      if (plan.some((step) => /^SCAN \w+$/.test(step.trim()))) scans.push(`${sql}\n  ${plan.join('\n  ')}`);
    }
    expect(scans).toEqual([]);
  });
});
