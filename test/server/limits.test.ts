import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JSON_BODY_BUDGET,
  JSON_BODY_LIMIT,
  MAX_CONNECTIONS,
  PUBLIC_BODY_LIMIT,
  REQUEST_TIMEOUT_MS,
} from '../../server/app.js';
import { buildApp } from '../../server/app.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { buildTestApp, PASSWORD, randomKey, tempDir, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { realisticRows } from '../bench/rows.js';

/** A raw HTTP/1.1 connection: what a slow or hostile client does, byte by byte. */
class RawClient {
  readonly socket: net.Socket;
  received = '';
  readonly closed: Promise<number>;
  private readonly opened = Date.now();

  constructor(port: number) {
    this.socket = net.connect({ host: '127.0.0.1', port });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now() - this.opened)));
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  send(text: string | Buffer): Promise<void> {
    return new Promise((resolve) => this.socket.write(text, () => resolve()));
  }

  /** Resolves with the status of the first response (or null when the connection closes without one). */
  status(): Promise<number | null> {
    const status = () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(this.received);
      return match !== null && this.received.includes('\r\n\r\n') ? Number(match[1]) : null;
    };
    return new Promise((resolve) => {
      const check = () => {
        if (status() === null) return;
        this.socket.off('data', check);
        resolve(status());
      };
      this.socket.on('data', check);
      check();
      void this.closed.then(() => resolve(status()));
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('body limits: routes open to anyone take small bodies', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
  });
  afterAll(() => t.close());

  const padding = (bytes: number) => ({ email: 'admin@example.com', password: 'p'.repeat(bytes) });

  it.each([
    ['POST /auth/callback', '/auth/callback'],
    ['POST /auth/refresh', '/auth/refresh'],
    ['POST /auth/setup', '/auth/setup'],
    ['an unknown route', '/auth/nothing-here'],
    ['an unknown /api route', '/api/nothing-here'],
  ])(`%s with a body over ${PUBLIC_BODY_LIMIT / 1024} KiB -> 413`, async (_name, url) => {
    const error = expectErrorBody(await t.request({ method: 'POST', url, body: padding(PUBLIC_BODY_LIMIT) }), 413);
    expect(error.message).toContain(`${PUBLIC_BODY_LIMIT / 1024} KiB`);
  });

  it('POST /auth/logout (signed in) with a body over the small limit -> 413', async () => {
    const token = await t.login('admin@example.com');
    expectErrorBody(
      await t.request({ method: 'POST', url: '/auth/logout', token, body: padding(PUBLIC_BODY_LIMIT) }),
      413,
    );
  });

  it('the longest valid sign-in and setup bodies, every character escaped, fit', async () => {
    const escaped = (length: number) => '\\u00e9'.repeat(length);
    const signIn = `{"email":"${escaped(320)}","password":"${escaped(1024)}"}`;
    const setup = `{"organization_name":"${escaped(200)}","email":"${escaped(320)}","password":"${escaped(1024)}"}`;
    expect(Buffer.byteLength(setup)).toBeLessThanOrEqual(PUBLIC_BODY_LIMIT);
    expect((await t.request({ method: 'POST', url: '/auth/callback', body: signIn })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/auth/setup', body: setup })).statusCode).not.toBe(413);
  });

  it('a signed-in caller still sends bodies up to 1 MiB', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: { name: 'Big', industry: 'i'.repeat(JSON_BODY_LIMIT - 100) },
    });
    // Read and checked against the schema, not refused for its size.
    expectErrorBody(response, 400);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/clients',
          token: admin,
          body: { name: 'x'.repeat(JSON_BODY_LIMIT) },
        })
      ).statusCode,
    ).toBe(413);
  });

  it('bulk edit and delete take the 100,000 ids their schema allows (over 1 MiB of JSON); one more is a 400', async () => {
    const ids = Array.from({ length: 100_000 }, () => randomUUID());
    const bodies = [
      ['POST', '/api/locations/delete', (list: string[]) => ({ ids: list })],
      ['PATCH', '/api/locations', (list: string[]) => ({ ids: list, set: { status: 'temporarily_closed' } })],
    ] as const;
    for (const [method, url, body] of bodies) {
      // Read whole and checked: none of these ids is a location, so nothing is changed.
      const unknown = await t.request({ method, url, token: admin, body: body(ids) });
      expect(expectErrorBody(unknown, 404).message).toMatch(/^100000 of the 100000 ids are not locations/);
      const tooMany = await t.request({ method, url, token: admin, body: body([...ids, randomUUID()]) });
      expect(expectErrorBody(tooMany, 400).message).toMatch(/100000/);
    }
  });

  it('edit, delete and their undos each answer 200 (a bulk edit of them all ran the writer thread out of heap: 500)', async () => {
    const clientId = await t.createClient(admin, 'Hundred thousand');
    const imported = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows: realisticRows(100_000) },
    });
    expect(imported.statusCode).toBe(201);
    const ids = t.store.db.prepare('SELECT id FROM locations WHERE client_id = ?').pluck().all(clientId) as string[];
    expect(ids).toHaveLength(100_000);
    const undo = async (response: { statusCode: number; body: string; json<T>(): T }) => {
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const { operation_id } = response.json<{ operation_id: string }>();
      const undone = await t.request({ method: 'POST', url: `/api/operations/${operation_id}/undo`, token: admin });
      expect(undone.statusCode, undone.body.slice(0, 300)).toBe(200);
      return undone.json<{ restored: number; recreated: number; conflicts: unknown[] }>();
    };
    const status = (value: string) =>
      t.store.db
        .prepare('SELECT count(*) FROM locations WHERE client_id = ? AND status = ?')
        .pluck()
        .get(clientId, value);
    const edit = await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids, set: { status: 'temporarily_closed' } },
    });
    expect(edit.json()).toMatchObject({ count: 100_000 });
    expect(status('temporarily_closed')).toBe(100_000);
    expect(await undo(edit)).toMatchObject({ restored: 100_000, conflicts: [] });
    expect(status('open')).toBe(100_000);
    const deleted = await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } });
    expect(deleted.json()).toMatchObject({ count: 100_000 });
    expect(status('open')).toBe(0);
    expect(await undo(deleted)).toMatchObject({ recreated: 100_000, conflicts: [] });
    expect(status('open')).toBe(100_000);
  }, 180_000);
});

describe('over real sockets', () => {
  let t: TestApp;
  let port: number;
  let admin: string;
  const clients: RawClient[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  function client(): RawClient {
    const raw = new RawClient(port);
    clients.push(raw);
    return raw;
  }

  it('a Content-Length over the limit of POST /auth/callback -> 413 before a byte of the body is sent', async () => {
    const raw = client();
    await raw.send(
      head('POST', '/auth/callback', { 'content-type': 'application/json', 'content-length': 1024 * 1024 }),
    );
    expect(await raw.status()).toBe(413);
  });

  it(`the server holds at most ${MAX_CONNECTIONS} connections: beyond, new ones are closed at once`, async () => {
    expect(t.app.server.maxConnections).toBe(MAX_CONNECTIONS);
    const held: RawClient[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const raw = client();
      held.push(raw);
      await raw.connected();
      // Half a sign-in body, never finished.
      await raw.send(
        head('POST', '/auth/callback', { 'content-type': 'application/json', 'content-length': 64 }) + '{"email":',
      );
    }
    const extra = client();
    await extra.send(head('GET', '/health', {}));
    expect(await extra.status()).toBeNull();
    // Held connections let go: the server takes new ones again.
    for (const raw of held) raw.close();
    await Promise.all(held.map((raw) => raw.closed));
    await sleep(50);
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBe(200);
  });

  it(`bodies being received are held to ${JSON_BODY_BUDGET / 1048576} MiB in all: beyond, 503 with Retry-After`, async () => {
    const bodyBytes = JSON_BODY_LIMIT - 16;
    const body = `{"name":"${'x'.repeat(bodyBytes - 12)}"}`;
    const slots = Math.floor(JSON_BODY_BUDGET / bodyBytes);
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      authorization: `Bearer ${admin}`,
    };
    const held: RawClient[] = [];
    // Each sends all but the last byte of its body and waits.
    for (let i = 0; i < slots; i++) {
      const raw = client();
      held.push(raw);
      await raw.send(head('POST', '/api/clients', headers) + body.slice(0, -1));
    }
    await sleep(200);
    const over = client();
    await over.send(head('POST', '/api/clients', headers) + body);
    expect(await over.status()).toBe(503);
    expect(over.received).toMatch(/retry-after: 1/i);
    expect(held.every((raw) => raw.received === '')).toBe(true);
    // The held bodies finish (400: the name is too long, but they were read), and give their bytes back.
    for (const raw of held) await raw.send(body.slice(-1));
    expect(await Promise.all(held.map((raw) => raw.status()))).toEqual(held.map(() => 400));
    const after = client();
    await after.send(head('POST', '/api/clients', headers) + body);
    expect(await after.status()).toBe(400);
  });

  it('clients that go away mid-body give their bytes back too', async () => {
    const body = `{"name":"${'x'.repeat(JSON_BODY_LIMIT - 100)}"}`;
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      authorization: `Bearer ${admin}`,
    };
    for (let round = 0; round < 3; round++) {
      const gone: RawClient[] = [];
      for (let i = 0; i < Math.ceil(JSON_BODY_BUDGET / JSON_BODY_LIMIT); i++) {
        const raw = client();
        gone.push(raw);
        await raw.send(head('POST', '/api/clients', headers) + body.slice(0, -1));
      }
      await sleep(100);
      for (const raw of gone) raw.close();
      await Promise.all(gone.map((raw) => raw.closed));
    }
    await sleep(100);
    const after = client();
    await after.send(head('POST', '/api/clients', headers) + body);
    expect(await after.status()).toBe(400);
  });

  it('import bodies count in the same budget: a held 30 MiB import leaves no room for another one, until it goes', async () => {
    const clientId = await t.createClient(admin);
    const importHeaders = (length: number) => ({
      'content-type': 'application/json',
      'content-length': length,
      authorization: `Bearer ${admin}`,
    });
    const big = client();
    // Declares 30 MiB and sends only its start: the declared bytes are taken before anything is allocated.
    await big.send(head('POST', '/api/locations/upload', importHeaders(30 * 1048576)) + `{"clientId":"${clientId}",`);
    await sleep(200);
    const rows = JSON.stringify({ clientId, rows: [{ name: 'A' }] }).padEnd(4 * 1048576, ' ');
    const second = client();
    await second.send(head('POST', '/api/locations/upload', importHeaders(rows.length)) + rows);
    expect(await second.status()).toBe(503);
    expect(second.received).toMatch(/retry-after: 1/i);
    const small = client();
    const name = JSON.stringify({ name: 'Fits' });
    await small.send(head('POST', '/api/clients', importHeaders(name.length)) + name);
    expect(await small.status()).toBe(201);
    // The held import goes away: its bytes come back, and the same import is now written.
    big.close();
    await big.closed;
    await sleep(100);
    const third = client();
    await third.send(head('POST', '/api/locations/upload', importHeaders(rows.length)) + rows);
    expect(await third.status()).toBe(201);
    expect(t.store.db.prepare('SELECT count(*) FROM locations WHERE client_id = ?').pluck().get(clientId)).toBe(1);
  });
});

describe('request timeouts, as documented', () => {
  it(`the documented ${REQUEST_TIMEOUT_MS / 1000} s is the configured one`, async () => {
    const t = await buildTestApp();
    try {
      expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
      expect(t.app.server.timeout).toBe(REQUEST_TIMEOUT_MS);
    } finally {
      await t.close();
    }
  });

  describe('with a short configured timeout (1 s)', () => {
    const TIMEOUT = 1_000;
    let port: number;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const dir = tempDir();
      const store = openStore(databaseFileIn(dir), randomKey());
      const app = await buildApp({ store, logger: false, dashboardDir: null, requestTimeoutMs: TIMEOUT });
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
      close = async () => {
        await app.close();
        store.close();
      };
    });
    afterAll(() => close());

    it('a request Node\'s parser cannot read gets the API\'s error body in words (a probe got "Client Error")', async () => {
      for (const bytes of [
        // A Content-Length shorter than the body: the rest is read as the next request.
        `${head('POST', '/auth/callback', { 'content-type': 'application/json', 'content-length': 2 })}{"email":"a@example.com"}`,
        'not http at all\r\n\r\n',
      ]) {
        const raw = new RawClient(port);
        await raw.send(bytes);
        await raw.closed;
        const last = raw.received.slice(raw.received.lastIndexOf('HTTP/1.1 '));
        expect(last, bytes).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(last).toMatch(/content-type: application\/json/i);
        expect(JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4))).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message:
            'The request could not be read as HTTP: its Content-Length, its chunks or a header does not match what was sent',
        });
      }
    });

    it('a body sent a byte every 100 ms (never idle) is cut off at the timeout, not 30 s later', async () => {
      const raw = new RawClient(port);
      const body = JSON.stringify({ email: 'a@example.com', password: PASSWORD });
      await raw.send(
        head('POST', '/auth/callback', { 'content-type': 'application/json', 'content-length': body.length }),
      );
      let sent = 0;
      const trickle = setInterval(() => {
        if (sent < body.length - 1) void raw.send(body[sent++]!);
      }, 100);
      const closedAfter = await raw.closed;
      clearInterval(trickle);
      expect(raw.received).toMatch(/^HTTP\/1\.1 408/);
      // Node checks the request timeout every connectionsCheckingInterval: with its default (30 s) this
      // took 31 s; the server checks every tenth of the timeout here, every second at the default.
      expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(closedAfter).toBeLessThan(TIMEOUT + 1_500);
    });

    it('a connection idle after its headers is closed at the timeout', async () => {
      const raw = new RawClient(port);
      await raw.send(head('POST', '/auth/callback', { 'content-type': 'application/json', 'content-length': 10 }));
      const closedAfter = await raw.closed;
      expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(closedAfter).toBeLessThan(TIMEOUT + 1_500);
    });

    it('headers sent a byte at a time are cut off too', async () => {
      const raw = new RawClient(port);
      const headers = head('GET', '/health', { 'x-slow': 'y'.repeat(100) });
      let sent = 0;
      const trickle = setInterval(() => {
        if (sent < headers.length - 1) void raw.send(headers[sent++]!);
      }, 50);
      const closedAfter = await raw.closed;
      clearInterval(trickle);
      expect(closedAfter).toBeLessThan(TIMEOUT + 1_500);
    });
  });
});
