import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKey } from '../../server/db/key.js';
import { WrongKeyError } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { tempDir } from '../helpers/app.js';
import { fileDigests } from '../helpers/data.js';
import {
  buildServer,
  randomHexKey,
  runCli,
  ServerExitedError,
  startServerProcess,
  type ServerProcess,
  type ServerProcessOptions,
} from '../helpers/server-process.js';

const ADMIN = { AGENCY_DESK_ADMIN_EMAIL: 'owner@example.com', AGENCY_DESK_ADMIN_PASSWORD: 'owner password 1' };

const dirs: string[] = [];
const running: ServerProcess[] = [];

function freshDir(): string {
  const dir = tempDir('agency-desk-e2e-');
  dirs.push(dir);
  return dir;
}

async function start(options: ServerProcessOptions): Promise<ServerProcess> {
  const server = await startServerProcess(options);
  running.push(server);
  return server;
}

beforeAll(() => buildServer());
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function call<T = unknown>(
  server: ServerProcess,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
    headers: response.headers,
  };
}

async function signIn(server: ServerProcess): Promise<string> {
  const response = await call<{ access_token: string }>(server, 'POST', '/auth/callback', {
    body: { email: ADMIN.AGENCY_DESK_ADMIN_EMAIL, password: ADMIN.AGENCY_DESK_ADMIN_PASSWORD },
  });
  expect(response.status).toBe(200);
  return response.body.access_token;
}

/** Signs in over HTTP and returns the role the session is for. */
async function roleAfterSignIn(server: ServerProcess, email: string, password: string): Promise<string> {
  const response = await call<{ user: { role: string } }>(server, 'POST', '/auth/callback', {
    body: { email, password },
  });
  expect(response.status).toBe(200);
  return response.body.user.role;
}

describe('the real server over HTTP', () => {
  let dataDir: string;
  let key: string;
  let server: ServerProcess;
  let token: string;
  let clientId: string;

  beforeAll(async () => {
    dataDir = freshDir();
    key = randomHexKey();
    server = await start({ dataDir, key, env: ADMIN });
  });

  it('listens on 127.0.0.1 on the port the system picked', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });

  it('GET /health -> 200 without a token', async () => {
    const response = await call(server, 'GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('the tour: sign in, create a client, import rows, list them', async () => {
    token = await signIn(server);
    const created = await call<{ id: string; name: string }>(server, 'POST', '/api/clients', {
      token,
      body: { name: 'Tour Coffee', industry: 'Coffee', website: 'tour.example' },
    });
    expect(created.status).toBe(201);
    clientId = created.body.id;

    const upload = await call<{ success: boolean; count: number }>(server, 'POST', '/api/locations/upload', {
      token,
      body: {
        clientId,
        rows: [
          { name: 'Downtown', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'USA' },
          { name: 'Airport', city: 'Springfield', country: 'US' },
        ],
      },
    });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({ success: true, count: 2 });

    const list = await call<{ name: string; country: string; health_status: string }[]>(
      server,
      'GET',
      `/api/locations?clientId=${clientId}`,
      { token },
    );
    expect(list.status).toBe(200);
    expect(list.body.map((location) => [location.name, location.country])).toEqual([
      ['Downtown', 'US'],
      ['Airport', 'US'],
    ]);
    const clients = await call<{ name: string; locations_count: number }[]>(server, 'GET', '/api/clients', { token });
    expect(clients.body).toEqual([expect.objectContaining({ name: 'Tour Coffee', locations_count: 2 })]);
  });

  it('a request from another origin is refused over real HTTP too', async () => {
    const response = await fetch(`${server.url}/api/clients`, {
      headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('restart: SIGTERM exits 0; started again with the same directory and key, the data is still there', async () => {
    expect(await server.stop()).toBe(0);
    server = await start({ dataDir, key });
    const again = await signIn(server);
    const list = await call<{ name: string }[]>(server, 'GET', `/api/locations?clientId=${clientId}`, { token: again });
    expect(list.status).toBe(200);
    expect(list.body.map((location) => location.name)).toEqual(['Downtown', 'Airport']);
    // The sessions survived too: the token of before the restart still works.
    expect((await call(server, 'GET', '/api/me', { token })).status).toBe(200);
  });

  it('wrong key on restart: the process exits non-zero saying the key is wrong, and the database file is unchanged', async () => {
    expect(await server.stop()).toBe(0);
    const before = fileDigests(dataDir);
    expect(Object.keys(before)).toContain('agency-desk.db');

    const result = await runCli({ dataDir, key: randomHexKey() });

    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toMatch(/key is wrong/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toMatch(/listening/);
    expect(fileDigests(dataDir)).toEqual(before);
  });

  it('startServerProcess rejects with the exit code and output when the server cannot start', async () => {
    const failure = await startServerProcess({ dataDir, key: randomHexKey() }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServerExitedError);
    expect((failure as ServerExitedError).code).toBe(1);
  });

  it('the right key still opens it afterwards', async () => {
    server = await start({ dataDir, key });
    expect((await call(server, 'GET', '/api/me', { token })).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});

describe('start-up failures', () => {
  it('port already taken -> a clear message and a non-zero exit', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const dataDir = freshDir();
      const result = await runCli({ dataDir, key: randomHexKey(), env: { AGENCY_DESK_PORT: String(port) } });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stderr).toContain(`Port ${port}`);
      expect(result.stderr).toMatch(/already in use/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('a database without its key -> a non-zero exit, and no new key replaces it', async () => {
    const dataDir = freshDir();
    const key = randomHexKey();
    const first = await start({ dataDir, key });
    expect((await call(first, 'GET', '/health')).status).toBe(200);
    expect(await first.stop()).toBe(0);
    const before = fileDigests(dataDir);
    const result = await runCli({ dataDir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no key was given/);
    expect(fileDigests(dataDir)).toEqual(before);
  });

  it('first run without a key creates db.key (mode 0600) and the next run uses it', async () => {
    const dataDir = freshDir();
    const first = await start({ dataDir, env: { ...ADMIN, AGENCY_DESK_LOG_LEVEL: 'info' } });
    expect(fs.statSync(`${dataDir}/db.key`).mode & 0o777).toBe(0o600);
    expect((await call(first, 'GET', '/health')).status).toBe(200);
    expect(await first.stop()).toBe(0);
    // The notice is for people, on standard output with the listening line; standard error stays JSON
    // lines that a log reader can parse (a walk found the notice among them).
    const { stdout, stderr } = first.output();
    expect(stdout).toContain(`Created a new random database key in ${dataDir}/db.key`);
    const logLines = stderr.split('\n').filter((line) => line !== '');
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    const second = await start({ dataDir });
    expect(await signIn(second)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(await second.stop()).toBe(0);
  });
});

describe('the CLI', () => {
  it('init --email with the password in AGENCY_DESK_ADMIN_PASSWORD (as its usage says) creates the first Admin', async () => {
    const dataDir = freshDir();
    const key = randomHexKey();
    const init = await runCli({
      dataDir,
      key,
      args: ['init', '--email', 'cli-admin@example.com', '--org', 'CLI Agency'],
      env: { AGENCY_DESK_ADMIN_PASSWORD: 'cli admin password' },
    });
    expect(init.code, init.stderr).toBe(0);
    const server = await start({ dataDir, key });
    expect(await roleAfterSignIn(server, 'cli-admin@example.com', 'cli admin password')).toBe('admin');
    expect(await server.stop()).toBe(0);
  });

  it('user add creates a user who can sign in; client_viewer without --client is refused', async () => {
    const dataDir = freshDir();
    const key = randomHexKey();
    const first = await start({ dataDir, key, env: ADMIN });
    expect((await call(first, 'GET', '/health')).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const add = await runCli({
      dataDir,
      key,
      args: ['user', 'add', '--email', 'cli-viewer@example.com', '--role', 'viewer'],
      env: { AGENCY_DESK_USER_PASSWORD: 'cli viewer password' },
    });
    expect(add.code, add.stderr).toBe(0);
    const refused = await runCli({
      dataDir,
      key,
      args: ['user', 'add', '--email', 'cli-cv@example.com', '--role', 'client_viewer'],
      env: { AGENCY_DESK_USER_PASSWORD: 'cli viewer password' },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--client/);

    const server = await start({ dataDir, key });
    expect(await roleAfterSignIn(server, 'cli-viewer@example.com', 'cli viewer password')).toBe('viewer');
    expect(await server.stop()).toBe(0);
  });

  it('backup FILE writes a copy that opens with the same key only', async () => {
    const dataDir = freshDir();
    const key = randomHexKey();
    const server = await start({ dataDir, key, env: ADMIN });
    const token = await signIn(server);
    await call(server, 'POST', '/api/clients', { token, body: { name: 'Backed Up Client' } });
    expect(await server.stop()).toBe(0);

    const target = path.join(freshDir(), 'copy.db');
    const result = await runCli({ dataDir, key, args: ['backup', target] });
    expect(result.code, result.stderr).toBe(0);
    const copy = openStore(target, parseKey(key, 'test'));
    expect(copy.db.prepare('SELECT name FROM clients').pluck().all()).toEqual(['Backed Up Client']);
    copy.close();
    expect(() => openStore(target, parseKey(randomHexKey(), 'test'))).toThrow(WrongKeyError);
  });
});

describe('shutdown', () => {
  it('SIGTERM as soon as the listening line is printed -> a clean exit 0 (three times)', async () => {
    // The listening line is the readiness signal: the SIGTERM handler must already be in place.
    for (let attempt = 0; attempt < 3; attempt++) {
      const server = await start({ dataDir: freshDir(), key: randomHexKey() });
      expect(await server.stop()).toBe(0);
    }
  });

  it('SIGTERM while an import is in flight: the import completes fully or not at all, and the process exits 0', async () => {
    const dataDir = freshDir();
    const key = randomHexKey();
    const server = await start({ dataDir, key, env: ADMIN });
    const token = await signIn(server);
    const created = await call<{ id: string }>(server, 'POST', '/api/clients', {
      token,
      body: { name: 'Interrupted' },
    });
    const clientId = created.body.id;
    const ROWS = 5_000;
    const body = JSON.stringify({
      clientId,
      rows: Array.from({ length: ROWS }, (_, i) => ({
        name: `Branch ${i}`,
        address: `${i} Long Road`,
        city: 'Leeds',
        country: 'GB',
      })),
    });

    // Expect: 100-continue makes the server confirm it holds the request before the signal is sent.
    const outcome = new Promise<{ status: number | undefined; text: string; error?: string }>((resolve) => {
      const request = http.request(`${server.url}/api/locations/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      request.on('continue', () => {
        server.process.kill('SIGTERM');
        request.end(body);
      });
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, text }));
        response.on('error', (error) => resolve({ status: response.statusCode, text, error: error.message }));
      });
      request.on('error', (error) => resolve({ status: undefined, text: '', error: error.message }));
    });
    const result = await outcome;
    expect(await server.exited).toBe(0);

    const restarted = await start({ dataDir, key });
    const again = await signIn(restarted);
    const list = await call<unknown[]>(restarted, 'GET', `/api/locations?clientId=${clientId}`, { token: again });
    expect(list.status).toBe(200);
    if (result.status === 201) expect(list.body.length).toBe(ROWS);
    else expect([0, ROWS]).toContain(list.body.length);
    const clients = await call<{ id: string; locations_count: number }[]>(restarted, 'GET', '/api/clients', {
      token: again,
    });
    expect(clients.body.find((client) => client.id === clientId)?.locations_count).toBe(list.body.length);
    expect(await restarted.stop()).toBe(0);
    expect(fs.existsSync(databaseFileIn(dataDir))).toBe(true);
  });
});
