import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING, MAX_PER_MINUTE } from '../../server/device/requests.js';
import { DEVICE_GRANT_TYPE } from '../../server/device/schemas.js';
import { TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/** Issue 10, section 2: the OAuth 2.0 device authorization grant (RFC 8628), every answer. */
type Name = 'admin' | 'boss' | 'viewer' | 'cv';
let t: TestApp;
let sessions: Record<Name, string>;
let ids: Record<Name, string>;
let ownClientId: string;
const clock = new TestClock();
const START = clock.current;
afterEach(() => {
  clock.current = START;
});

beforeAll(async () => {
  const built = await buildSignedInApp(
    { admin: 'admin', boss: 'admin', viewer: 'viewer', cv: { role: 'client_viewer', clientName: 'Own Client' } },
    { clock },
  );
  ({ t, ids } = built);
  sessions = built.tokens;
  ownClientId = built.clientIds['Own Client']!;
});
afterAll(() => t.close());

interface Authorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

async function ask(body: Record<string, unknown> = {}): Promise<Authorization> {
  const response = await t.request({
    method: 'POST',
    url: '/auth/device',
    body: { client_name: 'inventory sync', scope: 'read import', ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Authorization>();
}

function poll(deviceCode: string, grantType = DEVICE_GRANT_TYPE) {
  return t.request({ method: 'POST', url: '/auth/token', body: { grant_type: grantType, device_code: deviceCode } });
}

/** RFC 6749 §5.2: exactly {error, error_description}, 400, never cached. */
async function expectOAuthError(response: Awaited<ReturnType<typeof poll>>, error: string): Promise<void> {
  expect(response.statusCode, response.body).toBe(400);
  expect(Object.keys(response.json<object>()).sort()).toEqual(['error', 'error_description']);
  expect(response.json<{ error: string }>().error).toBe(error);
  expect(response.headers['cache-control']).toBe('no-store');
}

function decide(decision: 'approve' | 'deny', userCode: string, session: string) {
  return t.request({ method: 'POST', url: `/api/device/${decision}`, token: session, body: { user_code: userCode } });
}

async function pendingFor(session: string, query = ''): Promise<{ user_code: string; description: string }[]> {
  const response = await t.request({ method: 'GET', url: `/api/device${query}`, token: session });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('POST /auth/device', () => {
  it('-> 200 {device_code, user_code WDJB-MJHT-like, verification_uri(_complete), expires_in 600, interval 5}', async () => {
    const asked = await ask();
    expect(asked.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(asked.device_code.length).toBeGreaterThanOrEqual(43);
    expect(asked.verification_uri).toBe('http://127.0.0.1:4870/device');
    expect(asked.verification_uri_complete).toBe(`http://127.0.0.1:4870/device?user_code=${asked.user_code}`);
    expect(asked).toMatchObject({ expires_in: 600, interval: 5 });
  });

  it('takes an OAuth form body too', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/device',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_name=form+script&scope=read',
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each([
    ['an unknown scope', { scope: 'read write' }],
    ['no scope', { scope: '  ' }],
    ['a blank client_name', { client_name: ' ' }],
    ['a clientId that is no UUID', { clientId: 'acme' }],
    ['an unknown field', { redirect_uri: 'http://evil.example' }],
    [
      'the admin scope limited to one client',
      { scope: 'read admin', clientId: '6f1c3a52-8d2e-4b7a-9c1d-2e3f4a5b6c7d' },
    ],
  ])('%s -> 400', async (_case, body) => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/device',
      body: { client_name: 'x', scope: 'read', ...body },
    });
    expectErrorBody(response, 400);
  });
});

describe('POST /auth/token: every answer of RFC 8628 §3.5', () => {
  it('authorization_pending; slow_down within the interval, which grows by 5 s each time; pending again after it', async () => {
    const asked = await ask();
    await expectOAuthError(await poll(asked.device_code), 'authorization_pending');
    clock.advance(2_000);
    await expectOAuthError(await poll(asked.device_code), 'slow_down');
    // The interval is now 10 s (RFC 8628 §3.5: +5 s for this and every later poll); too soon again: 15 s.
    clock.advance(6_000);
    await expectOAuthError(await poll(asked.device_code), 'slow_down');
    clock.advance(14_000);
    await expectOAuthError(await poll(asked.device_code), 'slow_down');
    clock.advance(20_000);
    await expectOAuthError(await poll(asked.device_code), 'authorization_pending');
  });

  it('approved -> 200 {access_token: adk_pat_…, token_type: bearer, scope}, a working token of the approver named after the script; once only, then invalid_grant', async () => {
    const asked = await ask({ client_name: 'nightly import' });
    expect((await decide('approve', asked.user_code, sessions.admin)).json()).toEqual({ success: true });
    const response = await poll(asked.device_code);
    expect(response.statusCode, response.body).toBe(200);
    const granted = response.json<{ access_token: string; token_type: string; scope: string }>();
    expect(granted).toEqual({
      access_token: expect.stringMatching(/^adk_pat_/),
      token_type: 'bearer',
      scope: 'read import',
      client_id: null,
    });
    expect((await t.request({ method: 'GET', url: '/api/clients', token: granted.access_token })).statusCode).toBe(200);
    const listed = (await t.request({ method: 'GET', url: '/api/tokens', token: sessions.admin })).json<
      { name: string; user_id: string; scopes: string[] }[]
    >();
    expect(listed.find((token) => token.name === 'nightly import')).toMatchObject({
      user_id: ids.admin,
      scopes: ['read', 'import'],
    });
    clock.advance(10_000);
    await expectOAuthError(await poll(asked.device_code), 'invalid_grant');
  });

  it('two polls at once after approval: one token, the other invalid_grant', async () => {
    const asked = await ask();
    await decide('approve', asked.user_code, sessions.admin);
    const answers = await Promise.all([poll(asked.device_code), poll(asked.device_code)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
  });

  it('denied -> access_denied', async () => {
    const asked = await ask();
    expect((await decide('deny', asked.user_code, sessions.admin)).statusCode).toBe(200);
    await expectOAuthError(await poll(asked.device_code), 'access_denied');
  });

  it('after 10 minutes -> expired_token; the code can no longer be approved (404)', async () => {
    const asked = await ask();
    clock.advance(600_000);
    await expectOAuthError(await poll(asked.device_code), 'expired_token');
    expectErrorBody(await decide('approve', asked.user_code, sessions.admin), 404);
  });

  it('an unknown device code -> invalid_grant', async () => {
    await expectOAuthError(await poll('x'.repeat(43)), 'invalid_grant');
  });

  it('another grant_type -> unsupported_grant_type; a missing device_code or a JSON error -> invalid_request', async () => {
    await expectOAuthError(await poll('x', 'password'), 'unsupported_grant_type');
    // A real password grant (a walk's curl): refused for its grant type, its other parameters ignored
    // as RFC 6749 §3.2 says, not "body/device_code is required".
    const password = await t.request({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=admin%40example.com&password=secret',
    });
    await expectOAuthError(password, 'unsupported_grant_type');
    await expectOAuthError(
      await t.request({ method: 'POST', url: '/auth/token', body: { grant_type: DEVICE_GRANT_TYPE } }),
      'invalid_request',
    );
    await expectOAuthError(
      await t.request({ method: 'POST', url: '/auth/token', body: '{"grant_type": ' }),
      'invalid_request',
    );
  });

  it('takes the OAuth form body that OAuth libraries send', async () => {
    const asked = await ask();
    const response = await t.request({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: DEVICE_GRANT_TYPE, device_code: asked.device_code }).toString(),
    });
    await expectOAuthError(response, 'authorization_pending');
  });

  it('the approver demoted between approval and poll -> access_denied, no token made', async () => {
    const email = 'approver-demoted@example.com';
    const approverId = await t.addUser(email, 'admin');
    const approver = await t.login(email);
    const asked = await ask({ scope: 'read clients' });
    await decide('approve', asked.user_code, approver);
    await t.request({
      method: 'PATCH',
      url: `/api/users/${approverId}`,
      token: sessions.boss,
      body: { role: 'viewer' },
    });
    await expectOAuthError(await poll(asked.device_code), 'access_denied');
    expect(t.store.db.prepare('SELECT count(*) FROM api_tokens WHERE user_id = ?').pluck().get(approverId)).toBe(0);
  });
});

describe('the dashboard: GET /api/device, approve, deny', () => {
  it('a pending request is listed in words, found by its user code in any case, gone once answered', async () => {
    const asked = await ask({ client_name: 'stock checker', scope: 'read' });
    const mine = (await pendingFor(sessions.admin)).find((request) => request.user_code === asked.user_code);
    expect(mine?.description).toBe('A script called "stock checker" asks to read clients and locations on all clients');
    const typed = asked.user_code.toLowerCase().replace('-', '');
    expect((await pendingFor(sessions.admin, `?user_code=${typed}`)).map((r) => r.user_code)).toEqual([
      asked.user_code,
    ]);
    await decide('deny', typed, sessions.admin);
    expect((await pendingFor(sessions.admin)).map((r) => r.user_code)).not.toContain(asked.user_code);
    expectErrorBody(await decide('approve', asked.user_code, sessions.admin), 404);
  });

  it('a Viewer does not see nor approve a request for more than its role allows (404); an Admin can', async () => {
    const asked = await ask({ scope: 'read import' });
    expect((await pendingFor(sessions.viewer)).map((r) => r.user_code)).not.toContain(asked.user_code);
    expectErrorBody(await decide('approve', asked.user_code, sessions.viewer), 404);
    expect((await decide('approve', asked.user_code, sessions.admin)).statusCode).toBe(200);
  });

  it("a Client Viewer's approval gives a token limited to its client", async () => {
    const asked = await ask({ scope: 'read' });
    const shown = (await pendingFor(sessions.cv)).find((request) => request.user_code === asked.user_code);
    expect(shown?.description).toMatch(/on your client$/);
    await decide('approve', asked.user_code, sessions.cv);
    const granted = (await poll(asked.device_code)).json<{ access_token: string; client_id: string | null }>();
    // The script asked for every client: the answer says which one it got.
    expect(granted.client_id).toBe(ownClientId);
    const clients = (await t.request({ method: 'GET', url: '/api/clients', token: granted.access_token })).json<
      { id: string }[]
    >();
    expect(clients.map((client) => client.id)).toEqual([ownClientId]);
  });

  it('a request for one client names it, and its token is limited to it', async () => {
    const asked = await ask({ scope: 'read', clientId: ownClientId });
    const shown = (await pendingFor(sessions.admin)).find((request) => request.user_code === asked.user_code);
    expect(shown?.description).toMatch(/on Own Client$/);
    await decide('approve', asked.user_code, sessions.admin);
    const granted = (await poll(asked.device_code)).json<{ access_token: string }>();
    const clients = (await t.request({ method: 'GET', url: '/api/clients', token: granted.access_token })).json<
      { id: string }[]
    >();
    expect(clients.map((client) => client.id)).toEqual([ownClientId]);
  });

  it('an API token without the admin scope cannot list nor approve (403)', async () => {
    const asked = await ask({ scope: 'read' });
    await decide('approve', asked.user_code, sessions.admin);
    const script = (await poll(asked.device_code)).json<{ access_token: string }>().access_token;
    const other = await ask({ scope: 'read' });
    expectErrorBody(await t.request({ method: 'GET', url: '/api/device', token: script }), 403);
    expectErrorBody(await decide('approve', other.user_code, script), 403);
  });

  it('without a session -> 401; a form body -> 415', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/device' }), 401);
    const response = await t.request({
      method: 'POST',
      url: '/api/device/approve',
      token: sessions.admin,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user_code=WDJB-MJHT',
    });
    expectErrorBody(response, 415);
  });
});

describe('flood limits', () => {
  let fresh: Awaited<ReturnType<typeof buildSignedInApp<'admin'>>>;
  beforeAll(async () => {
    fresh = await buildSignedInApp({ admin: 'admin' }, { clock: new TestClock() });
  });
  afterAll(() => fresh.t.close());
  const askFresh = () =>
    fresh.t.request({ method: 'POST', url: '/auth/device', body: { client_name: 'flood', scope: 'read' } });

  it(`at most ${MAX_PENDING} pending at once: the next is 429 with Retry-After until one is answered`, async () => {
    const codes: string[] = [];
    for (let i = 0; i < MAX_PENDING; i++) codes.push((await askFresh()).json<Authorization>().user_code);
    const refused = expectErrorBody(await askFresh(), 429);
    expect(refused.message).toMatch(/Too many device requests/);
    expect(Number((await askFresh()).headers['retry-after'])).toBeGreaterThan(0);
    await fresh.t.request({
      method: 'POST',
      url: '/api/device/deny',
      token: fresh.tokens.admin,
      body: { user_code: codes[0] },
    });
    expect((await askFresh()).statusCode).toBe(200);
  });

  it(`at most ${MAX_PER_MINUTE} a minute, answered or not`, async () => {
    fresh.t.clock.advance(11 * 60_000);
    const made: number[] = [];
    for (let i = 0; i < MAX_PER_MINUTE + 1; i++) {
      const response = await askFresh();
      made.push(response.statusCode);
      if (response.statusCode === 200) {
        await fresh.t.request({
          method: 'POST',
          url: '/api/device/deny',
          token: fresh.tokens.admin,
          body: { user_code: response.json<Authorization>().user_code },
        });
      }
    }
    expect(made.filter((status) => status === 200)).toHaveLength(MAX_PER_MINUTE);
    expect(made.at(-1)).toBe(429);
    fresh.t.clock.advance(60_000);
    expect((await askFresh()).statusCode).toBe(200);
  });
});
