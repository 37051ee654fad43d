import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openStore, type Store } from '../../server/db/store.js';
import { DASHBOARD_CSP } from '../../server/http/dashboard.js';
import { databaseFileIn } from '../../server/start.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { randomKey, tempDir } from '../helpers/app.js';

const DASHBOARD = path.resolve(import.meta.dirname, '../fixtures/dashboard');

describe('the dashboard served at /', () => {
  let app: FastifyInstance;
  let store: Store;
  const dataDir = tempDir();
  beforeAll(async () => {
    store = openStore(databaseFileIn(dataDir), randomKey());
    app = await buildApp({ store, dashboardDir: DASHBOARD });
  });
  afterAll(async () => {
    await app.close();
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { host: '127.0.0.1:4870', ...headers } });

  it('GET / -> index.html with the Content-Security-Policy and no caching', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('Agency Desk (fixture)');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('GET /assets/<fingerprinted file> -> the file, cached for good', async () => {
    const response = await get('/assets/app-3f2a.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("textContent = 'fixture'");
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('GET a page path of the dashboard (a deep link) -> index.html', async () => {
    const response = await get('/clients/6f1c2a8e-1d1b-4c55-9a55-2f0c3f1e9b10');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Agency Desk (fixture)');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it("the API's paths are the API's behind the dashboard's files too: a long id's 414, a wrong method's 405", async () => {
    const long = `/api/locations/${'a'.repeat(250)}`;
    expectErrorBody(await get(long), 414);
    // HEAD, which each GET route answers, has the GET's status (its answer has no body).
    const head = await app.inject({ method: 'HEAD', url: long, headers: { host: '127.0.0.1:4870' } });
    expect(head.statusCode).toBe(414);
    // A path the API takes only by POST is not a page of the dashboard.
    const wrong = await get('/auth/callback');
    expect(expectErrorBody(wrong, 405).message).toBe('/auth/callback takes POST, not GET');
    expect(wrong.headers.allow).toBe('POST');
  });

  it('HEAD of a page path is its GET without the body (a review: it was a 404)', async () => {
    const head = await app.inject({
      method: 'HEAD',
      url: '/clients/6f1c2a8e-1d1b-4c55-9a55-2f0c3f1e9b10',
      headers: { host: '127.0.0.1:4870' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.body).toBe('');
  });

  it('GET a missing file -> 404 JSON, not the page', async () => {
    expectErrorBody(await get('/assets/missing-1234.js'), 404);
  });

  it('GET a path with "//" -> the 404 of no route, not a bare 403 (a probe)', async () => {
    // (An /api/ path asks for a token first: the probe's, signed in, met the same 403.)
    for (const url of ['/x//y', '//clients', '/assets//app-3f2a.js', '/a//b.js']) {
      const response = await get(url);
      expectErrorBody(response, 404);
      expect(response.json<{ message: string }>().message, url).toBe(`No route GET ${url}`);
    }
  });

  it('GET an unknown API path -> 404 JSON, not the page', async () => {
    expectErrorBody(await get('/api/nothing-here'), 404);
    expectErrorBody(await get('/auth/nothing-here'), 404);
  });

  it('POST to a page path -> 404 JSON', async () => {
    const response = await app.inject({ method: 'POST', url: '/clients', headers: { host: '127.0.0.1:4870' } });
    expectErrorBody(response, 404);
  });

  it('serves what a build wrote after the server started (a rebuild under a running server)', async () => {
    const root = tempDir();
    fs.cpSync(DASHBOARD, root, { recursive: true });
    const rebuilt = await buildApp({ store, dashboardDir: root });
    try {
      fs.writeFileSync(path.join(root, 'assets', 'app-9b1c.js'), "document.title = 'rebuilt';");
      fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><script src="/assets/app-9b1c.js"></script>');
      const inject = (url: string) => rebuilt.inject({ method: 'GET', url, headers: { host: '127.0.0.1:4870' } });
      const script = await inject('/assets/app-9b1c.js');
      expect(script.statusCode).toBe(200);
      expect(script.body).toContain('rebuilt');
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await inject('/clients')).body).toContain('app-9b1c.js');
      expectErrorBody(await inject('/assets/app-3f2a-gone.js'), 404);
      expectErrorBody(await inject('/api/nothing-here'), 404);
      // A dotfile that lands in the folder is never served.
      fs.writeFileSync(path.join(root, '.env'), 'SECRET=1');
      fs.mkdirSync(path.join(root, 'assets', '.git'));
      fs.writeFileSync(path.join(root, 'assets', '.git', 'config'), 'SECRET=2');
      for (const url of ['/.env', '/assets/.git/config', '/%2eenv']) {
        const response = await inject(url);
        expect(response.body, url).not.toContain('SECRET');
      }
    } finally {
      await rebuilt.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('GET a path outside the dashboard (traversal, encoded or not) -> 404, never a file', async () => {
    for (const url of ['/../package.json', '/assets/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json']) {
      const response = await get(url);
      expect([400, 404], url).toContain(response.statusCode);
      expect(response.body).not.toContain('"dependencies"');
    }
  });

  it('the Host guard covers the dashboard too (DNS rebinding)', async () => {
    expectErrorBody(await get('/', { host: 'attacker.example' }), 400);
  });
});
