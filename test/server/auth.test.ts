import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_RULE } from '../../server/auth/throttle.js';
import { buildTestApp, PASSWORD, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  expires_at: string;
  refresh_token: string;
  user: { id: string; email: string; role: string; organization_id: string; client_id: string | null };
}

const HOUR = 60 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43,}$/;

function signIn(t: TestApp, email: string, password = PASSWORD) {
  return t.request({ method: 'POST', url: '/auth/callback', body: { email, password } });
}

async function session(t: TestApp, email: string): Promise<TokenBody> {
  const response = await signIn(t, email);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TokenBody>();
}

function me(t: TestApp, token: string) {
  return t.request({ method: 'GET', url: '/api/me', token });
}

function refresh(t: TestApp, refreshToken: string) {
  return t.request({ method: 'POST', url: '/auth/refresh', body: { refresh_token: refreshToken } });
}

describe('sessions', () => {
  let t: TestApp;
  let adminId: string;
  let admin: TokenBody;

  beforeAll(async () => {
    t = await buildTestApp();
    adminId = await t.addUser('admin@example.com', 'admin');
    admin = await session(t, 'admin@example.com');
  });
  afterAll(() => t.close());

  describe('POST /auth/callback', () => {
    it('success -> 200 with access_token, token_type bearer, expires_in 3600, expires_at, refresh_token and user', async () => {
      const response = await signIn(t, 'admin@example.com');
      expect(response.statusCode).toBe(200);
      const body = response.json<TokenBody>();
      expect(Object.keys(body).sort()).toEqual([
        'access_token',
        'expires_at',
        'expires_in',
        'refresh_token',
        'token_type',
        'user',
      ]);
      expect(body.token_type).toBe('bearer');
      expect(body.expires_in).toBe(3600);
      expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      expect(Date.parse(body.expires_at)).toBe(t.clock.now() + HOUR);
      expect(body.user).toEqual({
        id: adminId,
        email: 'admin@example.com',
        role: 'admin',
        organization_id: t.organizationId,
        client_id: null,
      });
    });

    it('answers with Cache-Control: no-store', async () => {
      const response = await signIn(t, 'admin@example.com');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('tokens carry at least 256 bits (43+ base64url characters) and differ', () => {
      expect(admin.access_token).toMatch(TOKEN);
      expect(admin.refresh_token).toMatch(TOKEN);
      expect(admin.access_token).not.toBe(admin.refresh_token);
    });

    it('only hashes of the tokens are stored: the raw token is nowhere in the sessions table', () => {
      const rows = t.store.db.prepare('SELECT * FROM sessions').all() as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(0);
      const dump = JSON.stringify(
        rows.map((row) => Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v))),
      );
      for (const token of [admin.access_token, admin.refresh_token]) {
        expect(dump).not.toContain(token);
        const stored = t.store.db
          .prepare('SELECT count(*) FROM sessions WHERE access_hash = ? OR refresh_hash = ?')
          .pluck()
          .get(createHash('sha256').update(token).digest(), createHash('sha256').update(token).digest());
        expect(stored).toBe(1);
      }
    });

    it.each([
      ['an empty object', {}],
      ['no password', { email: 'admin@example.com' }],
      ['no email', { password: PASSWORD }],
      ['a numeric email', { email: 42, password: PASSWORD }],
      ['a null password', { email: 'admin@example.com', password: null }],
      ['an array password', { email: 'admin@example.com', password: [PASSWORD] }],
      ['an unknown field', { email: 'admin@example.com', password: PASSWORD, remember: true }],
      ['an array body', [{ email: 'admin@example.com', password: PASSWORD }]],
    ])('%s -> 400', async (_name, body) => {
      const response = await t.request({ method: 'POST', url: '/auth/callback', body });
      expectErrorBody(response, 400);
    });

    it('no body at all -> 400', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/auth/callback',
        headers: { 'content-type': 'application/json' },
      });
      expectErrorBody(response, 400);
    });

    it('unknown e-mail and wrong password -> 401 with the identical body', async () => {
      const unknown = await signIn(t, 'nobody@example.com');
      const wrong = await signIn(t, 'admin@example.com', 'not the password');
      expectErrorBody(unknown, 401);
      expectErrorBody(wrong, 401);
      expect(unknown.body).toBe(wrong.body);
    });

    it('the e-mail is case-insensitive (and surrounding space is ignored)', async () => {
      const upper = await signIn(t, 'ADMIN@Example.COM');
      expect(upper.statusCode).toBe(200);
      expect(upper.json<TokenBody>().user.id).toBe(adminId);
      expect((await signIn(t, '  admin@example.com ')).statusCode).toBe(200);
    });

    it('the password is case-sensitive', async () => {
      expectErrorBody(await signIn(t, 'admin@example.com', PASSWORD.toUpperCase()), 401);
    });
  });

  describe('GET /api/me', () => {
    it('returns the signed-in user with the organization', async () => {
      const response = await me(t, admin.access_token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: adminId,
        email: 'admin@example.com',
        role: 'admin',
        organization_id: t.organizationId,
        client_id: null,
        organization: { id: t.organizationId, name: 'Test Agency' },
        access: {
          credential: 'session',
          token_id: null,
          scopes: ['read', 'import', 'clients', 'admin'],
          client_id: null,
        },
      });
    });

    it.each([
      ['no Authorization header', undefined],
      ['an unknown token', { authorization: `Bearer ${'x'.repeat(43)}` }],
      ['a Basic scheme', { authorization: 'Basic YWRtaW46cGFzc3dvcmQ=' }],
      ['a refresh token used as access token', 'refresh'],
      ['an empty Bearer', { authorization: 'Bearer ' }],
    ] as const)('%s -> 401', async (_name, headers) => {
      const response = await t.request({
        method: 'GET',
        url: '/api/me',
        headers: headers === 'refresh' ? { authorization: `Bearer ${admin.refresh_token}` } : headers,
      });
      expectErrorBody(response, 401);
    });
  });

  describe('access token expiry (1 hour)', () => {
    it('valid at 59:59, 401 at 60:00', async () => {
      const fresh = await session(t, 'admin@example.com');
      const start = t.clock.now();
      try {
        t.clock.current = start + HOUR - 1000;
        expect((await me(t, fresh.access_token)).statusCode).toBe(200);
        t.clock.current = start + HOUR;
        expectErrorBody(await me(t, fresh.access_token), 401);
        // The refresh token still gets a new pair after the access token expired.
        const renewed = await refresh(t, fresh.refresh_token);
        expect(renewed.statusCode).toBe(200);
        expect((await me(t, renewed.json<TokenBody>().access_token)).statusCode).toBe(200);
      } finally {
        t.clock.current = start;
      }
    });
  });

  describe('POST /auth/refresh', () => {
    it('rotation: the new pair works, the old access token and the old refresh token stop working', async () => {
      const first = await session(t, 'admin@example.com');
      const response = await refresh(t, first.refresh_token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const second = response.json<TokenBody>();
      expect(second.token_type).toBe('bearer');
      expect(second.access_token).toMatch(TOKEN);
      expect(second.refresh_token).toMatch(TOKEN);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.user.id).toBe(adminId);
      expect((await me(t, second.access_token)).statusCode).toBe(200);
      expectErrorBody(await me(t, first.access_token), 401);
      expectErrorBody(await refresh(t, first.refresh_token), 401);
    });

    it('reuse of a rotated refresh token revokes the whole session, newest access and refresh tokens included', async () => {
      const first = await session(t, 'admin@example.com');
      const second = (await refresh(t, first.refresh_token)).json<TokenBody>();
      const third = (await refresh(t, second.refresh_token)).json<TokenBody>();
      expect((await me(t, third.access_token)).statusCode).toBe(200);

      expectErrorBody(await refresh(t, first.refresh_token), 401);

      expectErrorBody(await me(t, third.access_token), 401);
      expectErrorBody(await refresh(t, third.refresh_token), 401);
    });

    it('reuse revokes only that session: another session of the same user keeps working', async () => {
      const other = await session(t, 'admin@example.com');
      const first = await session(t, 'admin@example.com');
      await refresh(t, first.refresh_token);
      await refresh(t, first.refresh_token);
      expect((await me(t, other.access_token)).statusCode).toBe(200);
    });

    it('a refresh token unused for 30 days -> 401; used the day before, it works', async () => {
      const kept = await session(t, 'admin@example.com');
      const lapsed = await session(t, 'admin@example.com');
      const start = t.clock.now();
      try {
        t.clock.current = start + 30 * 24 * HOUR - 1000;
        expect((await refresh(t, kept.refresh_token)).statusCode).toBe(200);
        t.clock.current = start + 30 * 24 * HOUR;
        expectErrorBody(await refresh(t, lapsed.refresh_token), 401);
      } finally {
        t.clock.current = start;
      }
    });

    it('an unknown refresh token -> 401', async () => {
      expectErrorBody(await refresh(t, 'y'.repeat(43)), 401);
    });

    it.each([
      ['no refresh_token', {}],
      ['a numeric refresh_token', { refresh_token: 5 }],
      ['an unknown field', { refresh_token: 'y'.repeat(43), extra: 1 }],
    ])('%s -> 400', async (_name, body) => {
      expectErrorBody(await t.request({ method: 'POST', url: '/auth/refresh', body }), 400);
    });
  });

  describe('POST /auth/logout', () => {
    it('ends the session: its access token and refresh token -> 401 afterwards; other sessions stay', async () => {
      const other = await session(t, 'admin@example.com');
      const ending = await session(t, 'admin@example.com');
      const response = await t.request({ method: 'POST', url: '/auth/logout', token: ending.access_token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true });
      expectErrorBody(await me(t, ending.access_token), 401);
      expectErrorBody(await refresh(t, ending.refresh_token), 401);
      expect((await me(t, other.access_token)).statusCode).toBe(200);
    });

    it('without a token -> 401', async () => {
      expectErrorBody(await t.request({ method: 'POST', url: '/auth/logout' }), 401);
    });
  });

  describe('revocation', () => {
    async function userWithSession(email: string): Promise<{ id: string; tokens: TokenBody }> {
      const id = await t.addUser(email, 'viewer');
      return { id, tokens: await session(t, email) };
    }

    function patchUser(id: string, body: unknown) {
      return t.request({ method: 'PATCH', url: `/api/users/${id}`, token: admin.access_token, body });
    }

    it('PATCH /api/users/:id with a new password revokes the access and refresh tokens of that user', async () => {
      const { id, tokens } = await userWithSession('pw-change@example.com');
      expect((await patchUser(id, { password: 'a brand new password' })).statusCode).toBe(200);
      expectErrorBody(await me(t, tokens.access_token), 401);
      expectErrorBody(await refresh(t, tokens.refresh_token), 401);
      expect((await signIn(t, 'pw-change@example.com', 'a brand new password')).statusCode).toBe(200);
      expectErrorBody(await signIn(t, 'pw-change@example.com'), 401);
    });

    it('PATCH /api/users/:id with a new role revokes the tokens of that user', async () => {
      const { id, tokens } = await userWithSession('role-change@example.com');
      const response = await patchUser(id, { role: 'admin' });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ role: string }>().role).toBe('admin');
      expectErrorBody(await me(t, tokens.access_token), 401);
      expectErrorBody(await refresh(t, tokens.refresh_token), 401);
    });

    it('DELETE /api/users/:id revokes the tokens of that user', async () => {
      const { id, tokens } = await userWithSession('removed@example.com');
      const response = await t.request({ method: 'DELETE', url: `/api/users/${id}`, token: admin.access_token });
      expect(response.statusCode).toBe(200);
      expectErrorBody(await me(t, tokens.access_token), 401);
      expectErrorBody(await refresh(t, tokens.refresh_token), 401);
      expectErrorBody(await signIn(t, 'removed@example.com'), 401);
    });

    it("changing one user's password leaves the other users' sessions alone", async () => {
      const { id } = await userWithSession('pw-change-2@example.com');
      expect((await patchUser(id, { password: 'another new password' })).statusCode).toBe(200);
      expect((await me(t, admin.access_token)).statusCode).toBe(200);
    });
  });
});

describe('login throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('target@example.com', 'admin');
    await t.addUser('bystander@example.com', 'viewer');
  });
  afterAll(() => t.close());

  async function failTimes(email: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      expectErrorBody(await signIn(t, email, 'wrong password'), 401);
    }
  }

  function retryAfter(response: { headers: Record<string, unknown> }): number {
    return Number(response.headers['retry-after']);
  }

  it('repeated failures -> 429 with Retry-After, backing off; the clock passing the wait lets a try through; a success resets', async () => {
    // Five free failures, then a sixth that starts the wait.
    await failTimes('target@example.com', 6);
    const blocked = await signIn(t, 'target@example.com');
    const first = expectErrorBody(blocked, 429);
    expect(first.message).toMatch(/try again/i);
    const firstWait = retryAfter(blocked);
    expect(firstWait).toBeGreaterThanOrEqual(1);

    // Even the right password is refused while blocked.
    expectErrorBody(await signIn(t, 'target@example.com'), 429);
    // Case and space do not dodge the account rule.
    expectErrorBody(await signIn(t, ' TARGET@example.com'), 429);

    t.clock.advance(firstWait * 1000);
    await failTimes('target@example.com', 1);
    const again = await signIn(t, 'target@example.com');
    expectErrorBody(again, 429);
    const secondWait = retryAfter(again);
    expect(secondWait).toBeGreaterThan(firstWait);

    t.clock.advance(secondWait * 1000 - 1);
    expectErrorBody(await signIn(t, 'target@example.com'), 429);
    t.clock.advance(1);
    expect((await signIn(t, 'target@example.com')).statusCode).toBe(200);

    // The success forgot the failures: five more failures are free again.
    await failTimes('target@example.com', 5);
    expect((await signIn(t, 'target@example.com')).statusCode).toBe(200);
  });

  it("a different account is not blocked by another account's failures", async () => {
    await failTimes('target@example.com', 6);
    expectErrorBody(await signIn(t, 'target@example.com'), 429);
    expect((await signIn(t, 'bystander@example.com')).statusCode).toBe(200);
  });

  it('the address rule: after many failures over many accounts, every account from that address waits', async () => {
    // Well past the account rule's lock-ups: forget everything first.
    t.clock.advance(60 * 60 * 1000);
    let addressBlocked = false;
    for (let account = 0; account < 15 && !addressBlocked; account++) {
      for (let i = 0; i < 5; i++) {
        const response = await signIn(t, `guess-${account}@example.com`, 'wrong password');
        if (response.statusCode === 429) {
          addressBlocked = true;
          break;
        }
        expectErrorBody(response, 401);
      }
    }
    expect(addressBlocked).toBe(true);
    const refused = await signIn(t, 'bystander@example.com');
    expectErrorBody(refused, 429);
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
  });

  it('the address rule holds for guesses sent all at once over many accounts: no more are checked than one by one', async () => {
    t.clock.advance(60 * 60 * 1000);
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, account) => signIn(t, `wide-${account}@example.com`, 'wrong password')),
    );
    const statuses = responses.map((response) => response.statusCode);
    // One by one: the free failures, then one more try, which fails and starts the wait.
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_RULE.free + 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(80 - ADDRESS_RULE.free - 1);
    for (const response of responses) expectErrorBody(response, response.statusCode);
  });
});

describe('first-run setup', () => {
  let t: TestApp;
  beforeAll(async () => {
    // buildTestApp adds an organization but no user: the database is as on first run.
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const SETUP = { organization_name: 'Fresh Agency', email: 'Founder@Example.com', password: 'founder password' };

  it('GET /auth/setup without users -> {needed: true}, no token needed', async () => {
    const response = await t.request({ method: 'GET', url: '/auth/setup' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ needed: true });
  });

  it.each([
    ['a blank organization name', { ...SETUP, organization_name: '   ' }],
    ['a short password', { ...SETUP, password: 'short' }],
    ['a malformed e-mail', { ...SETUP, email: 'not-an-email' }],
    ['a missing organization name', { email: SETUP.email, password: SETUP.password }],
    ['an unknown field', { ...SETUP, role: 'viewer' }],
  ])('POST /auth/setup with %s -> 400 and no user created', async (_name, body) => {
    expectErrorBody(await t.request({ method: 'POST', url: '/auth/setup', body }), 400);
    expect(t.store.db.prepare('SELECT count(*) FROM users').pluck().get()).toBe(0);
  });

  it('POST /auth/setup -> 201 with a session of the new Admin, and the token works', async () => {
    const response = await t.request({ method: 'POST', url: '/auth/setup', body: SETUP });
    expect(response.statusCode).toBe(201);
    const body = response.json<TokenBody>();
    expect(body.token_type).toBe('bearer');
    expect(body.user).toMatchObject({ email: 'founder@example.com', role: 'admin', client_id: null });
    const who = await me(t, body.access_token);
    expect(who.statusCode).toBe(200);
    expect(who.json<{ organization: { name: string } }>().organization.name).toBe('Fresh Agency');
  });

  it('GET /auth/setup once a user exists -> {needed: false}', async () => {
    expect((await t.request({ method: 'GET', url: '/auth/setup' })).json()).toEqual({ needed: false });
  });

  it('POST /auth/setup once a user exists -> 409 and nothing created', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/setup',
      body: { ...SETUP, email: 'intruder@example.com' },
    });
    expectErrorBody(response, 409);
    expect(t.store.db.prepare('SELECT email FROM users').pluck().all()).toEqual(['founder@example.com']);
  });
});
