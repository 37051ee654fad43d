import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

let t: TestApp;
let admin: string;
let viewer: string;
let clientId: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin, viewer },
  } = await buildSignedInApp({ admin: 'admin', viewer: 'viewer' }));
  clientId = await t.createClient(admin, 'Hardened Client');
});
afterAll(() => t.close());

type Request = Parameters<TestApp['request']>[0];

/** One request for each kind of error the API sends. */
const ERRORS: [string, number, () => Request][] = [
  [
    'validation error (POST /api/clients without name)',
    400,
    () => ({ method: 'POST', url: '/api/clients', token: admin, body: {} }),
  ],
  ['malformed JSON', 400, () => ({ method: 'POST', url: '/api/clients', token: admin, body: '{"name": ' })],
  [
    'prototype poisoning',
    400,
    () => ({ method: 'POST', url: '/api/clients', token: admin, body: '{"name":"x","__proto__":{"a":1}}' }),
  ],
  ['malformed id', 400, () => ({ method: 'DELETE', url: '/api/clients/not-a-uuid', token: admin })],
  [
    'import row errors',
    400,
    () => ({ method: 'POST', url: '/api/locations/upload', token: admin, body: { clientId, rows: [{}] } }),
  ],
  ['no token', 401, () => ({ method: 'GET', url: '/api/clients' })],
  [
    'wrong password',
    401,
    () => ({ method: 'POST', url: '/auth/callback', body: { email: 'admin@example.com', password: 'nope nope' } }),
  ],
  [
    'viewer creating a client',
    403,
    () => ({ method: 'POST', url: '/api/clients', token: viewer, body: { name: 'x' } }),
  ],
  ['unknown route', 404, () => ({ method: 'GET', url: '/api/nothing-here', token: admin })],
  ['unknown client', 404, () => ({ method: 'DELETE', url: `/api/clients/${randomUUID()}`, token: admin })],
  [
    'setup after setup',
    409,
    () => ({
      method: 'POST',
      url: '/auth/setup',
      body: { organization_name: 'X', email: 'x@example.com', password: 'long enough' },
    }),
  ],
  [
    'body over 1 MiB',
    413,
    () => ({ method: 'POST', url: '/api/clients', token: admin, body: { name: 'x'.repeat(1_100_000) } }),
  ],
  [
    'text/plain body',
    415,
    () => ({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    }),
  ],
  ['foreign Host', 400, () => ({ method: 'GET', url: '/health', headers: { host: 'evil.example' } })],
  // Fastify answers these itself, before any hook, with a `code` field of its own (issue 13, finding 7).
  ['malformed URL', 400, () => ({ method: 'GET', url: '/api/clients/%E0%A4%A', token: admin })],
  ['malformed URL on a public route', 400, () => ({ method: 'POST', url: '/auth/%c0', body: {} })],
  ['route parameter too long', 414, () => ({ method: 'DELETE', url: `/api/clients/${'a'.repeat(300)}`, token: admin })],
  [
    'foreign Origin',
    403,
    () => ({ method: 'GET', url: '/api/clients', token: admin, headers: { origin: 'http://evil.example' } }),
  ],
];

describe('error bodies', () => {
  it.each(ERRORS)(
    '%s -> %i with exactly {statusCode, error, message} (+details), no stack',
    async (_name, status, request) => {
      expectErrorBody(await t.request(request()), status);
    },
  );

  it("a malformed or too long address is said in the API's words, the path cut short (a walk got Fastify's, with 300 characters of id)", async () => {
    const long = expectErrorBody(
      await t.request({ method: 'DELETE', url: `/api/clients/${'a'.repeat(300)}`, token: admin }),
      414,
    );
    expect(long.message).toBe(
      `The address /api/clients/${'a'.repeat(67)}… is too long: an id in it is at most 200 characters`,
    );
    // GET too, which the dashboard's files route would otherwise take, and the route's other methods (a probe).
    for (const [method, url] of [
      ['GET', `/api/locations/${'a'.repeat(250)}`],
      ['GET', `/api/clients/${'a'.repeat(250)}`],
      ['PATCH', `/api/locations/${'a'.repeat(250)}`],
      ['GET', `/api/locations/${'a'.repeat(250)}?fields=all`],
    ] as const) {
      const tooLong = expectErrorBody(
        await t.request({ method, url, token: admin, body: method === 'PATCH' ? {} : undefined }),
        414,
      );
      expect(tooLong.message, `${method} ${url}`).toMatch(/is too long: an id in it is at most 200 characters$/);
    }
    const bad = expectErrorBody(await t.request({ method: 'GET', url: '/api/locations/%ZZ', token: admin }), 400);
    expect(bad.message).toBe(
      'The address /api/locations/%ZZ holds a % that is not followed by two hexadecimal digits (write % as %25)',
    );
    const missing = expectErrorBody(
      await t.request({ method: 'GET', url: `/api/nothing/${'b'.repeat(300)}`, token: admin }),
      404,
    );
    expect(missing.message).toBe(`No route GET /api/nothing/${'b'.repeat(67)}…`);
  });

  it('validation errors carry details with a JSON pointer to the wrong value', async () => {
    const error = expectErrorBody(
      await t.request({ method: 'POST', url: '/api/clients', token: admin, body: { name: 5 } }),
      400,
    );
    expect(error.details).toEqual([expect.objectContaining({ path: '/body/name' })]);
  });

  it('error bodies are not cached by anyone (Cache-Control: no-store on /api and /auth)', async () => {
    for (const [, , request] of ERRORS.filter(([, , r]) => /^\/(api|auth)\//.test(r().url) && !r().headers?.host)) {
      expect((await t.request(request())).headers['cache-control']).toBe('no-store');
    }
  });
});

describe('Host header (DNS rebinding)', () => {
  it.each([
    'evil.example',
    'evil.example:4870',
    'localhost.evil.example',
    '127.0.0.1.nip.io:4870',
    '192.168.1.10:4870',
    'example.com:80',
    // Issue 13, finding 7: the authority is a host and an optional port, nothing else.
    'localhost:evil.com',
    '[::1].evil.com',
    'localhost:4921@evil.com',
    'localhost@evil.com',
    'user:pass@localhost:4870',
    'localhost:4870:4870',
    'localhost:99999',
    'localhost:',
    'localhost.',
    '127.0.0.1:4870/evil.example',
    '127.0.0.1#.evil.example',
    '[::1]evil.example',
    '[::1]:4870.evil.example',
  ])('Host %j -> 4xx and the request is not served', async (host) => {
    const response = await t.request({ method: 'GET', url: '/api/clients', token: admin, headers: { host } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain('Hardened Client');
  });

  it.each(['localhost', 'localhost:4870', 'LocalHost:4870', '127.0.0.1', '127.0.0.1:4870', '[::1]', '[::1]:4870'])(
    'Host %j is served',
    async (host) => {
      const response = await t.request({ method: 'GET', url: '/api/clients', token: admin, headers: { host } });
      expect(response.statusCode).toBe(200);
    },
  );
});

describe('Origin header (cross-site requests)', () => {
  it.each(['http://evil.example', 'http://127.0.0.1:4871', 'https://127.0.0.1:4870', 'null', 'http://127.0.0.1'])(
    'Origin %j -> 403',
    async (origin) => {
      const response = await t.request({ method: 'GET', url: '/api/clients', token: admin, headers: { origin } });
      expectErrorBody(response, 403);
    },
  );

  it('a foreign Origin on POST /auth/callback -> 403 before the password is looked at', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/callback',
      body: { email: 'admin@example.com', password: 'correct horse battery' },
      headers: { origin: 'http://evil.example' },
    });
    expectErrorBody(response, 403);
  });

  it('a foreign Origin cannot create a client', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: { name: 'Cross Site Client' },
      headers: { origin: 'http://evil.example' },
    });
    expectErrorBody(response, 403);
    expect(t.store.db.prepare("SELECT count(*) FROM clients WHERE name = 'Cross Site Client'").pluck().get()).toBe(0);
  });

  it("the server's own origin is accepted", async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/clients',
      token: admin,
      headers: { origin: 'http://127.0.0.1:4870' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('no CORS', () => {
  function corsHeaders(headers: Record<string, unknown>): string[] {
    return Object.keys(headers).filter((name) => name.toLowerCase().startsWith('access-control-'));
  }

  it.each(['http://127.0.0.1:4870', 'http://evil.example'])(
    'an OPTIONS preflight from %s gets no access-control headers',
    async (origin) => {
      const response = await t.request({
        method: 'POST',
        url: '/api/clients',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(corsHeaders(response.headers)).toEqual([]);
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/clients',
        headers: { host: '127.0.0.1:4870', origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
      expect(corsHeaders(preflight.headers)).toEqual([]);
    },
  );

  it('no response of the API carries access-control headers', async () => {
    const requests: Request[] = [
      { method: 'GET', url: '/api/clients', token: admin, headers: { origin: 'http://127.0.0.1:4870' } },
      { method: 'GET', url: '/health', headers: { origin: 'http://evil.example' } },
      { method: 'POST', url: '/auth/callback', body: { email: 'a@example.com', password: 'x' } },
      ...ERRORS.map(([, , request]) => request()),
    ];
    for (const request of requests) expect(corsHeaders((await t.request(request)).headers)).toEqual([]);
  });
});

describe('request bodies', () => {
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/jsonx',
  ])('POST /api/clients with Content-Type %s -> 415 and nothing created', async (type) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: JSON.stringify({ name: 'Form Posted' }),
      headers: { 'content-type': type },
    });
    expectErrorBody(response, 415);
    expect(t.store.db.prepare("SELECT count(*) FROM clients WHERE name = 'Form Posted'").pluck().get()).toBe(0);
  });

  it.each(['gzip', 'br', 'deflate', 'GZIP, identity'])(
    'a body with Content-Encoding %s -> 415 naming it, nothing created (it would be read as text)',
    async (encoding) => {
      for (const [url, body] of [
        ['/api/clients', { name: `Encoded ${encoding}` }],
        ['/api/locations/upload', { clientId, rows: [{ name: `Encoded ${encoding}` }] }],
      ] as const) {
        const response = await t.request({
          method: 'POST',
          url,
          token: admin,
          body,
          headers: { 'content-encoding': encoding },
        });
        expect(expectErrorBody(response, 415).message).toContain(`"${encoding}"`);
      }
      const named =
        "SELECT (SELECT count(*) FROM clients WHERE name LIKE 'Encoded%') + (SELECT count(*) FROM locations WHERE name LIKE 'Encoded%')";
      expect(t.store.db.prepare(named).pluck().get()).toBe(0);
    },
  );

  /** One location imported into the client: the answer's operation and the location. */
  const importOne = async (name: string) =>
    (
      await t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token: admin,
        body: { clientId, rows: [{ name }] },
      })
    ).json<{ operation_id: string; locations: { id: string }[] }>();

  it('a query parameter a route does not read -> 400 naming it, nothing written (PATCH ...?preview=true does not write)', async () => {
    const location = (await importOne('Queried')).locations[0]!;
    // PATCH reads ?dryRun= (the editor's check as one leaves a field); a parameter it does not read is refused.
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/locations/${location.id}?preview=true`,
      token: admin,
      body: { name: 'Renamed' },
    });
    expect(expectErrorBody(patched, 400).details).toEqual([expect.objectContaining({ path: '/querystring/preview' })]);
    const stored = await t.request({ method: 'GET', url: `/api/locations/${location.id}`, token: admin });
    expect(stored.json()).toMatchObject({ name: 'Queried' });
    expectErrorBody(await t.request({ method: 'GET', url: '/api/users?limit=1', token: admin }), 400);
  });

  it('a body sent to a route that reads none -> 400 naming its fields, nothing done (undo {"dryRun": true} does not undo)', async () => {
    const imported = await importOne('Bodied');
    const undo = await t.request({
      method: 'POST',
      url: `/api/operations/${imported.operation_id}/undo`,
      token: admin,
      body: { dryRun: true },
    });
    expect(expectErrorBody(undo, 400).message).toBe(
      `POST /api/operations/${imported.operation_id}/undo takes no body, and this one has dryRun: nothing was done. ` +
        'dryRun goes in the query string (?dryRun=…).',
    );
    const id = imported.locations[0]!.id;
    const removed = await t.request({ method: 'DELETE', url: `/api/locations/${id}`, token: admin, body: [id] });
    expect(expectErrorBody(removed, 400).message).toBe(`DELETE /api/locations/${id} takes no body: nothing was done`);
    const stored = await t.request({ method: 'GET', url: `/api/locations/${id}`, token: admin });
    expect(stored.statusCode).toBe(200);
    const backups = await t.request({ method: 'GET', url: '/api/backups', token: admin });
    const backup = await t.request({ method: 'POST', url: '/api/backups', token: admin, body: { label: 'before' } });
    expect(expectErrorBody(backup, 400).message).toBe(
      'POST /api/backups takes no body, and this one has label: nothing was done.',
    );
    expect((await t.request({ method: 'GET', url: '/api/backups', token: admin })).json()).toEqual(backups.json());
    // No body, null and {} are no body.
    for (const body of [undefined, null, {}]) {
      const dryRun = await t.request({
        method: 'POST',
        url: `/api/operations/${imported.operation_id}/undo?dryRun=true`,
        token: admin,
        body,
      });
      expect(dryRun.statusCode).toBe(200);
    }
  });

  it('Content-Encoding identity is a plain body', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: { name: 'Identity Client' },
      headers: { 'content-encoding': 'identity' },
    });
    expect(response.statusCode).toBe(201);
  });

  it('Content-Type application/json; charset=utf-8 is accepted', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: JSON.stringify({ name: 'Charset Client' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.statusCode).toBe(201);
  });

  it('POST /auth/callback with a form body -> 415', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/callback',
      body: 'email=admin%40example.com&password=correct+horse+battery',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectErrorBody(response, 415);
  });

  it('constructor.prototype in a body -> 400', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: '{"name":"x","constructor":{"prototype":{"polluted":true}}}',
    });
    expectErrorBody(response, 400);
  });
});

/** Every route the server has, as OpenAPI lists them: a new route is added here and hardened. */
const ROUTES = [
  'post /auth/callback',
  'post /auth/refresh',
  'post /auth/logout',
  'get /auth/setup',
  'post /auth/setup',
  'get /api/me',
  'patch /api/me',
  'get /api/backups',
  'post /api/backups',
  'get /api/backups/{name}/download',
  'get /api/clients',
  'post /api/clients',
  'delete /api/clients/{clientId}',
  'get /api/locations',
  'post /api/locations/upload',
  'get /api/locations/{id}',
  'patch /api/locations/{id}',
  'patch /api/locations',
  'delete /api/locations/{id}',
  'post /api/locations/delete',
  'get /api/mappings',
  'post /api/mappings',
  'patch /api/mappings/{id}',
  'delete /api/mappings/{id}',
  'get /api/audit',
  'post /api/operations/{id}/undo',
  'get /api/clients/{clientId}',
  'patch /api/clients/{clientId}',
  'get /api/users',
  'post /api/users',
  'patch /api/users/{id}',
  'delete /api/users/{id}',
  'get /api/tokens',
  'post /api/tokens',
  'delete /api/tokens/{id}',
  'post /auth/device',
  'post /auth/token',
  'get /api/device',
  'post /api/device/approve',
  'post /api/device/deny',
];

describe('public routes', () => {
  it('GET /health without auth -> 200 {status: "ok"}', async () => {
    const response = await t.request({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('API responses say X-Content-Type-Options: nosniff', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/api/clients', token: admin })).headers['x-content-type-options'],
    ).toBe('nosniff');
  });

  it('GET /api/openapi.json without auth is an OpenAPI 3 document listing every route', async () => {
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, { responses: object }>> }>();
    expect(document.openapi).toMatch(/^3\./);
    const listed = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(listed.sort()).toEqual([...ROUTES].sort());
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations))
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    }
  });

  it('the OpenAPI document describes the upload body and the 201 response', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    }>();
    const upload = document.paths['/api/locations/upload']!.post!;
    expect(upload.requestBody).toBeDefined();
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413']));
  });

  it('GET /api/docs without auth serves an HTML page', async () => {
    const response = await t.request({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
    expect(response.body).toMatch(/<html/i);
  });
});

describe('the Authorization scheme is case-insensitive (RFC 9110 section 11.1)', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('%s <token> -> 200', async (scheme) => {
    const response = await t.request({
      method: 'GET',
      url: '/api/clients',
      headers: { authorization: `${scheme} ${admin}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each(['Basic', 'Bearer:', 'Bearerx', 'Token'])('%s <token> -> 401 saying the form', async (scheme) => {
    const response = await t.request({
      method: 'GET',
      url: '/api/clients',
      headers: { authorization: `${scheme} ${admin}` },
    });
    expect(expectErrorBody(response, 401).message).toBe('The Authorization header must be "Bearer <access token>"');
  });

  it('Bearer <a token too short to be one> -> 401 saying the token is wrong, not the form', async () => {
    const response = await t.request({ method: 'GET', url: '/api/clients', headers: { authorization: 'Bearer nope' } });
    expect(expectErrorBody(response, 401).message).toMatch(/^The access token is invalid or has expired/);
    // An API token cut short (it has the prefix): told so, not to sign in again (found by a script's walk).
    const cut = await t.request({
      method: 'GET',
      url: '/api/clients',
      headers: { authorization: 'Bearer adk_pat_abc' },
    });
    expect(expectErrorBody(cut, 401).message).toBe(
      'The API token is not valid: copy it whole, as it was shown when it was made',
    );
  });
});

describe('the dummy password hash of unknown e-mails', () => {
  it('is made when the app starts, not at the first sign-in with an unknown e-mail', async () => {
    vi.resetModules();
    const passwords = await import('../../server/auth/passwords.js');
    const { buildTestApp } = await import('../helpers/app.js');
    expect(passwords.isDummyHashPrepared()).toBe(false);
    const fresh = await buildTestApp();
    try {
      expect(passwords.isDummyHashPrepared()).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
