import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertApiToken } from '../../server/tokens/queries.js';
import { TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { addOtherOrganizationAdmin, plaintextHits, rowCount } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

/** Issue 10, section 1: API tokens, over the real server and database. */
let t: TestApp;
let sessions: Record<'admin' | 'boss' | 'viewer' | 'cv', string>;
let ids: Record<'admin' | 'boss' | 'viewer' | 'cv', string>;
let ownClientId: string;
let otherClientId: string;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  const built = await buildSignedInApp(
    { admin: 'admin', boss: 'admin', viewer: 'viewer', cv: { role: 'client_viewer', clientName: 'Own Client' } },
    { clock: new TestClock() },
  );
  ({ t, ids } = built);
  sessions = built.tokens;
  ownClientId = built.clientIds['Own Client']!;
  otherClientId = await t.createClient(sessions.admin, 'Other Client');
});
afterAll(() => t.close());

interface Created {
  id: string;
  name: string;
  scopes: string[];
  client_id: string | null;
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  token: string;
}

async function createToken(session: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/tokens', token: session, body: { name: 'script', ...body } });
}

async function made(session: string, body: Record<string, unknown>): Promise<Created> {
  const response = await createToken(session, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Created>();
}

const getClients = (token: string) => t.request({ method: 'GET', url: '/api/clients', token });

describe('POST /api/tokens', () => {
  it('-> 201 with {id, name, scopes, client_id, created_at, expires_at, token}; the secret is adk_pat_ + 256 bits', async () => {
    const created = await made(sessions.admin, { name: '  nightly import ', scopes: ['import', 'read'] });
    expect(created).toMatchObject({ name: 'nightly import', scopes: ['read', 'import'], client_id: null });
    expect(created.expires_at).toBeNull();
    expect(created.token).toMatch(/^adk_pat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token.slice(8), 'base64url')).toHaveLength(32);
    expect((await getClients(created.token)).statusCode).toBe(200);
  });

  it('the secret is stored only as a hash: not in the database file, nor in any answer after', async () => {
    const created = await made(sessions.admin, { scopes: ['read'] });
    t.store.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(plaintextHits(t.dataDir, [created.token, created.token.slice(8)])).toEqual([]);
    const list = await t.request({ method: 'GET', url: '/api/tokens', token: sessions.admin });
    expect(list.body).not.toContain(created.token.slice(8));
    expect(list.json<Record<string, unknown>[]>().every((token) => !('token' in token))).toBe(true);
  });

  it('expiresInDays: 30 -> expires_at 30 days on; the next day it works, after 30 days it is 401', async () => {
    const created = await made(sessions.admin, { scopes: ['read'], expiresInDays: 30 });
    expect(Date.parse(created.expires_at!)).toBe(t.clock.now() + 30 * DAY_MS);
    const start = t.clock.current;
    try {
      t.clock.advance(DAY_MS);
      expect((await getClients(created.token)).statusCode).toBe(200);
      t.clock.advance(29 * DAY_MS);
      expectErrorBody(await getClients(created.token), 401);
    } finally {
      t.clock.current = start;
    }
  });

  it.each([
    ['a scope beyond a Viewer', 'viewer', { scopes: ['read', 'import'] }, 403],
    ['admin scope as Client Viewer', 'cv', { scopes: ['admin'] }, 403],
    ['another client as Client Viewer', 'cv', { scopes: ['read'], clientId: 'OTHER' }, 403],
    ['admin scope limited to a client', 'admin', { scopes: ['admin'], clientId: 'OWN' }, 400],
    ['a client of no organization', 'admin', { scopes: ['read'], clientId: randomUUID() }, 400],
    ['no scope', 'admin', { scopes: [] }, 400],
    ['an unknown scope', 'admin', { scopes: ['write'] }, 400],
    ['a repeated scope', 'admin', { scopes: ['read', 'read'] }, 400],
    ['a blank name', 'admin', { scopes: ['read'], name: '   ' }, 400],
    ['0 days', 'admin', { scopes: ['read'], expiresInDays: 0 }, 400],
    ['an unknown field', 'admin', { scopes: ['read'], owner: 'x' }, 400],
  ] as const)('%s -> %i, nothing stored', async (_case, who, body, status) => {
    const before = rowCount(t.store.db, 'api_tokens');
    const clientId =
      'clientId' in body
        ? body.clientId === 'OWN'
          ? ownClientId
          : body.clientId === 'OTHER'
            ? otherClientId
            : body.clientId
        : undefined;
    expectErrorBody(await createToken(sessions[who], { ...body, ...(clientId ? { clientId } : {}) }), status);
    expect(rowCount(t.store.db, 'api_tokens')).toBe(before);
  });

  it("a Client Viewer's token is limited to its client, asked or not", async () => {
    const created = await made(sessions.cv, { scopes: ['read'] });
    expect(created.client_id).toBe(ownClientId);
    const clients = (await getClients(created.token)).json<{ id: string }[]>();
    expect(clients.map((client) => client.id)).toEqual([ownClientId]);
  });

  it("an Admin's token limited to a client lists only that client and reads only its locations", async () => {
    const created = await made(sessions.admin, { scopes: ['read'], clientId: ownClientId });
    const response = await getClients(created.token);
    expect(response.json<{ id: string }[]>().map((client) => client.id)).toEqual([ownClientId]);
    expect(response.headers['x-total-count']).toBe('1');
    const other = await t.request({
      method: 'GET',
      url: `/api/locations?clientId=${otherClientId}`,
      token: created.token,
    });
    expectErrorBody(other, 403);
    // The token says what it may do itself (a script's walk found only its owner's role there).
    const me = await t.request({ method: 'GET', url: '/api/me', token: created.token });
    expect(me.json()).toMatchObject({
      role: 'admin',
      access: { credential: 'api_token', token_id: created.id, scopes: ['read'], client_id: ownClientId },
    });
    const session = await t.request({ method: 'GET', url: '/api/me', token: sessions.admin });
    expect(session.json()).toMatchObject({
      access: {
        credential: 'session',
        token_id: null,
        scopes: ['read', 'import', 'clients', 'admin'],
        client_id: null,
      },
    });
  });

  it("an import token limited to a client gets no dry run of another client's import or undo (403, nothing shown)", async () => {
    const upload = (token: string, query: string) =>
      t.request({
        method: 'POST',
        url: `/api/locations/upload?${query}`,
        token,
        body: { clientId: otherClientId, rows: [{ name: 'Probe', store_code: 'LEAK-1', address: '1 Hidden St' }] },
      });
    // The other client holds a location the probe's key names, made by an Admin's import (an operation to undo).
    const imported = await upload(sessions.admin, 'mode=create');
    expect(imported.statusCode).toBe(201);
    const operationId = imported.json<{ operation_id: string }>().operation_id;
    const limited = await made(sessions.admin, { scopes: ['read', 'import'], clientId: ownClientId });
    for (const query of ['mode=upsert&dryRun=true', 'mode=create&dryRun=true', 'mode=upsert']) {
      const refused = await upload(limited.token, query);
      expectErrorBody(refused, 403);
      expect(refused.body).not.toContain('Hidden');
    }
    const csv = await t.request({
      method: 'POST',
      url: `/api/locations/upload?clientId=${otherClientId}&mode=upsert&dryRun=true`,
      token: limited.token,
      headers: { 'content-type': 'text/csv' },
      body: 'Store code,Name\nLEAK-1,Probe\n',
    });
    expectErrorBody(csv, 403);
    for (const query of ['?dryRun=true', '']) {
      const undo = await t.request({
        method: 'POST',
        url: `/api/operations/${operationId}/undo${query}`,
        token: limited.token,
      });
      expectErrorBody(undo, 403);
      expect(undo.body).not.toContain('Probe');
    }
  });
});

describe('using and revoking', () => {
  it('DELETE /api/tokens/:id -> the very next request with it is 401', async () => {
    const created = await made(sessions.admin, { scopes: ['read'] });
    expect((await getClients(created.token)).statusCode).toBe(200);
    const revoke = await t.request({ method: 'DELETE', url: `/api/tokens/${created.id}`, token: sessions.admin });
    expect(revoke.json()).toEqual({ success: true });
    expectErrorBody(await getClients(created.token), 401);
    expectErrorBody(
      await t.request({ method: 'DELETE', url: `/api/tokens/${created.id}`, token: sessions.admin }),
      404,
    );
  });

  it('a 401 says only that the token is not valid: unknown, revoked and expired read the same', async () => {
    const revoked = await made(sessions.admin, { scopes: ['read'] });
    await t.request({ method: 'DELETE', url: `/api/tokens/${revoked.id}`, token: sessions.admin });
    const expired = await made(sessions.admin, { scopes: ['read'], expiresInDays: 1 });
    const start = t.clock.current;
    t.clock.advance(DAY_MS);
    try {
      const bodies = await Promise.all(
        [revoked.token, expired.token, `adk_pat_${'A'.repeat(43)}`].map(
          async (token) => (await getClients(token)).body,
        ),
      );
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0]!)).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'The API token is not valid',
      });
    } finally {
      t.clock.current = start;
    }
  });

  it('a Viewer cannot revoke another user’s token (404); an Admin can revoke any of the organization', async () => {
    const admins = await made(sessions.admin, { scopes: ['read'] });
    const viewers = await made(sessions.viewer, { scopes: ['read'] });
    expectErrorBody(
      await t.request({ method: 'DELETE', url: `/api/tokens/${admins.id}`, token: sessions.viewer }),
      404,
    );
    expect((await getClients(admins.token)).statusCode).toBe(200);
    const byAdmin = await t.request({ method: 'DELETE', url: `/api/tokens/${viewers.id}`, token: sessions.boss });
    expect(byAdmin.statusCode).toBe(200);
    expectErrorBody(await getClients(viewers.token), 401);
  });

  it('GET /api/tokens lists the caller’s own; ?all=true (Admin) every token of the organization, with its owner', async () => {
    const viewers = await made(sessions.viewer, { name: 'viewer script', scopes: ['read'] });
    const own = (await t.request({ method: 'GET', url: '/api/tokens', token: sessions.viewer })).json<Created[]>();
    expect(own.every((token) => token.user_id === ids.viewer)).toBe(true);
    expect(own.map((token) => token.id)).toContain(viewers.id);
    const all = (await t.request({ method: 'GET', url: '/api/tokens?all=true', token: sessions.boss })).json<
      Created[]
    >();
    expect(all.find((token) => token.id === viewers.id)).toMatchObject({ user_email: 'viewer@example.com' });
    expect(new Set(all.map((token) => token.user_id)).size).toBeGreaterThan(1);
  });

  it('last_used_at: set at the first use, not moved within the minute, moved after it', async () => {
    const created = await made(sessions.admin, { scopes: ['read'] });
    const lastUsed = async () =>
      (await t.request({ method: 'GET', url: '/api/tokens', token: sessions.admin }))
        .json<Created[]>()
        .find((token) => token.id === created.id)!.last_used_at;
    expect(await lastUsed()).toBeNull();
    const start = t.clock.current;
    try {
      await getClients(created.token);
      expect(await lastUsed()).toBe(new Date(start).toISOString());
      t.clock.advance(30_000);
      await getClients(created.token);
      expect(await lastUsed()).toBe(new Date(start).toISOString());
      t.clock.advance(31_000);
      await getClients(created.token);
      expect(await lastUsed()).toBe(new Date(start + 61_000).toISOString());
      // Written to the database after the request, not during it.
      await new Promise((resolve) => setImmediate(resolve));
      const stored = t.store.db.prepare('SELECT last_used_at FROM api_tokens WHERE id = ?').pluck().get(created.id);
      expect(stored).toBe(start + 61_000);
    } finally {
      t.clock.current = start;
    }
  });

  it('POST /auth/logout with a token revokes that token', async () => {
    const created = await made(sessions.admin, { scopes: ['read'] });
    expect((await t.request({ method: 'POST', url: '/auth/logout', token: created.token })).statusCode).toBe(200);
    expectErrorBody(await getClients(created.token), 401);
  });
});

describe("the owner's changes reach its tokens at once", () => {
  async function ownerWithToken(scopes: string[]) {
    const email = `owner-${randomUUID()}@example.com`;
    const id = await t.addUser(email, 'admin');
    const session = await t.login(email);
    return { id, token: (await made(session, { scopes })).token };
  }

  it('demoted to Viewer: its read-import-clients token can still read, no longer create a client (403)', async () => {
    const owner = await ownerWithToken(['read', 'import', 'clients']);
    expect(
      (await t.request({ method: 'POST', url: '/api/clients', token: owner.token, body: { name: 'Before' } }))
        .statusCode,
    ).toBe(201);
    await t.request({ method: 'PATCH', url: `/api/users/${owner.id}`, token: sessions.boss, body: { role: 'viewer' } });
    expect((await getClients(owner.token)).statusCode).toBe(200);
    expectErrorBody(
      await t.request({ method: 'POST', url: '/api/clients', token: owner.token, body: { name: 'After' } }),
      403,
    );
  });

  it('removed: its tokens are gone (401) and deleted from the database', async () => {
    const owner = await ownerWithToken(['read']);
    await t.request({ method: 'DELETE', url: `/api/users/${owner.id}`, token: sessions.boss });
    expectErrorBody(await getClients(owner.token), 401);
    expect(t.store.db.prepare('SELECT count(*) FROM api_tokens WHERE user_id = ?').pluck().get(owner.id)).toBe(0);
  });

  it('its password changed: its tokens are revoked (401)', async () => {
    const owner = await ownerWithToken(['read']);
    await t.request({
      method: 'PATCH',
      url: `/api/users/${owner.id}`,
      token: sessions.boss,
      body: { password: 'a new long password' },
    });
    expectErrorBody(await getClients(owner.token), 401);
  });

  it('a Client Viewer moved to another client: its tokens are revoked (401)', async () => {
    const email = `moved-${randomUUID()}@example.com`;
    const id = await t.addUser(email, 'client_viewer', ownClientId);
    const token = (await made(await t.login(email), { scopes: ['read'] })).token;
    await t.request({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: sessions.boss,
      body: { clientId: otherClientId },
    });
    expectErrorBody(await getClients(token), 401);
  });

  it('the client a token is limited to is deleted: the token goes with it', async () => {
    const doomed = await t.createClient(sessions.admin, 'Doomed');
    const created = await made(sessions.admin, { scopes: ['read'], clientId: doomed });
    await t.request({ method: 'DELETE', url: `/api/clients/${doomed}`, token: sessions.admin });
    expectErrorBody(await getClients(created.token), 401);
  });

  it('a token with the clients scope limited to its client may delete that client', async () => {
    const mine = await t.createClient(sessions.admin, 'Mine');
    const created = await made(sessions.admin, { scopes: ['clients'], clientId: mine });
    expect((await t.request({ method: 'DELETE', url: `/api/clients/${mine}`, token: created.token })).statusCode).toBe(
      200,
    );
  });
});

describe('another organization', () => {
  let outsider: { id: string; secret: string; clientId: string };
  beforeAll(async () => {
    const { userId, ...other } = addOtherOrganizationAdmin(t.store.db, t.clock.now());
    const token = insertApiToken(
      t.store.db,
      { userId, name: 'outsider', scopes: ['read', 'import', 'clients', 'admin'], clientId: null, expiresAt: null },
      t.clock.now(),
    );
    outsider = { ...token, clientId: other.clientId };
  });

  it("its tokens are not listed, nor revocable (404), by this organization's Admin", async () => {
    const all = (await t.request({ method: 'GET', url: '/api/tokens?all=true', token: sessions.boss })).json<
      Created[]
    >();
    expect(all.map((token) => token.id)).not.toContain(outsider.id);
    expectErrorBody(
      await t.request({ method: 'DELETE', url: `/api/tokens/${outsider.id}`, token: sessions.boss }),
      404,
    );
  });

  it("its token sees only its own organization's clients and users", async () => {
    const clients = (await getClients(outsider.secret)).json<{ id: string }[]>();
    expect(clients.map((client) => client.id)).toEqual([outsider.clientId]);
    expectErrorBody(
      await t.request({ method: 'GET', url: `/api/locations?clientId=${ownClientId}`, token: outsider.secret }),
      404,
    );
    expectErrorBody(
      await t.request({ method: 'DELETE', url: `/api/clients/${ownClientId}`, token: outsider.secret }),
      404,
    );
    const users = (await t.request({ method: 'GET', url: '/api/users', token: outsider.secret })).json<
      { id: string }[]
    >();
    expect(users.map((user) => user.id)).not.toContain(ids.admin);
  });

  it("a token of this organization cannot be limited to the other organization's client (400)", async () => {
    expectErrorBody(await createToken(sessions.admin, { scopes: ['read'], clientId: outsider.clientId }), 400);
  });
});
