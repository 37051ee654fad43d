import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS } from '../../server/auth/tokens.js';
import { buildTestApp, PASSWORD, TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot } from '../helpers/data.js';
import { HalfSentRequests } from '../helpers/half-sent.js';

/**
 * Issue 13, finding 1: the headers of a write pass the guards, the caller loses the right, the body
 * arrives; the write must be refused with nothing written.
 */
let t: TestApp;
let boss: string;
let wire: HalfSentRequests;
let clock: TestClock;

beforeAll(async () => {
  clock = new TestClock();
  t = await buildTestApp({ clock });
  // Before the first request readies the app: the helper adds a hook.
  wire = new HalfSentRequests(t.app);
  await t.addUser('boss@example.com', 'admin');
  boss = await t.login('boss@example.com');
  await wire.listen();
});
afterAll(() => t.close());
// The expiry case moves the clock; every case starts from the same moment.
const START = new TestClock().current;
afterEach(() => {
  clock.current = START;
});

/** A second Admin, signed in: the caller who will lose its right. */
async function doomedAdmin(): Promise<{ id: string; token: string }> {
  const email = `doomed-${randomUUID()}@example.com`;
  const id = await t.addUser(email, 'admin');
  return { id, token: await t.login(email) };
}

type LoseRight = (caller: { id: string; token: string }) => Promise<unknown> | void;

const LOSSES: [string, number, LoseRight][] = [
  ['removed by another Admin', 401, ({ id }) => t.request({ method: 'DELETE', url: `/api/users/${id}`, token: boss })],
  [
    'demoted to Viewer by another Admin (its sessions end)',
    401,
    ({ id }) => t.request({ method: 'PATCH', url: `/api/users/${id}`, token: boss, body: { role: 'viewer' } }),
  ],
  ['signed out', 401, ({ token }) => t.request({ method: 'POST', url: '/auth/logout', token })],
  [
    'demoted by another process that left the session alive',
    403,
    ({ id }) => void t.store.db.prepare(`UPDATE users SET role = 'viewer' WHERE id = ?`).run(id),
  ],
  ['past the expiry of its access token', 401, () => clock.advance(ACCESS_TOKEN_SECONDS * 1000 + 1)],
];

interface Write {
  name: string;
  request(caller: { id: string; token: string }): { method: string; path: string; body: unknown };
}

const WRITES: Write[] = [
  {
    name: 'POST /api/users {role: admin}',
    request: () => ({
      method: 'POST',
      path: '/api/users',
      body: { email: `planted-${randomUUID()}@example.com`, password: 'a planted password', role: 'admin' },
    }),
  },
  {
    name: 'PATCH /api/users/<the other Admin> {password}',
    request: () => ({
      method: 'PATCH',
      path: `/api/users/${t.store.db.prepare(`SELECT id FROM users WHERE email = 'boss@example.com'`).pluck().get()}`,
      body: { password: 'the locked-out password' },
    }),
  },
  {
    name: 'DELETE /api/users/<a viewer> (with a JSON body)',
    request: () => ({
      method: 'DELETE',
      path: `/api/users/${t.store.db.prepare(`SELECT id FROM users WHERE email = 'bystander@example.com'`).pluck().get()}`,
      body: {},
    }),
  },
  { name: 'POST /api/clients', request: () => ({ method: 'POST', path: '/api/clients', body: { name: 'Planted' } }) },
];

describe('authorization at the moment of the write', () => {
  beforeAll(async () => {
    await t.addUser('bystander@example.com', 'viewer');
  });

  const CASES = WRITES.flatMap((write) =>
    LOSSES.map(
      ([loss, status, lose]) => [`${write.name}, caller ${loss} meanwhile -> ${status}`, write, status, lose] as const,
    ),
  );

  it.each(CASES)('%s, nothing written', async (_name, write, status, lose) => {
    const caller = await doomedAdmin();
    const pending = await wire.start({ ...write.request(caller), token: caller.token });
    await lose(caller);
    const before = dataSnapshot(t.store.db);
    const response = await pending.finish();
    expectErrorBody(response, status);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('the other Admin can still sign in with its own password afterwards', async () => {
    await expect(t.login('boss@example.com', PASSWORD)).resolves.toEqual(expect.any(String));
  });

  it('a caller that keeps its right: the same half-sent write -> 201', async () => {
    const caller = await doomedAdmin();
    const pending = await wire.start({
      method: 'POST',
      path: '/api/clients',
      token: caller.token,
      body: { name: 'Fine' },
    });
    const response = await pending.finish();
    expect(response.statusCode, response.body).toBe(201);
  });

  it('a refused write answers as the API always does', async () => {
    const caller = await doomedAdmin();
    const pending = await wire.start({
      method: 'POST',
      path: '/api/clients',
      token: caller.token,
      body: { name: 'x' },
    });
    await t.request({ method: 'POST', url: '/auth/logout', token: caller.token });
    const body = expectErrorBody(await pending.finish(), 401);
    expect(body.message).toMatch(/nothing was changed/);
  });
});

describe('authorization at the moment of the write, with an API token', () => {
  async function tokenOfDoomedAdmin(scopes: string[]): Promise<{ id: string; tokenId: string; token: string }> {
    const caller = await doomedAdmin();
    const response = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: caller.token,
      body: { name: 'doomed script', scopes },
    });
    const created = response.json<{ id: string; token: string }>();
    return { id: caller.id, tokenId: created.id, token: created.token };
  }

  const TOKEN_LOSSES: [string, number, (caller: { id: string; tokenId: string }) => Promise<unknown> | void][] = [
    [
      'revoked by an Admin',
      401,
      ({ tokenId }) => t.request({ method: 'DELETE', url: `/api/tokens/${tokenId}`, token: boss }),
    ],
    ['its owner removed', 401, ({ id }) => t.request({ method: 'DELETE', url: `/api/users/${id}`, token: boss })],
    [
      'its owner demoted to Viewer',
      403,
      ({ id }) => t.request({ method: 'PATCH', url: `/api/users/${id}`, token: boss, body: { role: 'viewer' } }),
    ],
  ];

  it.each(TOKEN_LOSSES)('POST /api/clients, token %s meanwhile -> %i, nothing written', async (_loss, status, lose) => {
    const caller = await tokenOfDoomedAdmin(['clients']);
    const pending = await wire.start({
      method: 'POST',
      path: '/api/clients',
      token: caller.token,
      body: { name: 'Planted' },
    });
    await lose(caller);
    const before = dataSnapshot(t.store.db);
    expectErrorBody(await pending.finish(), status);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('POST /api/users, token of an Admin revoked meanwhile -> 401, no user planted', async () => {
    const caller = await tokenOfDoomedAdmin(['admin']);
    const pending = await wire.start({
      method: 'POST',
      path: '/api/users',
      token: caller.token,
      body: { email: 'planted-by-token@example.com', password: 'a planted password', role: 'admin' },
    });
    await t.request({ method: 'DELETE', url: `/api/tokens/${caller.tokenId}`, token: boss });
    expectErrorBody(await pending.finish(), 401);
    expect(
      t.store.db.prepare(`SELECT count(*) FROM users WHERE email = 'planted-by-token@example.com'`).pluck().get(),
    ).toBe(0);
  });
});
