import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deviceCookieName } from '../../server/auth/device.js';
import { ACCOUNT_RULE, ADDRESS_RULE, addressSource } from '../../server/auth/throttle.js';
import { buildTestApp, PASSWORD, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';

const HOUR = 60 * 60 * 1000;
const WRONG = 'not the password';

/** POST /auth/callback from `remoteAddress`, with a Cookie header when given. */
function signIn(t: TestApp, email: string, options: { password?: string; from?: string; cookie?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/callback',
    remoteAddress: options.from ?? '127.0.0.1',
    headers: {
      host: '127.0.0.1:4870',
      'content-type': 'application/json',
      ...(options.cookie !== undefined ? { cookie: options.cookie } : {}),
    },
    payload: JSON.stringify({ email, password: options.password ?? PASSWORD }),
  });
}

/** The `name=value` of a response's Set-Cookie, as a browser sends it back. */
function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') throw new Error('no Set-Cookie');
  return value.split(';')[0]!;
}

/** Some addresses of 127.0.0.0/8, ::1 and IPv4-mapped loopback, the n-th of a rotation. */
function loopbackAddress(n: number): string {
  if (n % 10 === 3) return '::1';
  if (n % 10 === 7) return `::ffff:127.0.${n % 256}.${(n * 7) % 256}`;
  return `127.${(n >> 8) % 256}.${n % 256}.${(n * 13) % 255 || 1}`;
}

describe('the address rule counts every loopback address as one source', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:127.9.8.7', 'loopback'],
    ['192.168.1.20', '192.168.1.20'],
    ['::ffff:192.168.1.20', '192.168.1.20'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s -> %s', (ip, source) => {
    expect(addressSource(ip)).toBe(source);
  });

  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.advance(HOUR));

  it('100 guesses over 20 accounts from rotating 127.x.y.z, ::1 and ::ffff:127.x -> the free tries and one more are checked, the rest 429', async () => {
    // Issue 13, finding 4: this was 99 x 401 and 0 x 429.
    const statuses: number[] = [];
    for (let guess = 0; guess < 100; guess++) {
      const response = await signIn(t, `victim-${guess % 20}@example.com`, {
        password: WRONG,
        from: loopbackAddress(guess),
      });
      expectErrorBody(response, response.statusCode);
      statuses.push(response.statusCode);
    }
    // Five guesses an account stay within the account rule: the address rule alone does this.
    expect(100 / 20).toBeLessThanOrEqual(ACCOUNT_RULE.free);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_RULE.free + 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - ADDRESS_RULE.free - 1);
    expect(statuses.slice(ADDRESS_RULE.free + 1).every((status) => status === 429)).toBe(true);
  });

  it('the same guesses sent all at once from rotating addresses: no more are checked', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, guess) =>
        signIn(t, `wide-${guess % 20}@example.com`, { password: WRONG, from: loopbackAddress(guess) }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_RULE.free + 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - ADDRESS_RULE.free - 1);
  });

  it('a non-loopback address is a source of its own (a server configured to listen on the network)', async () => {
    for (let guess = 0; guess <= ADDRESS_RULE.free; guess++) {
      await signIn(t, `lan-${guess % 20}@example.com`, { password: WRONG, from: '127.0.0.1' });
    }
    expectErrorBody(await signIn(t, 'lan-0@example.com', { password: WRONG, from: '::1' }), 429);
    expectErrorBody(await signIn(t, 'lan-0@example.com', { password: WRONG, from: '192.168.1.20' }), 401);
  });
});

describe('over real sockets: guesses from 127.0.0.2, 127.0.0.3, ... meet one address rule', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  function post(localAddress: string, body: unknown): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress,
          method: 'POST',
          path: '/auth/callback',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: text }));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  it('ADDRESS_RULE.free + 10 guesses, each from a new 127.0.0.x: the free ones and one more are 401, the rest 429', async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < ADDRESS_RULE.free + 10; guess++) {
      const response = await post(`127.0.${guess >> 8}.${(guess % 250) + 2}`, {
        email: `socket-${guess % 15}@example.com`,
        password: WRONG,
      });
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_RULE.free + 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });
});

describe("device cookies: the account's owner gets in while someone else's guesses are throttled", () => {
  let t: TestApp;
  let ownerCookie: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('owner@example.com', 'admin');
    await t.addUser('colleague@example.com', 'viewer');
  });
  afterAll(() => t.close());

  /** Another local process guesses at the owner's account and others until both rules hold it. */
  async function lockEverythingOut(): Promise<void> {
    for (let guess = 0; guess <= ACCOUNT_RULE.free; guess++) {
      await signIn(t, 'owner@example.com', { password: WRONG, from: loopbackAddress(guess) });
    }
    for (let guess = 0; guess <= ADDRESS_RULE.free; guess++) {
      const response = await signIn(t, `someone-${guess}@example.com`, {
        password: WRONG,
        from: loopbackAddress(guess),
      });
      if (response.statusCode === 429) break;
    }
    // Both the account rule and the address rule now refuse a caller without a cookie.
    expectErrorBody(await signIn(t, 'owner@example.com'), 429);
    expectErrorBody(await signIn(t, 'colleague@example.com'), 429);
  }

  it('a sign-in sets the device cookie: HttpOnly, SameSite=Strict, only for /auth/callback, a year', async () => {
    const response = await signIn(t, 'owner@example.com');
    expect(response.statusCode).toBe(200);
    const header = String(response.headers['set-cookie']);
    const ownerId = response.json<{ user: { id: string } }>().user.id;
    expect(header.startsWith(`${deviceCookieName(ownerId)}=`)).toBe(true);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Strict/);
    expect(header).toMatch(/; Path=\/auth\/callback/);
    expect(header).toMatch(/; Max-Age=31536000/);
    ownerCookie = cookieOf(response);
  });

  it("while another process's guesses lock the account and the address, the owner's browser signs in with the right password", async () => {
    await lockEverythingOut();
    const response = await signIn(t, 'owner@example.com', { cookie: ownerCookie });
    expect(response.statusCode, response.body).toBe(200);
    // A new cookie each time (OWASP: issue a new device cookie at each successful sign-in).
    const renewed = cookieOf(response);
    expect(renewed).not.toBe(ownerCookie);
    ownerCookie = renewed;
    // Other cookies in the header do not get in the way.
    expect((await signIn(t, 'owner@example.com', { cookie: `theme=dark; ${ownerCookie}; x=1` })).statusCode).toBe(200);
    // The guesser is still held.
    expectErrorBody(await signIn(t, 'owner@example.com', { password: WRONG }), 429);
  });

  it('the guesser keeps at it for an hour, one try a minute: the owner gets in every time', async () => {
    for (let minute = 0; minute < 60; minute++) {
      t.clock.advance(60_000);
      await signIn(t, 'owner@example.com', { password: WRONG, from: loopbackAddress(minute) });
      await signIn(t, `someone-${minute}@example.com`, { password: WRONG, from: loopbackAddress(minute + 1) });
      if (minute % 10 === 0) {
        const response = await signIn(t, 'owner@example.com', { cookie: ownerCookie });
        expect(response.statusCode, `minute ${minute}`).toBe(200);
        ownerCookie = cookieOf(response);
      }
    }
  });

  it('a wrong password with the cookie is still wrong, and the cookie has a back-off of its own', async () => {
    t.clock.advance(HOUR);
    const otherBrowser = cookieOf(await signIn(t, 'owner@example.com'));
    for (let i = 0; i < ACCOUNT_RULE.free + 1; i++) {
      expectErrorBody(await signIn(t, 'owner@example.com', { password: WRONG, cookie: ownerCookie }), 401);
    }
    expectErrorBody(await signIn(t, 'owner@example.com', { cookie: ownerCookie }), 429);
    // ... which neither another browser of the owner's nor a caller without a cookie shares.
    expect((await signIn(t, 'owner@example.com', { cookie: otherBrowser })).statusCode).toBe(200);
    expect((await signIn(t, 'owner@example.com', { from: '::1' })).statusCode).toBe(200);
  });

  it('a cookie is worth nothing for another account, forged, or after the password changed', async () => {
    t.clock.advance(HOUR);
    const colleague = await signIn(t, 'colleague@example.com');
    const colleagueCookie = cookieOf(colleague);
    const colleagueId = colleague.json<{ user: { id: string } }>().user.id;
    const owner = await signIn(t, 'owner@example.com');
    const ownerId = owner.json<{ user: { id: string } }>().user.id;
    ownerCookie = cookieOf(owner);
    await lockEverythingOut();

    // Another account's cookie under the owner's cookie name, and a forged one.
    const [, colleagueToken] = colleagueCookie.split('=') as [string, string];
    expect(deviceCookieName(colleagueId)).not.toBe(deviceCookieName(ownerId));
    expectErrorBody(
      await signIn(t, 'owner@example.com', { cookie: `${deviceCookieName(ownerId)}=${colleagueToken}` }),
      429,
    );
    const [nonce] = ownerCookie.split('=')[1]!.split('.') as [string];
    expectErrorBody(
      await signIn(t, 'owner@example.com', { cookie: `${deviceCookieName(ownerId)}=${nonce}.${'A'.repeat(43)}` }),
      429,
    );
    expectErrorBody(await signIn(t, 'owner@example.com', { cookie: `${deviceCookieName(ownerId)}=garbage` }), 429);
    // The colleague's cookie does let the colleague in.
    expect((await signIn(t, 'colleague@example.com', { cookie: colleagueCookie })).statusCode).toBe(200);

    // A new password voids every device cookie of the account.
    const admin = (await signIn(t, 'owner@example.com', { cookie: ownerCookie })).json<{ access_token: string }>();
    const changed = await t.request({
      method: 'PATCH',
      url: `/api/users/${ownerId}`,
      token: admin.access_token,
      body: { password: 'a brand new password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectErrorBody(
      await signIn(t, 'owner@example.com', { password: 'a brand new password', cookie: ownerCookie }),
      429,
    );
  });

  it('no local process locks a browser without a cookie out of an account for longer than the account back-off', async () => {
    t.clock.advance(HOUR);
    // Guesses at one account only, as fast as they are answered, for as long as it takes: the account's
    // wait never passes ACCOUNT_RULE.maxMs.
    let longest = 0;
    for (let guess = 0; guess < 40; guess++) {
      const response = await signIn(t, 'colleague@example.com', { password: WRONG, from: loopbackAddress(guess) });
      if (response.statusCode === 429) {
        longest = Math.max(longest, Number(response.headers['retry-after']));
        t.clock.advance(Number(response.headers['retry-after']) * 1000);
      }
    }
    expect(longest * 1000).toBeLessThanOrEqual(ACCOUNT_RULE.maxMs);
    t.clock.advance(ACCOUNT_RULE.maxMs);
    expect((await signIn(t, 'colleague@example.com')).statusCode).toBe(200);
  });
});
