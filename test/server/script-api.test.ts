import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/** Issue 10 §4: what surprised a script author, each fixed. */
let t: TestApp;
let sessions: Record<'admin' | 'viewer', string>;
let clientId: string;

beforeAll(async () => {
  const built = await buildSignedInApp({ admin: 'admin', viewer: 'viewer' }, { clock: new TestClock() });
  t = built.t;
  sessions = built.tokens;
  clientId = await t.createClient(sessions.admin, 'Bluebird Coffee');
  await t.createClient(sessions.admin, 'Acme Tea');
});
afterAll(() => t.close());

async function apiToken(session: string, body: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const response = await t.request({
    method: 'POST',
    url: '/api/tokens',
    token: session,
    body: { name: 'script', ...body },
  });
  return response.json();
}

describe('401 says how to authenticate (RFC 6750 §3)', () => {
  it('no credential -> WWW-Authenticate: Bearer', async () => {
    const response = await t.request({ method: 'GET', url: '/api/clients' });
    expectErrorBody(response, 401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['an unknown access token', `Bearer ${'x'.repeat(43)}`],
    ['an unknown API token', `Bearer adk_pat_${'x'.repeat(43)}`],
    ['another scheme', 'Basic YWRtaW46cGFzc3dvcmQ='],
  ])('%s -> WWW-Authenticate: Bearer error="invalid_token"', async (_case, authorization) => {
    const response = await t.request({ method: 'GET', url: '/api/clients', headers: { authorization } });
    expectErrorBody(response, 401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it.each(['bearer', 'BEARER', 'Bearer'])('the scheme in any case (RFC 9110 §11.1): %s -> 200', async (scheme) => {
    const response = await t.request({
      method: 'GET',
      url: '/api/clients',
      headers: { authorization: `${scheme} ${sessions.admin}` },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('boolean query parameters: true/false/1/0 in any case', () => {
  let own: string;
  beforeAll(async () => {
    own = (await apiToken(sessions.admin, { scopes: ['read'] })).id;
    await apiToken(sessions.viewer, { scopes: ['read'] });
  });
  const ids = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/tokens${query}`, token: sessions.admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ user_id: string }[]>();
  };

  it.each(['True', 'TRUE', 'true', '1'])('?all=%s -> every token of the organization', async (value) => {
    expect(new Set((await ids(`?all=${value}`)).map((token) => token.user_id)).size).toBe(2);
  });

  it.each(['False', 'false', '0'])('?all=%s -> the caller’s own', async (value) => {
    const tokens = await ids(`?all=${value}`);
    expect(new Set(tokens.map((token) => token.user_id)).size).toBe(1);
    expect(tokens.map((token) => (token as unknown as { id: string }).id)).toContain(own);
  });

  it.each(['yes', '2', ''])('?all=%s -> 400', async (value) => {
    expectErrorBody(await t.request({ method: 'GET', url: `/api/tokens?all=${value}`, token: sessions.admin }), 400);
  });

  it('POST /api/locations/upload?dryRun=True is a dry run: 200, nothing written', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/locations/upload?dryRun=True',
      token: sessions.admin,
      body: { clientId, rows: [{ name: 'Dry Branch' }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: sessions.admin });
    expect(list.json()).toEqual([]);
  });
});

describe('GET /api/clients?name=', () => {
  const named = async (name: string, token = sessions.admin) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/clients?name=${encodeURIComponent(name)}`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return {
      names: response.json<{ name: string }[]>().map((client) => client.name),
      total: response.headers['x-total-count'],
    };
  };

  it.each(['Bluebird Coffee', 'bluebird coffee', 'BLUEBIRD COFFEE', '  Bluebird Coffee '])(
    '%j finds the client of exactly that name, in any case',
    async (name) => {
      expect(await named(name)).toEqual({ names: ['Bluebird Coffee'], total: '1' });
    },
  );

  it.each(['Bluebird', 'Bluebird Coffee Co', ''])('%j finds nothing: [] and X-Total-Count 0', async (name) => {
    expect(await named(name)).toEqual({ names: [], total: '0' });
  });

  it('a token limited to another client does not find it', async () => {
    const limited = await apiToken(sessions.admin, { scopes: ['read'], clientId });
    expect((await named('Acme Tea', limited.token)).names).toEqual([]);
    expect((await named('Bluebird Coffee', limited.token)).names).toEqual(['Bluebird Coffee']);
  });
});

describe('PATCH /api/me: every user changes its own password', () => {
  const change = (token: string, body: unknown) => t.request({ method: 'PATCH', url: '/api/me', token, body });

  it('-> 200; the new password signs in, the old no longer; other sessions end, this one stays; tokens are revoked', async () => {
    await t.addUser('changer@example.com', 'viewer');
    const current = await t.login('changer@example.com');
    const other = await t.login('changer@example.com');
    const token = (await apiToken(current, { scopes: ['read'] })).token;
    const response = await change(current, { current_password: PASSWORD, new_password: 'a brand new password' });
    expect(response.json()).toEqual({ success: true });
    expect((await t.request({ method: 'GET', url: '/api/me', token: current })).statusCode).toBe(200);
    expectErrorBody(await t.request({ method: 'GET', url: '/api/me', token: other }), 401);
    expectErrorBody(await t.request({ method: 'GET', url: '/api/me', token }), 401);
    await expect(t.login('changer@example.com')).rejects.toThrow(/401/);
    await expect(t.login('changer@example.com', 'a brand new password')).resolves.toEqual(expect.any(String));
  });

  it('a wrong current password -> 400 naming the field, nothing changed', async () => {
    await t.addUser('wrong@example.com', 'viewer');
    const session = await t.login('wrong@example.com');
    const error = expectErrorBody(
      await change(session, { current_password: 'not it at all', new_password: 'another password' }),
      400,
    );
    expect(error.details?.[0]?.path).toBe('/body/current_password');
    await expect(t.login('wrong@example.com')).resolves.toEqual(expect.any(String));
  });

  it('guessing the current password meets the sign-in back-off: 5 free tries, then it waits (429)', async () => {
    await t.addUser('guessed@example.com', 'viewer');
    const session = await t.login('guessed@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await change(session, { current_password: `guess ${i} wrong`, new_password: 'x'.repeat(12) })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
  });

  it.each([
    ['a 7-character new password', { current_password: PASSWORD, new_password: '1234567' }],
    ['no current password', { new_password: 'a long new password' }],
    ['an unknown field', { current_password: PASSWORD, new_password: 'a long new password', role: 'admin' }],
  ])('%s -> 400', async (_case, body) => {
    expectErrorBody(await change(sessions.viewer, body), 400);
  });

  it('with an API token -> 403: a script never changes a password', async () => {
    const { token } = await apiToken(sessions.admin, { scopes: ['read', 'admin'] });
    expectErrorBody(await change(token, { current_password: PASSWORD, new_password: 'a long new password' }), 403);
  });
});
