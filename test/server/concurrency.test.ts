import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/open.js';
import { databaseFileIn } from '../../server/start.js';
import { buildTestApp, PASSWORD, type TestApp } from '../helpers/app.js';

/** What happens when requests meet each other, or meet another connection's write lock. */
describe('writes while another connection holds the write lock (the writer worker importing)', () => {
  let t: TestApp;
  let other: Db;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
    other = openDatabase(databaseFileIn(t.dataDir), t.key);
  });
  afterAll(async () => {
    other.close();
    await t.close();
  });

  it('POST /auth/callback waits without blocking other requests, then signs in once the lock is free', async () => {
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const login = t
      .request({ method: 'POST', url: '/auth/callback', body: { email: 'admin@example.com', password: PASSWORD } })
      .finally(() => (settled = true));
    // Reads go on meanwhile (WAL), and the sign-in is still waiting for the lock, not failed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const clients = await t.request({ method: 'GET', url: '/api/clients', token: admin });
    expect(clients.statusCode).toBe(200);
    expect(settled).toBe(false);
    other.exec('COMMIT');
    expect((await login).statusCode).toBe(200);
  });

  it('POST /api/clients and POST /auth/refresh during the lock -> both succeed after it', async () => {
    const tokens = (
      await t.request({
        method: 'POST',
        url: '/auth/callback',
        body: { email: 'admin@example.com', password: PASSWORD },
      })
    ).json<{ refresh_token: string }>();
    other.exec('BEGIN IMMEDIATE');
    const create = t.request({ method: 'POST', url: '/api/clients', token: admin, body: { name: 'During the lock' } });
    const refresh = t.request({ method: 'POST', url: '/auth/refresh', body: { refresh_token: tokens.refresh_token } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    other.exec('COMMIT');
    expect((await create).statusCode).toBe(201);
    expect((await refresh).statusCode).toBe(200);
  });
});

describe('sign-ins sent in parallel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('target@example.com', 'admin');
  });
  afterAll(() => t.close());

  it('10 right passwords at once -> 10 sessions (taking turns is not a lock-out)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request({ method: 'POST', url: '/auth/callback', body: { email: 'target@example.com', password: PASSWORD } }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.json<{ access_token: string }>().access_token)).size).toBe(10);
  });

  it('20 wrong passwords at once -> at most 6 are checked, the rest get 429 with Retry-After', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request({
          method: 'POST',
          url: '/auth/callback',
          body: { email: 'target@example.com', password: 'wrong guess' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(14);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
