import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditPage, UndoResponse } from '../../server/audit/schemas.js';
import { UploadResponse } from '../../server/locations/schemas.js';

type UploadAnswer = typeof UploadResponse.static;
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot, rowCount } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * Issue 11 §1-2, over the real server and encrypted database: each change leaves exactly its entries in
 * its own transaction, the change feed never skips or repeats, and every operation can be undone.
 */

interface Entry {
  id: string;
  at: string;
  action: string;
  actor: { type: string; id: string | null; email: string | null; name: string | null };
  target: { type: string; id: string | null; name: string | null };
  client_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  summary: Record<string, unknown> | null;
  operation_id: string | null;
  undone_by: string | null;
}

let t: TestApp;
let admin: string;
let viewer: string;
let cv: string;
let cvClient: string;

beforeAll(async () => {
  let clientIds: Record<string, string>;
  ({
    t,
    tokens: { admin, viewer, cv },
    clientIds,
  } = await buildSignedInApp({
    admin: 'admin',
    viewer: 'viewer',
    cv: { role: 'client_viewer', clientName: 'Own Client' },
  }));
  cvClient = clientIds['Own Client']!;
});
afterAll(() => t.close());

async function audit(query = '', token = admin): Promise<{ entries: Entry[]; next_cursor: number | null }> {
  const response = await t.request({ method: 'GET', url: `/api/audit${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  expect(Value.Errors(AuditPage, response.json()).First()).toBeUndefined();
  return response.json();
}

const entriesCount = () => rowCount(t.store.db, 'audit_entries');

async function importRows(clientId: string, rows: unknown[], query = '') {
  const response = await t.request({
    method: 'POST',
    url: `/api/locations/upload${query}`,
    token: admin,
    body: { clientId, rows },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ operation_id: string; created: number; updated: number }>();
}

async function listOf(clientId: string) {
  return (await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin })).json<
    {
      id: string;
      name: string;
      city: string | null;
      phone: string | null;
      status: string;
      store_code: string | null;
      health_score: number;
    }[]
  >();
}

async function undo(operationId: string, query = '', token = admin) {
  return t.request({ method: 'POST', url: `/api/operations/${operationId}/undo${query}`, token });
}

describe("an import's fileName", () => {
  it('holding a control character -> 400 naming it, nothing written; a tab or a line break is kept', async () => {
    const clientId = await t.createClient(admin, 'File names');
    const before = entriesCount();
    const refused = await t.request({
      method: 'POST',
      url: '/api/locations/upload?fileName=boston%07.csv',
      token: admin,
      body: { clientId, rows: [{ name: 'A' }] },
    });
    expect(expectErrorBody(refused, 400).details).toEqual([
      { path: '/querystring/fileName', message: 'holds the control character U+0007' },
    ]);
    expect(entriesCount()).toBe(before);
    await importRows(clientId, [{ name: 'A' }], '?fileName=boston%0A2026.csv');
    const { entries } = await audit(`?clientId=${clientId}`);
    expect(entries[0]!.summary).toMatchObject({ file_name: 'boston\n2026.csv' });
  });
});

describe('each change leaves exactly its entries', () => {
  it('clients, an import, one location, many locations: one entry each, with actor, target and changes', async () => {
    const before = entriesCount();
    const clientId = await t.createClient(admin, 'Audited');
    await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body: { industry: 'Coffee' } });
    const imported = await importRows(
      clientId,
      [{ name: 'A', phone: '+1 217 555 0100' }, { name: 'B' }],
      '?fileName=boston.csv',
    );
    const [a, b] = await listOf(clientId);
    await t.request({
      method: 'PATCH',
      url: `/api/locations/${a!.id}`,
      token: admin,
      body: { phone: '+1 217 555 0199' },
    });
    const edited = await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids: [a!.id, b!.id], set: { status: 'temporarily_closed' } },
    });
    await t.request({ method: 'DELETE', url: `/api/locations/${b!.id}`, token: admin });
    expect(entriesCount() - before).toBe(6);

    const { entries } = await audit(`?clientId=${clientId}`);
    expect(entries.map((entry) => entry.action)).toEqual([
      'location.deleted',
      'locations.edited',
      'location.updated',
      'locations.imported',
      'client.updated',
      'client.created',
    ]);
    const [deleted, bulk, updated, importEntry, clientUpdated] = entries;
    expect(deleted).toMatchObject({ target: { type: 'location', id: b!.id, name: 'B' } });
    expect(bulk!.operation_id).toBe(edited.json<{ operation_id: string }>().operation_id);
    expect(updated).toMatchObject({
      actor: { type: 'user', email: 'admin@example.com' },
      target: { type: 'location', id: a!.id, name: 'A' },
      changes: { phone: { from: '+12175550100', to: '+12175550199' } },
    });
    expect(importEntry).toMatchObject({
      operation_id: imported.operation_id,
      summary: { mode: 'create', blanks: 'keep', file_name: 'boston.csv', created: 2, updated: 0 },
      target: { type: 'client', id: clientId, name: 'Audited' },
    });
    expect(clientUpdated!.changes).toEqual({ industry: { from: null, to: 'Coffee' } });
  });

  it('a client PATCH that changes nothing leaves no entry and no write (as a location PATCH does)', async () => {
    const clientId = await t.createClient(admin, 'Unchanged');
    await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body: { industry: 'Tea' } });
    const before = dataSnapshot(t.store.db);
    for (const body of [
      { name: 'Unchanged' },
      { industry: 'Tea' },
      { website: null },
      { name: 'Unchanged', industry: 'Tea' },
    ]) {
      const response = await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: clientId, name: 'Unchanged', industry: 'Tea', website: null });
    }
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('an import of no rows leaves no entry and no operation: its operation_id is null', async () => {
    const clientId = await t.createClient(admin, 'Empty import');
    const before = dataSnapshot(t.store.db);
    for (const [body, type] of [
      [JSON.stringify({ clientId, rows: [] }), 'application/json'],
      ['Name,City\n', 'text/csv'],
      // Lines under the header, none of them a row (read a piece at a time: their count is only known at the end).
      ['Name,City\n\nTotal,46\n,\n', 'text/csv'],
    ] as const) {
      const response = await t.request({
        method: 'POST',
        url: `/api/locations/upload${type === 'text/csv' ? `?clientId=${clientId}` : ''}`,
        token: admin,
        headers: { 'content-type': type },
        body,
      });
      expect(response.statusCode, response.body).toBe(201);
      const answer = response.json<UploadAnswer>();
      expect(Value.Errors(UploadResponse, answer).First()).toBeUndefined();
      expect(answer).toMatchObject({ success: true, count: 0, created: 0, operation_id: null });
    }
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('an import of unchanged rows and a bulk edit that changes nothing keep their entry but no operation to undo', async () => {
    const clientId = await t.createClient(admin, 'Nothing changed');
    const first = await importRows(clientId, [{ name: 'A', city: 'Austin', store_code: 'A-1' }]);
    const operations = () => rowCount(t.store.db, 'operations');
    const before = operations();
    const again = await importRows(clientId, [{ name: 'A', city: 'Austin', store_code: 'A-1' }], '?mode=upsert');
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1, operation_id: null });
    const locations = await listOf(clientId);
    const edit = await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids: locations.map((location) => location.id), set: { status: 'open' } },
    });
    expect(edit.json()).toEqual({ success: true, count: 0, operation_id: null });
    expect(operations()).toBe(before);
    const { entries } = await audit(`?clientId=${clientId}`);
    expect(entries.map((entry) => [entry.action, entry.operation_id])).toEqual([
      ['locations.edited', null],
      ['locations.imported', null],
      ['locations.imported', first.operation_id],
      ['client.created', null],
    ]);
  });

  it('a change that fails leaves no entry (an invalid import, an invalid PATCH, a Viewer)', async () => {
    const clientId = await t.createClient(admin, 'Refused');
    const before = entriesCount();
    await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows: [{ name: 'A' }, { name: 5 }] },
    });
    await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body: { website: 'nope' } });
    await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: viewer, body: { name: 'X' } });
    expect(entriesCount()).toBe(before);
  });

  it("a deleted client's history stays readable", async () => {
    const clientId = await t.createClient(admin, 'Gone Soon');
    await importRows(clientId, [{ name: 'A' }]);
    await t.request({ method: 'DELETE', url: `/api/clients/${clientId}`, token: admin });
    const { entries } = await audit(`?clientId=${clientId}`);
    expect(entries.map((entry) => entry.action)).toEqual(['client.deleted', 'locations.imported', 'client.created']);
    expect(entries[0]!.target.name).toBe('Gone Soon');
  });

  it("a Client Viewer reads its client's entries only, without other users' e-mails; filters combine", async () => {
    await importRows(cvClient, [{ name: 'Seen' }]);
    const { entries } = await audit('', cv);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.client_id).toBe(cvClient);
      // Its own sign-ins name it; nobody else's e-mail shows, as the actor or as the user an entry is about.
      expect([null, 'cv@example.com']).toContain(entry.actor.email);
      if (entry.target.type === 'user') expect([null, 'cv@example.com']).toContain(entry.target.name);
    }
    expect(entries.some((entry) => entry.action === 'locations.imported' && entry.actor.email === null)).toBe(true);
    expect((await audit(`?action=locations.imported&clientId=${cvClient}`, viewer)).entries.length).toBe(1);
    // Another client's history, asked for by name: refused, as its locations are (not answered with its own).
    const other = await t.createClient(admin, 'Not the viewer’s');
    const refused = await t.request({ method: 'GET', url: `/api/audit?clientId=${other}`, token: cv });
    expect(expectErrorBody(refused, 403).message).toBe('You can only see the history of your own client');
    expect((await audit(`?clientId=${cvClient.toUpperCase()}`, cv)).entries.length).toBe(entries.length);
    expectErrorBody(await t.request({ method: 'GET', url: '/api/audit?limit=0', token: admin }), 400);
    expectErrorBody(await t.request({ method: 'GET', url: '/api/audit?order=sideways', token: admin }), 400);
    // Another user of the client, added by the admin: the entry is the client's, the address is not shown.
    const added = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      body: { email: 'colleague@example.com', password: 'correct horse', role: 'client_viewer', clientId: cvClient },
    });
    expect(added.statusCode, added.body).toBe(201);
    const seen = (await audit('?action=user.created', cv)).entries;
    expect(seen.map((entry) => [entry.target.type, entry.target.name])).toContainEqual(['user', null]);
    expect((await audit('?action=user.created', admin)).entries.map((entry) => entry.target.name)).toContain(
      'colleague@example.com',
    );
  });

  it.each(['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01', 'yesterday'])(
    'GET /api/audit?since=%s -> 400 naming since',
    async (since) => {
      const response = await t.request({ method: 'GET', url: `/api/audit?since=${since}`, token: admin });
      expect(expectErrorBody(response, 400).message).toBe('the query parameter since must match format "date-time"');
    },
  );

  it('GET /api/audit?since=<a real time with an offset> -> 200', async () => {
    const since = encodeURIComponent('2024-02-29T23:59:60+01:00');
    expect((await t.request({ method: 'GET', url: `/api/audit?since=${since}`, token: admin })).statusCode).toBe(200);
  });

  it('GET /api/audit?since= compares instants: an offset or a lower-case t and z name the same time as Z', async () => {
    const newest = Date.parse((await audit('?limit=1')).entries[0]!.at);
    const isoHoursAway = (ms: number, hours: number) => {
      const sign = hours < 0 ? '-' : '+';
      const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, 19);
      return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
    };
    const count = async (since: string) => (await audit(`?since=${encodeURIComponent(since)}`)).entries.length;
    // A minute before the newest entry, written in Paris's and in the Azores' time: it is in both.
    expect(await count(isoHoursAway(newest - 60_000, 1))).toBeGreaterThan(0);
    expect(await count(isoHoursAway(newest - 60_000, -1))).toBeGreaterThan(0);
    // A minute after it: nothing, whatever the offset.
    expect(await count(isoHoursAway(newest + 60_000, 1))).toBe(0);
    expect(await count(isoHoursAway(newest + 60_000, -1))).toBe(0);
    expect(await count(new Date(newest - 60_000).toISOString().replace('T', 't').replace('Z', 'z'))).toBeGreaterThan(0);
  });
});

describe('users and tokens', () => {
  it('a user added, changed and removed, a token created and revoked: one entry each, never a password', async () => {
    const before = entriesCount();
    const user = (
      await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        body: { email: 'new.hire@example.com', password: 'a long secret pass', role: 'viewer' },
      })
    ).json<{ id: string }>();
    await t.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      token: admin,
      body: { role: 'admin', password: 'another long secret' },
    });
    await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin });
    const token = (
      await t.request({
        method: 'POST',
        url: '/api/tokens',
        token: admin,
        body: { name: 'nightly-sync', scopes: ['read'] },
      })
    ).json<{ id: string }>();
    await t.request({ method: 'DELETE', url: `/api/tokens/${token.id}`, token: admin });
    expect(entriesCount() - before).toBe(5);
    const { entries } = await audit('?limit=5');
    expect(entries.map((entry) => [entry.action, entry.target.name])).toEqual([
      ['token.revoked', 'nightly-sync'],
      ['token.created', 'nightly-sync'],
      ['user.deleted', 'new.hire@example.com'],
      ['user.updated', 'new.hire@example.com'],
      ['user.created', 'new.hire@example.com'],
    ]);
    expect(entries[3]!.changes).toEqual({
      role: { from: 'viewer', to: 'admin' },
      password: { from: '(hidden)', to: '(changed)' },
    });
    expect(JSON.stringify(entries)).not.toContain('secret');
  });
});

describe('sign-ins', () => {
  it('a sign-in is a new session in the trail; a wrong password writes nothing', async () => {
    const before = entriesCount();
    await t.request({
      method: 'POST',
      url: '/auth/callback',
      body: { email: 'viewer@example.com', password: 'wrong one' },
    });
    expect(entriesCount()).toBe(before);
    await t.login('viewer@example.com');
    expect(entriesCount()).toBe(before + 1);
    const [entry] = (await audit('?action=user.signed_in&limit=1')).entries;
    expect(entry).toMatchObject({ actor: { type: 'user', email: 'viewer@example.com' }, target: { type: 'user' } });
  });
});

describe('a burst of wrong passwords', () => {
  const guess = (email: string) =>
    t.request({ method: 'POST', url: '/auth/callback', body: { email, password: 'not the password' } });

  it('that reaches the throttle is one entry for the account, whatever the guesses after it; unknown e-mails none', async () => {
    const made = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      body: { email: 'guarded@example.com', password: 'a long password', role: 'viewer' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const before = entriesCount();
    const codes: number[] = [];
    for (let i = 0; i < 9; i += 1) codes.push((await guess('guarded@example.com')).statusCode);
    // Five free tries and the one that starts the back-off are checked; the rest wait.
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429]);
    expect(entriesCount()).toBe(before + 1);
    const [entry] = (await audit('?action=user.sign_in_throttled&limit=5')).entries;
    expect(entry).toMatchObject({
      actor: { type: 'system', name: 'the sign-in throttle', email: null },
      target: { type: 'user', id: made.json<{ id: string }>().id, name: 'guarded@example.com' },
      summary: { failures: 6 },
    });
    expect(entry!.summary!.address).toEqual(expect.any(String));

    for (let i = 0; i < 8; i += 1) await guess('nobody-here@example.com');
    expect(entriesCount()).toBe(before + 1);
  });
});

describe("a location's history", () => {
  it("holds its own edits and the operations that changed it (import, bulk edit, undo), not its neighbours'", async () => {
    const clientId = await t.createClient(admin, 'Location history');
    const imported = await importRows(clientId, [{ name: 'Traced' }, { name: 'Neighbour' }]);
    const byName = Object.fromEntries((await listOf(clientId)).map((location) => [location.name, location.id]));
    const patch = (url: string, body: unknown) => t.request({ method: 'PATCH', url, token: admin, body });
    expect((await patch(`/api/locations/${byName.Traced}`, { city: 'Leeds' })).statusCode).toBe(200);
    const both = await patch('/api/locations', { ids: [byName.Traced, byName.Neighbour], set: { labels: ['wifi'] } });
    const neighbourOnly = await patch('/api/locations', {
      ids: [byName.Neighbour],
      set: { status: 'temporarily_closed' },
    });
    expect(neighbourOnly.statusCode).toBe(200);
    const bulk = both.json<{ operation_id: string }>().operation_id;
    expect((await undo(bulk)).statusCode).toBe(200);

    const history = await audit(`?locationId=${byName.Traced}`);
    const actions = (page: typeof history) => page.entries.map((entry) => entry.action);
    expect(actions(history)).toEqual([
      'operation.undone',
      'locations.edited',
      'location.updated',
      'locations.imported',
    ]);
    expect(history.entries[3]!.operation_id).toBe(imported.operation_id);
    // Paged as any history: newest first, a cursor on.
    const first = await audit(`?locationId=${byName.Traced}&limit=2`);
    expect(first.entries).toHaveLength(2);
    const rest = await audit(`?locationId=${byName.Traced}&limit=2&cursor=${first.next_cursor}`);
    expect(actions(rest)).toEqual(['location.updated', 'locations.imported']);
    // The neighbour's own bulk change is its alone.
    expect(actions(await audit(`?locationId=${byName.Neighbour}`))).toEqual([
      'operation.undone',
      'locations.edited',
      'locations.edited',
      'locations.imported',
    ]);
  });
});

describe('the change feed', () => {
  it('order=asc from a cursor, polled during concurrent writes, gets every new entry once, in order', async () => {
    const clientId = await t.createClient(admin, 'Feed');
    let cursor = (await audit('?order=asc&limit=1000&cursor=0')).next_cursor!;
    const from = cursor;
    let writing = true;
    const seen: string[] = [];
    const poll = async () => {
      for (;;) {
        const page = await audit(`?order=asc&limit=3&cursor=${cursor}`);
        seen.push(...page.entries.map((entry) => entry.id));
        cursor = page.next_cursor!;
        if (!writing && page.entries.length === 0) return;
        // An injected request never waits for I/O: let the writer thread's answers in between polls.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const polling = poll();
    const written = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? importRows(clientId, [{ name: `R${i}` }])
          : t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body: { industry: `I${i}` } }),
      ),
    );
    writing = false;
    await polling;
    expect(written.every((result) => result.status === 'fulfilled')).toBe(true);
    const expected = (await audit(`?order=asc&limit=1000&cursor=${from}`)).entries.map((entry) => entry.id);
    expect(expected.length).toBe(12);
    expect(seen).toEqual(expected);
  });

  it('a feed cursor past the newest entry is a 400 saying to read again, not an empty answer forever', async () => {
    const { next_cursor: newest } = await audit('?order=asc&limit=1000&cursor=0');
    expect((await audit(`?order=asc&cursor=${newest}`)).entries).toEqual([]);
    const past = await t.request({ method: 'GET', url: `/api/audit?order=asc&cursor=${newest! + 50}`, token: admin });
    expect(expectErrorBody(past, 400).message).toBe(
      `the cursor ${newest! + 50} is past the trail's newest entry (${newest}): no next_cursor said it. Read the feed again from cursor=0`,
    );
  });

  it('newest first by default, next_cursor null on the last page', async () => {
    const page1 = await audit('?limit=2');
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await audit(`?limit=2&cursor=${page1.next_cursor}`);
    expect(page2.entries[0]!.id).not.toBe(page1.entries[1]!.id);
    const everything = await audit('?limit=1000');
    expect(everything.next_cursor).toBeNull();
  });
});

describe('undo', () => {
  it('of an import: the locations it created are removed; the dry run says so first and writes nothing', async () => {
    const clientId = await t.createClient(admin, 'Undo import');
    const { operation_id } = await importRows(clientId, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const snapshot = dataSnapshot(t.store.db);
    const dry = await undo(operation_id, '?dryRun=true');
    expect(dry.json()).toMatchObject({ dry_run: true, removed: 3, restored: 0, recreated: 0, conflicts: [] });
    expect(dataSnapshot(t.store.db)).toEqual(snapshot);
    const done = await undo(operation_id);
    expect(done.statusCode, done.body).toBe(200);
    expect(Value.Check(UndoResponse, done.json())).toBe(true);
    expect(await listOf(clientId)).toEqual([]);
    const clients = (await t.request({ method: 'GET', url: '/api/clients', token: admin })).json<
      { id: string; locations_count: number }[]
    >();
    expect(clients.find((client) => client.id === clientId)?.locations_count).toBe(0);
    expectErrorBody(await undo(operation_id), 409);
    const { entries } = await audit(`?clientId=${clientId}&limit=1`);
    expect(entries[0]).toMatchObject({ action: 'operation.undone', summary: { removed: 3 } });
  });

  it('of an upsert puts the values back; a location changed since is a conflict and left as it is', async () => {
    const clientId = await t.createClient(admin, 'Undo upsert');
    await importRows(clientId, [
      { name: 'A', store_code: 'A', phone: '+1 217 555 0100' },
      { name: 'B', store_code: 'B', phone: '+1 217 555 0100' },
    ]);
    const { operation_id } = await importRows(
      clientId,
      [
        { name: 'A', store_code: 'A', phone: '+1 217 555 0111' },
        { name: 'B', store_code: 'B', phone: '+1 217 555 0111' },
        { name: 'C', store_code: 'C' },
      ],
      '?mode=upsert',
    );
    const [, b] = await listOf(clientId);
    const later = { phone: '+1 217 555 0199', zip: '62701' };
    await t.request({ method: 'PATCH', url: `/api/locations/${b!.id}`, token: admin, body: later });
    // An edit of fields the import left alone, after it: not the one named (a walk's undo named it).
    const moved = { latitude: 39.8, longitude: -89.6 };
    await t.request({ method: 'PATCH', url: `/api/locations/${b!.id}`, token: admin, body: moved });
    const answer = (await undo(operation_id)).json<{
      restored: number;
      removed: number;
      conflicts: { location_id: string; reason: string }[];
    }>();
    // The edit since is named: who, and which fields, in the history's words (zip is the postal code).
    expect(answer).toMatchObject({
      restored: 1,
      removed: 1,
      conflicts: [
        {
          location_id: b!.id,
          reason: expect.stringMatching(/^changed since: \S+@\S+ edited its postal code and phone$/),
        },
      ],
    });
    // Only a store code held by another location names a holder (held_by).
    expect(answer.conflicts[0]).not.toHaveProperty('held_by');
    expect((await listOf(clientId)).map((row) => [row.name, row.phone])).toEqual([
      ['A', '+12175550100'],
      ['B', '+12175550199'],
    ]);
    // Changed since by a later import, then an edit of other fields: the words stay plain, the edit is not
    // named as the change (a review's probe).
    const { operation_id: first } = await importRows(
      clientId,
      [{ name: 'A', store_code: 'A', phone: '+1 217 555 0122' }],
      '?mode=upsert',
    );
    await importRows(clientId, [{ name: 'A', store_code: 'A', phone: '+1 217 555 0133' }], '?mode=upsert');
    const [a] = await listOf(clientId);
    await t.request({
      method: 'PATCH',
      url: `/api/locations/${a!.id}`,
      token: admin,
      body: { latitude: 39.8, longitude: -89.6 },
    });
    const plain = (await undo(first, '?dryRun=true')).json<{ conflicts: { reason: string }[] }>();
    expect(plain.conflicts.map((conflict) => conflict.reason)).toEqual(['changed since']);
  });

  it('puts back the fields an operation changed when a location changed since in other fields only', async () => {
    // A user's months: a bulk status change on three, new labels on one of them, a phone typed on another;
    // then the status change is undone: every status goes back, the later labels and phone stay.
    const clientId = await t.createClient(admin, 'Undo merges');
    await importRows(clientId, [
      { name: 'A', store_code: 'A' },
      { name: 'B', store_code: 'B', labels: 'old' },
      // Coordinates of 17 digits: SQLite's JSON writes 15, so a merge must not write back what it read there.
      {
        name: 'C',
        store_code: 'C',
        country: 'US',
        phone: '+1 217 555 0100',
        latitude: 39.781712345678912,
        longitude: -89.65,
      },
    ]);
    const [a, b, c] = await listOf(clientId);
    const latitudeOfC = () => t.store.db.prepare('SELECT latitude FROM locations WHERE id = ?').pluck().get(c!.id);
    expect(latitudeOfC()).toBe(39.781712345678912);
    const bulk = (ids: string[], set: object) =>
      t.request({ method: 'PATCH', url: '/api/locations', token: admin, body: { ids, set } });
    const closing = (await bulk([a!.id, b!.id, c!.id], { status: 'temporarily_closed' })).json<{
      operation_id: string;
    }>();
    const labelling = (await bulk([b!.id], { labels: ['new'] })).json<{ operation_id: string }>();
    await t.request({
      method: 'PATCH',
      url: `/api/locations/${c!.id}`,
      token: admin,
      body: { phone: '+1 217 555 0177' },
    });
    const state = async () =>
      (await listOf(clientId)).map((row) => [row.name, row.status, (row as { labels?: string[] }).labels, row.phone]);

    const dry = (await undo(closing.operation_id, '?dryRun=true')).json();
    expect(dry).toMatchObject({ restored: 3, conflicts: [] });
    const undone = (await undo(closing.operation_id)).json<{ operation_id: string }>();
    expect(undone).toMatchObject({ restored: 3, conflicts: [] });
    expect(latitudeOfC()).toBe(39.781712345678912);
    expect(await state()).toEqual([
      ['A', 'open', null, null],
      ['B', 'open', ['new'], null],
      ['C', 'open', null, '+12175550177'],
    ]);
    // Out of order now: the labels' undo after the status's undo, which changed the status only.
    expect((await undo(labelling.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect(await state()).toEqual([
      ['A', 'open', null, null],
      ['B', 'open', ['old'], null],
      ['C', 'open', null, '+12175550177'],
    ]);
    // The status's undo undone in turn: the status closes again, the labels' undo and the phone stay.
    expect((await undo(undone.operation_id)).json()).toMatchObject({ restored: 3, conflicts: [] });
    expect(await state()).toEqual([
      ['A', 'temporarily_closed', null, null],
      ['B', 'temporarily_closed', ['old'], null],
      ['C', 'temporarily_closed', null, '+12175550177'],
    ]);
    // Health follows the merged values: a location is scored as it now is.
    const health = (await listOf(clientId)).map((row) => (row as { health_score?: number }).health_score);
    const again = await Promise.all(
      [a!, b!, c!].map(
        async ({ id }) =>
          (await t.request({ method: 'GET', url: `/api/locations/${id}`, token: admin })).json<{
            health_score: number;
          }>().health_score,
      ),
    );
    expect(health).toEqual(again);
  });

  it('keeps a location brought back by an undo ahead of every revision it had: an edit after it is a change since', async () => {
    // A review's repro: an edit, a bulk status change (A), a delete and its undo, then the status by hand.
    // The location came back at revision 1 and the hand edit took it to A's 2: A's undo put back "open".
    const clientId = await t.createClient(admin, 'Undo after a re-insert');
    await importRows(clientId, [{ name: 'L', store_code: 'L' }]);
    const [l] = await listOf(clientId);
    const patch = (body: object) => t.request({ method: 'PATCH', url: `/api/locations/${l!.id}`, token: admin, body });
    await patch({ city: 'Austin' });
    const a = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids: [l!.id], set: { status: 'temporarily_closed' } },
      })
    ).json<{ operation_id: string }>();
    const deleted = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids: [l!.id] } })
    ).json<{ operation_id: string }>();
    expect((await undo(deleted.operation_id)).json()).toMatchObject({ recreated: 1 });
    await patch({ status: 'permanently_closed' });
    expect((await undo(a.operation_id)).json()).toMatchObject({
      restored: 0,
      conflicts: [{ location_id: l!.id, reason: expect.stringMatching(/^changed since/) }],
    });
    expect((await listOf(clientId))[0]!.status).toBe('permanently_closed');
  });

  it('leaves as a conflict a location whose changed field was changed again since, by hand or by another operation', async () => {
    const clientId = await t.createClient(admin, 'Undo no merge');
    await importRows(clientId, [
      { name: 'A', store_code: 'A' },
      { name: 'B', store_code: 'B' },
    ]);
    const [a, b] = await listOf(clientId);
    const bulk = (ids: string[], set: object) =>
      t.request({ method: 'PATCH', url: '/api/locations', token: admin, body: { ids, set } });
    const closing = (await bulk([a!.id, b!.id], { status: 'temporarily_closed' })).json<{ operation_id: string }>();
    await t.request({
      method: 'PATCH',
      url: `/api/locations/${a!.id}`,
      token: admin,
      body: { status: 'open', city: 'X' },
    });
    await bulk([b!.id], { status: 'permanently_closed' });
    const before = dataSnapshot(t.store.db);
    expect((await undo(closing.operation_id)).json()).toMatchObject({
      restored: 0,
      conflicts: [
        { location_id: a!.id, reason: expect.stringMatching(/edited its city and status$/) },
        { location_id: b!.id, reason: 'changed since' },
      ],
    });
    // Every location a conflict: nothing written, and the operation can still be undone later.
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('undoes an undo of a store-code swap: each location gets the swapped code again, none is lost', async () => {
    // A review's repro: the undo kept what each location was after it had let the codes go, so its own
    // undo put back no code at all.
    const clientId = await t.createClient(admin, 'Swap undone twice');
    await importRows(clientId, [
      { name: 'A', store_code: 'RT-1' },
      { name: 'B', store_code: 'RT-2' },
    ]);
    const [a, b] = await listOf(clientId);
    const codes = async () => (await listOf(clientId)).map((row) => row.store_code);
    const swapped = await importRows(
      clientId,
      [
        { id: a!.id, name: 'A', store_code: 'RT-2' },
        { id: b!.id, name: 'B', store_code: 'RT-1' },
      ],
      '?mode=upsert',
    );
    expect(await codes()).toEqual(['RT-2', 'RT-1']);
    const back = (await undo(swapped.operation_id)).json<{ restored: number; operation_id: string }>();
    expect(back.restored).toBe(2);
    expect(await codes()).toEqual(['RT-1', 'RT-2']);
    expect((await undo(back.operation_id)).json()).toMatchObject({ restored: 2, conflicts: [] });
    expect(await codes()).toEqual(['RT-2', 'RT-1']);
  });

  it('puts coordinates of 17 digits back exactly: a delete undone, an upsert undone and its undo undone', async () => {
    // SQLite's JSON writes a double with 15 digits; the kept values hold the coordinates as exact text.
    const clientId = await t.createClient(admin, 'Exact coordinates undone');
    const [lat, lng, later] = ['48.85661400000001', '-122.41941550000001', '39.78171234567891'];
    await importRows(clientId, [{ name: 'P', store_code: 'P-1', latitude: lat, longitude: lng }]);
    const [p] = await listOf(clientId);
    const stored = () =>
      t.store.db.prepare('SELECT latitude, longitude FROM locations WHERE id = ?').get(p!.id) as {
        latitude: number;
        longitude: number;
      };
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids: [p!.id] } })
    ).json<{ operation_id: string }>();
    expect((await undo(removed.operation_id)).json()).toMatchObject({ recreated: 1 });
    expect(stored()).toEqual({ latitude: Number(lat), longitude: Number(lng) });
    const moved = await importRows(clientId, [{ name: 'P', store_code: 'P-1', latitude: later }], '?mode=upsert');
    const back = (await undo(moved.operation_id)).json<{ restored: number; operation_id: string }>();
    expect(back.restored).toBe(1);
    expect(stored()).toEqual({ latitude: Number(lat), longitude: Number(lng) });
    expect((await undo(back.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect(stored()).toEqual({ latitude: Number(later), longitude: Number(lng) });
  });

  it('of an upsert that changes every kind of field gives back the whole record, keys included', async () => {
    const clientId = await t.createClient(admin, 'Undo every field');
    const first = {
      name: 'Corner Shop',
      address: '1 Main St',
      city: 'Springfield',
      country: 'US',
      google_place_id: 'ChIJ-undo-before',
      phone: '+1 217 555 0100',
      latitude: '39,78',
      longitude: '-89,65',
      labels: 'north, flagship',
      hours: 'Mon-Fri 9:00-17:00',
    };
    await importRows(clientId, [first]);
    const [stored] = await listOf(clientId);
    const record = async () => {
      const response = await t.request({ method: 'GET', url: `/api/locations/${stored!.id}`, token: admin });
      const { updated_at: _updated, ...rest } = response.json<Record<string, unknown>>();
      return rest;
    };
    const before = await record();
    const { operation_id } = await importRows(
      clientId,
      [
        {
          id: stored!.id,
          name: 'Corner Shop Downtown',
          address: '2 Main St',
          city: 'Springfield',
          country: 'US',
          google_place_id: 'ChIJ-undo-after',
          phone: '+1 217 555 0199',
          latitude: '40.1',
          labels: 'south',
          hours: 'Sat 10:00-14:00',
          status: 'temporarily_closed',
        },
      ],
      '?mode=upsert',
    );
    expect(await record()).not.toEqual(before);
    expect((await undo(operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect(await record()).toEqual(before);
    // The match key came back with the name and address: the first row matches the location again.
    const again = await importRows(clientId, [{ ...first, google_place_id: undefined }], '?mode=upsert');
    expect(again).toMatchObject({ created: 0, unchanged: 1 });
  });

  it('steps back through the history: the newest undone first, each earlier one then undoes cleanly', async () => {
    const clientId = await t.createClient(admin, 'Step back');
    const row = (phone: string, city: string) => ({ name: 'A', store_code: 'A', phone, city });
    const created = await importRows(clientId, [row('+1 217 555 0100', 'One')]);
    const [a] = await listOf(clientId);
    const upsert = (phone: string, city: string) => importRows(clientId, [row(phone, city)], '?mode=upsert');
    const second = await upsert('+1 217 555 0111', 'Two');
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids: [a!.id], set: { city: 'Three' } },
      })
    ).json<{ operation_id: string }>();
    const third = await upsert('+1 217 555 0133', 'Three');
    const state = async () =>
      (await listOf(clientId)).map((location) => [location.phone, (location as { city?: string }).city]);

    const undone = (await undo(third.operation_id)).json<{ operation_id: string; conflicts: unknown[] }>();
    expect(undone.conflicts).toEqual([]);
    expect(await state()).toEqual([['+12175550111', 'Three']]);
    // The trail says which undo reverted the third import; the second is not undone.
    const { entries } = await audit(`?clientId=${clientId}&action=locations.imported`);
    const undoneBy = Object.fromEntries(entries.map((entry) => [entry.operation_id, entry.undone_by]));
    expect([undoneBy[third.operation_id], undoneBy[second.operation_id]]).toEqual([undone.operation_id, null]);
    // Undoing the undo puts the third back; undoing that again steps back once more.
    const redone = (await undo(undone.operation_id)).json<{ operation_id: string; conflicts: unknown[] }>();
    expect(redone.conflicts).toEqual([]);
    expect(await state()).toEqual([['+12175550133', 'Three']]);
    expect((await undo(redone.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect((await undo(edit.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect(await state()).toEqual([['+12175550111', 'Two']]);
    expect((await undo(second.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    expect(await state()).toEqual([['+12175550100', 'One']]);
    expect((await undo(created.operation_id)).json()).toMatchObject({ removed: 1, conflicts: [] });
    expect(await listOf(clientId)).toEqual([]);
  });

  it('still sees a change made since, after stepping back', async () => {
    const clientId = await t.createClient(admin, 'Step back, changed');
    await importRows(clientId, [{ name: 'A', store_code: 'A', city: 'One' }]);
    const [a] = await listOf(clientId);
    const second = await importRows(clientId, [{ name: 'A', store_code: 'A', city: 'Two' }], '?mode=upsert');
    const third = await importRows(clientId, [{ name: 'A', store_code: 'A', city: 'Three' }], '?mode=upsert');
    expect((await undo(third.operation_id)).json()).toMatchObject({ restored: 1, conflicts: [] });
    // A change by hand after the undo: the second import's undo leaves it and says so.
    await t.request({ method: 'PATCH', url: `/api/locations/${a!.id}`, token: admin, body: { city: 'By hand' } });
    expect((await undo(second.operation_id)).json()).toMatchObject({
      restored: 0,
      conflicts: [{ location_id: a!.id, reason: expect.stringMatching(/^changed since: \S+ edited its city$/) }],
    });
  });

  it('names no editor when the change since was a later import (it keeps its values per operation)', async () => {
    const clientId = await t.createClient(admin, 'Changed by an import');
    await importRows(clientId, [{ name: 'A', store_code: 'A', city: 'One' }]);
    const [a] = await listOf(clientId);
    const second = await importRows(clientId, [{ name: 'A', store_code: 'A', city: 'Two' }], '?mode=upsert');
    await importRows(
      clientId,
      [{ name: 'A', store_code: 'A', city: 'Three', primary_category: 'Cafe' }],
      '?mode=upsert',
    );
    expect((await undo(second.operation_id)).json()).toMatchObject({
      restored: 0,
      conflicts: [{ location_id: a!.id, reason: 'changed since' }],
    });
  });

  it('of a bulk delete brings the locations back with their ids; undo of that undo deletes them again', async () => {
    const clientId = await t.createClient(admin, 'Undo delete');
    await importRows(clientId, [{ name: 'A', store_code: 'S1' }, { name: 'B' }]);
    const ids = (await listOf(clientId)).map((row) => row.id);
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } })
    ).json<{ operation_id: string }>();
    expect(await listOf(clientId)).toEqual([]);
    // Its entry names the locations it deleted (the first 3), read before they went.
    const [entry] = (await audit(`?clientId=${clientId}&action=locations.deleted`)).entries;
    expect(entry!.summary).toEqual({ count: 2, names: ['A', 'B'] });
    const back = (await undo(removed.operation_id)).json<{ recreated: number; operation_id: string }>();
    expect(back.recreated).toBe(2);
    expect((await listOf(clientId)).map((row) => row.id).sort()).toEqual([...ids].sort());
    const again = (await undo(back.operation_id)).json<{ removed: number }>();
    expect(again.removed).toBe(2);
    expect(await listOf(clientId)).toEqual([]);
  });

  it("undoes the undo of a delete of edited locations: the revision each came back at is its undo's mark", async () => {
    // The undo's own undo looked for revision 1 on every location it had brought back: one edited
    // before its delete came back higher, and the undo of the undo left it as "changed since".
    const clientId = await t.createClient(admin, 'Undo the undo of edited');
    await importRows(clientId, [{ name: 'Edited', store_code: 'E1' }, { name: 'Untouched' }]);
    const ids = (await listOf(clientId)).map((row) => row.id);
    await t.request({ method: 'PATCH', url: `/api/locations/${ids[0]!}`, token: admin, body: { city: 'Austin' } });
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } })
    ).json<{ operation_id: string }>();
    const back = (await undo(removed.operation_id)).json<{ recreated: number; operation_id: string }>();
    expect(back.recreated).toBe(2);
    expect((await listOf(clientId)).find((row) => row.id === ids[0])!.city).toBe('Austin');
    expect((await undo(back.operation_id)).json()).toMatchObject({ removed: 2, conflicts: [] });
    expect(await listOf(clientId)).toEqual([]);
  });

  it('steps back through a delete: its undo, then the edit before it, then the import, each cleanly', async () => {
    // A location brought back by an undo comes back at the revision it had, as a restore puts it back.
    const clientId = await t.createClient(admin, 'Step back through a delete');
    const imported = await importRows(clientId, [{ name: 'A' }, { name: 'B', city: 'Austin' }]);
    const ids = (await listOf(clientId)).map((row) => row.id);
    const edit = (
      await t.request({ method: 'PATCH', url: '/api/locations', token: admin, body: { ids, set: { city: 'Boston' } } })
    ).json<{ operation_id: string }>();
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } })
    ).json<{ operation_id: string }>();
    expect((await undo(removed.operation_id)).json()).toMatchObject({ recreated: 2, conflicts: [] });
    expect((await undo(edit.operation_id)).json()).toMatchObject({ restored: 2, conflicts: [] });
    expect((await listOf(clientId)).map((row) => row.city)).toEqual([null, 'Austin']);
    expect((await undo(imported.operation_id)).json()).toMatchObject({ removed: 2, conflicts: [] });
    expect(await listOf(clientId)).toEqual([]);
  });

  it('of a delete puts a location back in its place in the list, or at the end when a newer one took it', async () => {
    const clientId = await t.createClient(admin, 'Undo order');
    await importRows(clientId, [{ name: 'A' }, { name: 'B' }, { name: 'C' }, { name: 'D' }]);
    const [, b, , d] = await listOf(clientId);
    const remove = async (id: string) =>
      expect((await t.request({ method: 'DELETE', url: `/api/locations/${id}`, token: admin })).statusCode).toBe(200);
    const names = async () => (await listOf(clientId)).map((row) => row.name);
    const history = async () =>
      (await audit(`?clientId=${clientId}&action=location.deleted`)).entries.map((entry) => entry.operation_id!);
    await remove(b!.id);
    await remove(d!.id);
    // D was the last: E, imported since, takes its place (SQLite's next rowid), so D comes back after E.
    await importRows(clientId, [{ name: 'E' }]);
    expect(await names()).toEqual(['A', 'C', 'E']);
    const [deletedD, deletedB] = await history();
    expect((await undo(deletedB!)).statusCode).toBe(200);
    expect((await undo(deletedD!)).statusCode).toBe(200);
    expect(await names()).toEqual(['A', 'B', 'C', 'E', 'D']);
  });

  it('of a bulk edit puts each value back', async () => {
    const clientId = await t.createClient(admin, 'Undo edit');
    await importRows(clientId, [{ name: 'A' }, { name: 'B', status: 'temporarily_closed' }]);
    const ids = (await listOf(clientId)).map((row) => row.id);
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids, set: { status: 'permanently_closed' } },
      })
    ).json<{ operation_id: string; count: number }>();
    expect(edit.count).toBe(2);
    expect((await undo(edit.operation_id)).json()).toMatchObject({ restored: 2, conflicts: [] });
    expect((await listOf(clientId)).map((row) => row.status)).toEqual(['open', 'temporarily_closed']);
  });

  it("of labels added and removed puts each location's own labels back; one left as it was is not touched", async () => {
    const clientId = await t.createClient(admin, 'Undo labels');
    await importRows(clientId, [
      { name: 'Pike Street', labels: 'bakery' },
      { name: 'Harbor', labels: 'flagship, café' },
      { name: 'Airport', labels: 'summer' },
    ]);
    const ids = (await listOf(clientId)).map((row) => row.id);
    const labels = async () =>
      (await listOf(clientId)).map((row) => [row.name, (row as { labels?: string[] | null }).labels]);
    const before = await labels();
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids, add_labels: ['summer'], remove_labels: ['café'] },
      })
    ).json<{ operation_id: string; count: number }>();
    // Airport had summer and no café: not changed, not counted.
    expect(edit.count).toBe(2);
    expect(await labels()).toEqual([
      ['Pike Street', ['bakery', 'summer']],
      ['Harbor', ['flagship', 'summer']],
      ['Airport', ['summer']],
    ]);
    const [entry] = (await audit(`?clientId=${clientId}&action=locations.edited`)).entries;
    // The locations it changed are named (the first 3; here both), so the history says which.
    expect(entry!.summary).toEqual({
      count: 2,
      of: 3,
      add_labels: ['summer'],
      remove_labels: ['café'],
      names: expect.any(Array),
    });
    expect((entry!.summary!.names as string[]).sort()).toEqual(['Harbor', 'Pike Street']);
    expect((await undo(edit.operation_id)).json()).toMatchObject({ restored: 2, conflicts: [] });
    expect(await labels()).toEqual(before);
    // Values set are kept as stored, not as typed (a walk's entry said "Germany" and "Mon-Fri 9-5").
    await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids, set: { country: 'Germany', hours: 'Mon-Fri 9-5', status: 'temporarily closed' } },
    });
    const [set] = (await audit(`?clientId=${clientId}&action=locations.edited`)).entries;
    const weekday = [['09:00', '17:00']];
    expect(set!.summary!.set).toEqual({
      country: 'DE',
      hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday },
      status: 'temporarily_closed',
    });
  });

  it("a token limited to one client undoes that client's changes, never one over several clients (403)", async () => {
    const own = await t.createClient(admin, 'Undo limited own');
    const other = await t.createClient(admin, 'Undo limited other');
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      body: { name: 'one client', scopes: ['read', 'import'], clientId: own },
    });
    expect(created.statusCode, created.body).toBe(201);
    const limited = created.json<{ token: string }>().token;
    await importRows(own, [{ name: 'Own A' }]);
    await importRows(other, [{ name: 'Other B' }]);
    const ids = [...(await listOf(own)), ...(await listOf(other))].map((location) => location.id);
    const deleted = await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const { operation_id } = deleted.json<{ operation_id: string }>();

    // The token's first use stamps its last_used_at (once a minute, after the answer): done before the snapshot.
    expect((await t.request({ method: 'GET', url: '/api/clients', token: limited })).statusCode).toBe(200);
    const stamp = t.store.db.prepare('SELECT last_used_at FROM api_tokens WHERE name = ?').pluck();
    await vi.waitFor(() => expect(stamp.get('one client')).not.toBeNull());
    const before = dataSnapshot(t.store.db);
    for (const query of ['?dryRun=true', '']) {
      const refused = expectErrorBody(await undo(operation_id, query, limited), 403);
      expect(refused.message).toBe(
        'This change was made to locations of several clients: only a caller not limited to one client can undo it; nothing was changed',
      );
    }
    expect(dataSnapshot(t.store.db)).toEqual(before);

    // Its own client's change it may undo; the one over both clients, an Admin's session may.
    const own2 = await importRows(own, [{ name: 'Own C' }]);
    expect((await undo(own2.operation_id, '', limited)).statusCode).toBe(200);
    const back = await undo(operation_id);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<{ recreated: number }>().recreated).toBe(2);
  });

  it('of a delete whose client was deleted since: those locations are conflicts, the others come back', async () => {
    const gone = await t.createClient(admin, 'Undo client gone');
    const kept = await t.createClient(admin, 'Undo client kept');
    await importRows(gone, [{ name: 'Gone A' }, { name: 'Gone B' }]);
    await importRows(kept, [{ name: 'Kept C' }]);
    const ids = [...(await listOf(gone)), ...(await listOf(kept))].map((location) => location.id);
    const deleted = await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const { operation_id } = deleted.json<{ operation_id: string }>();
    expect((await t.request({ method: 'DELETE', url: `/api/clients/${gone}`, token: admin })).statusCode).toBe(200);

    const answer = await undo(operation_id);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<UndoResponse>();
    expect(Value.Errors(UndoResponse, body).First()).toBeUndefined();
    expect(body.recreated).toBe(1);
    expect(body.conflicts.map(({ name, reason }) => `${name}: ${reason}`).sort()).toEqual([
      'Gone A: its client was deleted since',
      'Gone B: its client was deleted since',
    ]);
    expect((await listOf(kept)).map((location) => location.name)).toEqual(['Kept C']);
  });

  it('of a delete whose one client was deleted since changes nothing, and says why for each location', async () => {
    const gone = await t.createClient(admin, 'Undo only client gone');
    await importRows(gone, [{ name: 'Only A' }]);
    const ids = (await listOf(gone)).map((location) => location.id);
    const { operation_id } = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } })
    ).json<{ operation_id: string }>();
    expect((await t.request({ method: 'DELETE', url: `/api/clients/${gone}`, token: admin })).statusCode).toBe(200);
    const before = dataSnapshot(t.store.db);
    const answer = await undo(operation_id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<UndoResponse>()).toMatchObject({
      operation_id: null,
      recreated: 0,
      conflicts: [{ name: 'Only A', reason: 'its client was deleted since' }],
    });
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('of an import whose locations were deleted since lists each by name, and writes nothing (a probe)', async () => {
    const clientId = await t.createClient(admin, 'Undo import deleted since');
    const { operation_id } = await importRows(clientId, [{ name: 'W1' }, { name: 'W2' }, { name: 'W3' }]);
    const byName = Object.fromEntries((await listOf(clientId)).map((location) => [location.name, location.id]));
    // One deleted alone, one in a bulk delete; the third is removed by the undo.
    expect((await t.request({ method: 'DELETE', url: `/api/locations/${byName.W1}`, token: admin })).statusCode).toBe(
      200,
    );
    const bulk = await t.request({
      method: 'POST',
      url: '/api/locations/delete',
      token: admin,
      body: { ids: [byName.W2] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const conflicts = [
      { location_id: byName.W1, name: 'W1', reason: 'deleted since' },
      { location_id: byName.W2, name: 'W2', reason: 'deleted since' },
    ].sort((a, b) => a.location_id!.localeCompare(b.location_id!));
    const dry = await undo(operation_id, '?dryRun=true');
    expect(dry.json()).toMatchObject({ removed: 1, conflicts });
    const answer = await undo(operation_id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ removed: 1, conflicts });
    expect(await listOf(clientId)).toEqual([]);

    // Deleted all, their undo says so every time and writes nothing.
    const second = await importRows(clientId, [{ name: 'V1' }]);
    const [v1] = await listOf(clientId);
    await t.request({ method: 'DELETE', url: `/api/locations/${v1!.id}`, token: admin });
    const before = dataSnapshot(t.store.db);
    for (let i = 0; i < 2; i++) {
      const again = await undo(second.operation_id);
      expect(again.json()).toMatchObject({
        operation_id: null,
        removed: 0,
        conflicts: [{ location_id: v1!.id, name: 'V1', reason: 'deleted since' }],
      });
    }
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('of an import whose client was deleted since -> 409 saying so; a bulk edit of a location deleted since names it', async () => {
    const gone = await t.createClient(admin, 'Undo import client gone');
    const imported = await importRows(gone, [{ name: 'G1' }]);
    expect((await t.request({ method: 'DELETE', url: `/api/clients/${gone}`, token: admin })).statusCode).toBe(200);
    const refused = await undo(imported.operation_id);
    expectErrorBody(refused, 409);
    expect(refused.json<{ message: string }>().message).toMatch(/client of this import was deleted since/);

    const clientId = await t.createClient(admin, 'Undo edit of deleted');
    await importRows(clientId, [{ name: 'Edited then gone' }]);
    const [location] = await listOf(clientId);
    const edited = await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids: [location!.id], set: { status: 'temporarily_closed' } },
    });
    await t.request({ method: 'DELETE', url: `/api/locations/${location!.id}`, token: admin });
    const dry = await undo(edited.json<{ operation_id: string }>().operation_id, '?dryRun=true');
    expect(dry.json()).toMatchObject({
      conflicts: [{ location_id: location!.id, name: 'Edited then gone', reason: 'deleted since' }],
    });
  });

  it('as a Viewer -> 403; an unknown operation -> 404', async () => {
    const clientId = await t.createClient(admin, 'Undo refused');
    const { operation_id } = await importRows(clientId, [{ name: 'A' }]);
    expectErrorBody(await undo(operation_id, '', viewer), 403);
    expectErrorBody(await undo('00000000-0000-4000-8000-000000000000'), 404);
    expect((await listOf(clientId)).length).toBe(1);
  });
});
