import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.js';
import { hashPassword } from '../../server/auth/passwords.js';
import type { DatabaseKey } from '../../server/db/key.js';
import { openStore, type Store } from '../../server/db/store.js';
import type { Role } from '../../server/http/schemas.js';
import { databaseFileIn } from '../../server/start.js';
import { insertOrganization, insertUser } from '../../server/users/queries.js';

/** A clock the test moves by hand (token expiry, throttling). */
export class TestClock {
  constructor(public current = Date.parse('2026-01-15T09:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const PASSWORD = 'correct horse battery';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  clock: TestClock;
  dataDir: string;
  key: DatabaseKey;
  organizationId: string;
  /** Adds a user with PASSWORD and returns its id. */
  addUser(email: string, role: Role, clientId?: string | null): Promise<string>;
  /** Signs in through POST /auth/callback and returns the access token. */
  login(email: string, password?: string): Promise<string>;
  /** An injected request with JSON (or a string or bytes: requestsTo) and an optional Bearer token. */
  request(options: {
    method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'OPTIONS';
    url: string;
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** Creates a client as the admin and returns its id. */
  createClient(adminToken: string, name?: string): Promise<string>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'agency-desk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function randomKey(): DatabaseKey {
  return { kind: 'raw', hex: randomBytes(32).toString('hex') };
}

/**
 * Requests to an app as a client sends them (app.inject): a token, and a body as JSON unless it is a
 * string or bytes (a CSV, a workbook: give its content-type in `headers`).
 */
export function requestsTo(app: TestApp['app']): TestApp['request'] {
  return ({ method, url, token, body, headers }) =>
    app.inject({
      method,
      url,
      headers: {
        host: '127.0.0.1:4870',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) }
        : {}),
    });
}

/** The real app over a real encrypted database in a fresh directory; close() removes it all. */
export async function buildTestApp(
  options: {
    clock?: TestClock;
    nativeBinding?: string;
    logger?: { level: string; stream: NodeJS.WritableStream };
  } = {},
): Promise<TestApp> {
  const dataDir = tempDir();
  const key = randomKey();
  const store = openStore(databaseFileIn(dataDir), key, { nativeBinding: options.nativeBinding });
  const clock = options.clock ?? new TestClock();
  const app = await buildApp({ store, clock, logger: options.logger ?? false, dashboardDir: null });
  const organizationId = insertOrganization(store.db, 'Test Agency', clock.now());
  const passwordHash = await hashPassword(PASSWORD);

  const request = requestsTo(app);

  const testApp: TestApp = {
    app,
    store,
    clock,
    dataDir,
    key,
    organizationId,
    async addUser(email, role, clientId = null) {
      return insertUser(store.db, { organizationId, email, passwordHash, role, clientId }, clock.now()).id;
    },
    async login(email, password = PASSWORD) {
      const response = await request({ method: 'POST', url: '/auth/callback', body: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.statusCode} ${response.body}`);
      return response.json<{ access_token: string }>().access_token;
    },
    request,
    async createClient(adminToken, name = 'Acme Coffee') {
      const response = await request({ method: 'POST', url: '/api/clients', token: adminToken, body: { name } });
      if (response.statusCode !== 201) throw new Error(`create client: ${response.statusCode} ${response.body}`);
      return response.json<{ id: string }>().id;
    },
    async close() {
      await app.close();
      store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** The app of a database opened again, as after a restart: its requests, and a sign-in that gives a token. */
export interface Restarted {
  store: Store;
  request: TestApp['request'];
  signIn(email: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Closes the test app, runs `between` on its closed database file (an older release's schema, say), and
 * opens the file again with a new app, as a restart (an upgrade) does. The directory stays: the caller
 * removes it.
 */
export async function restarted(t: TestApp, between: (file: string) => void = () => {}): Promise<Restarted> {
  await t.app.close();
  t.store.close();
  const file = databaseFileIn(t.dataDir);
  between(file);
  const store = openStore(file, t.key);
  const app = await buildApp({ store, logger: false, dashboardDir: null });
  const request = requestsTo(app);
  return {
    store,
    request,
    async signIn(email) {
      const response = await request({ method: 'POST', url: '/auth/callback', body: { email, password: PASSWORD } });
      return response.json<{ access_token: string }>().access_token;
    },
    async close() {
      await app.close();
      store.close();
    },
  };
}

/** A test app with an Admin signed in and one client: what a test of a restart starts from. */
export async function adminWithClient(clientName: string): Promise<{ t: TestApp; admin: string; clientId: string }> {
  const t = await buildTestApp();
  await t.addUser('admin@example.com', 'admin');
  const admin = await t.login('admin@example.com');
  return { t, admin, clientId: await t.createClient(admin, clientName) };
}
