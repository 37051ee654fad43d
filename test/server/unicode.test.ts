import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loneSurrogatePath } from '../../server/http/body.js';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

const MESSAGE = 'is not valid Unicode (a lone surrogate)';

describe('loneSurrogatePath', () => {
  it.each([
    ['a lone high surrogate', 'x\ud800y', ''],
    ['a lone low surrogate', '\udfff', ''],
    ['a high surrogate at the end', 'abc\udbff', ''],
    ['two high surrogates', '\ud800\ud800', ''],
    ['a low surrogate before a high one', '\udc00\ud800', ''],
    ['a well-formed pair', 'caf\u00e9 \ud83d\ude00', null],
    ['plain text', 'Bluebird Coffee', null],
    ['a number', 5, null],
    ['null', null, null],
  ])('%s -> %j', (_name, value, pointer) => {
    expect(loneSurrogatePath(value)).toBe(pointer);
  });

  it('names the first bad string in document order, as an RFC 6901 pointer', () => {
    expect(loneSurrogatePath({ a: 'ok', b: ['ok', { c: '\ud800' }], d: '\udc00' })).toBe('/b/1/c');
    expect(loneSurrogatePath({ 'a/b': { 'm~n': '\ud800' } })).toBe('/a~1b/m~0n');
    expect(loneSurrogatePath([[], [1, 'x', ['\udead']]])).toBe('/1/2/0');
  });

  it('a bad key names its own member', () => {
    expect(loneSurrogatePath({ ok: 1, ['bad\ud800']: 'fine' })).toBe('/bad\ud800');
  });

  it('any depth, without recursion', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(loneSurrogatePath(deep)).toBe('/0'.repeat(200_000));
  });
});

let t: TestApp;
let admin: string;
let adminId: string;
let clientId: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
    ids: { admin: adminId },
  } = await buildSignedInApp({ admin: 'admin' }));
  clientId = await t.createClient(admin, 'Unicode Client');
});
afterAll(() => t.close());

type Method = 'POST' | 'PATCH';
interface BodyRoute {
  method: Method;
  url: () => string;
  /** A valid body, whose fields are spoilt one at a time. */
  body: () => Record<string, unknown>;
  token: boolean;
}

// Every JSON body outside the import (test/server/import-*.test.ts covers its rows), by route.
const ROUTES: Record<string, BodyRoute> = {
  'POST /auth/callback': {
    method: 'POST',
    url: () => '/auth/callback',
    body: () => ({ email: 'admin@example.com', password: 'correct horse battery' }),
    token: false,
  },
  'POST /auth/refresh': {
    method: 'POST',
    url: () => '/auth/refresh',
    body: () => ({ refresh_token: 'a'.repeat(43) }),
    token: false,
  },
  'POST /auth/setup': {
    method: 'POST',
    url: () => '/auth/setup',
    body: () => ({ organization_name: 'Org', email: 'new@example.com', password: 'long enough' }),
    token: false,
  },
  'POST /api/clients': {
    method: 'POST',
    url: () => '/api/clients',
    body: () => ({ name: 'Surrogate Client', industry: 'Food', website: 'example.com' }),
    token: true,
  },
  'POST /api/users': {
    method: 'POST',
    url: () => '/api/users',
    body: () => ({ email: 'surrogate@example.com', password: 'long enough', role: 'client_viewer', clientId }),
    token: true,
  },
  'PATCH /api/users/:id': {
    method: 'PATCH',
    url: () => `/api/users/${adminId}`,
    body: () => ({ email: 'admin@example.com', password: 'long enough', role: 'admin', clientId: null }),
    token: true,
  },
};

/** Each text field of each body, spoilt with each kind of lone surrogate. */
const SPOILERS: [string, (text: string) => string][] = [
  ['a lone high surrogate inside', (text) => `${text.slice(0, 1)}\ud800${text.slice(1)}`],
  ['a lone low surrogate at the start', (text) => `\udc01${text}`],
  ['a high surrogate at the end', (text) => `${text}\udbff`],
  ['reversed halves of a pair', (text) => `${text}\ude00\ud83d`],
];

const FIELDS = Object.entries(ROUTES).flatMap(([route, spec]) =>
  Object.entries(spec.body())
    .filter(([, value]) => typeof value === 'string')
    .flatMap(([field]) => SPOILERS.map(([kind, spoil]) => [route, field, kind, spoil] as const)),
);

function send(spec: BodyRoute, body: unknown) {
  // JSON.stringify writes a lone surrogate as a \u escape (ES2019), as any client would send it.
  return t.request({ method: spec.method, url: spec.url(), token: spec.token ? admin : undefined, body });
}

function counts() {
  return t.store.db
    .prepare(
      `SELECT (SELECT count(*) FROM clients) AS clients, (SELECT count(*) FROM users) AS users,
              (SELECT group_concat(email || password_hash || role) FROM users) AS people,
              (SELECT count(*) FROM organizations) AS organizations`,
    )
    .get();
}

describe('a lone surrogate in any text field -> 400 naming the field; nothing is written or rewritten', () => {
  it('every route above has a text field (the table is not empty by mistake)', () => {
    expect(new Set(FIELDS.map(([route]) => route)).size).toBe(Object.keys(ROUTES).length);
  });

  it.each(FIELDS)('%s, field %s: %s', async (route, field, _kind, spoil) => {
    const spec = ROUTES[route]!;
    const body = spec.body();
    body[field] = spoil(body[field] as string);
    const before = counts();
    const error = expectErrorBody(await send(spec, body), 400);
    expect(error.message).toBe(`${field} ${MESSAGE}`);
    expect(error.details).toEqual([{ path: `/body/${field}`, message: MESSAGE }]);
    expect(counts()).toEqual(before);
  });

  it('a lone surrogate in an unknown field, a key or a nested value is named too', async () => {
    const spec = ROUTES['POST /api/clients']!;
    const nested = expectErrorBody(await send(spec, { name: 'x', extra: [{ deep: 'a\ud800' }] }), 400);
    expect(nested.details).toEqual([{ path: '/body/extra/0/deep', message: MESSAGE }]);
    const key = expectErrorBody(await send(spec, { name: 'x', ['k\udc00']: 1 }), 400);
    expect(key.details![0]!.path).toBe('/body/k\udc00');
    expect(key.message).toBe(`k\\uDC00 ${MESSAGE}`);
  });

  it('a body that is only a string with a lone surrogate', async () => {
    const error = expectErrorBody(await send(ROUTES['POST /api/clients']!, '"\\ud800"'), 400);
    expect(error.details).toEqual([{ path: '/body', message: MESSAGE }]);
  });

  it('a well-formed pair, written as \\u escapes or as UTF-8, is stored and returned exactly', async () => {
    const name = 'Caf\u00e9 \ud83d\ude00 \ud834\udd1e';
    for (const body of [JSON.stringify({ name }).replace(/[\u{10000}-\u{10FFFF}]/gu, escapePair), { name }]) {
      const created = await send(ROUTES['POST /api/clients']!, body);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<{ name: string }>().name).toBe(name);
      const listed = (await t.request({ method: 'GET', url: '/api/clients', token: admin })).json<
        { id: string; name: string }[]
      >();
      expect(listed.find((client) => client.id === created.json<{ id: string }>().id)!.name).toBe(name);
    }
  });
});

function escapePair(character: string): string {
  return [...character]
    .flatMap((codePoint) => {
      const value = codePoint.codePointAt(0)! - 0x10000;
      return [0xd800 + (value >> 10), 0xdc00 + (value & 0x3ff)];
    })
    .map((unit) => `\\u${unit.toString(16)}`)
    .join('');
}

describe('bytes that are not UTF-8 -> 400, never read as U+FFFD', () => {
  it.each([
    ['a surrogate encoded as UTF-8 (CESU-8)', Buffer.from([0xed, 0xa0, 0x80])],
    ['a lone continuation byte', Buffer.from([0x80])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding of "/"', Buffer.from([0xc0, 0xaf])],
    ['Latin-1 é', Buffer.from([0xe9])],
  ])('%s inside a client name, and inside an imported location name', async (_name, bytes) => {
    const before = counts();
    const sent = (url: string, head: string, tail: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: Buffer.concat([Buffer.from(`${head}"x`), bytes, Buffer.from(`y"${tail}`)]),
      });
    for (const response of [
      await sent('/api/clients', '{"name":', '}'),
      await sent('/api/locations/upload', `{"clientId":"${clientId}","rows":[{"name":`, '}]}'),
    ]) {
      const error = expectErrorBody(response, 400);
      expect(error.message).toMatch(/not valid UTF-8/);
    }
    expect(counts()).toEqual(before);
  });
});

describe('a control character in a name -> 400 in the words of a location field; nothing is written', () => {
  let mappingId: string;
  beforeAll(async () => {
    const mapping = await t.request({ method: 'POST', url: '/api/mappings', token: admin, body: mappingBody() });
    expect(mapping.statusCode, mapping.body).toBe(201);
    mappingId = mapping.json<{ id: string }>().id;
  });
  const mappingBody = () => ({ client_id: null, name: 'Sheet', columns: [{ header: 'Name', field: 'name' }] });

  // The names and short texts a person types, by route (a location's own fields have their rules in
  // locations/fields.ts, and test/server/import-modes.test.ts).
  const NAMED: Record<string, BodyRoute & { fields: string[] }> = {
    'POST /api/clients': { ...ROUTES['POST /api/clients']!, fields: ['name', 'industry', 'website'] },
    'PATCH /api/clients/:id': {
      method: 'PATCH',
      url: () => `/api/clients/${clientId}`,
      body: () => ({ name: 'Unicode Client', industry: 'Food', website: 'example.com' }),
      token: true,
      fields: ['name', 'industry', 'website'],
    },
    'POST /api/tokens': {
      method: 'POST',
      url: () => '/api/tokens',
      body: () => ({ name: 'Nightly sync', scopes: ['read'] }),
      token: true,
      fields: ['name'],
    },
    'POST /api/mappings': {
      method: 'POST',
      url: () => '/api/mappings',
      body: mappingBody,
      token: true,
      fields: ['name'],
    },
    'PATCH /api/mappings/:id': {
      method: 'PATCH',
      url: () => `/api/mappings/${mappingId}`,
      body: () => ({ name: 'Sheet' }),
      token: true,
      fields: ['name'],
    },
    'POST /auth/setup': { ...ROUTES['POST /auth/setup']!, fields: ['organization_name'] },
  };
  const CASES = Object.entries(NAMED).flatMap(([route, spec]) =>
    spec.fields.flatMap((field) =>
      [
        ['U+0000', 'a\u0000b'],
        ['U+001B', '\u001b[31mred'],
        ['U+007F', 'ok\u007f'],
      ].map(([code, value]) => [route, field, code!, value!] as const),
    ),
  );

  function names() {
    return t.store.db
      .prepare(
        `SELECT (SELECT group_concat(name || coalesce(industry, '') || coalesce(website, '')) FROM clients) AS clients,
                (SELECT group_concat(name) FROM api_tokens) AS tokens,
                (SELECT group_concat(name) FROM mappings) AS mappings,
                (SELECT group_concat(name) FROM organizations) AS organizations`,
      )
      .get();
  }

  it.each(CASES)('%s, field %s holding %s', async (route, field, code, value) => {
    const spec = NAMED[route]!;
    const before = names();
    const error = expectErrorBody(await send(spec, { ...spec.body(), [field]: value }), 400);
    const words = `holds the control character ${code}`;
    // The message names the field as every schema error of a body does ("name must NOT have ...").
    expect(error.message).toBe(`${field} ${words}`);
    expect(error.details).toEqual([{ path: `/body/${field}`, message: words }]);
    expect(names()).toEqual(before);
  });

  it('a tab or a line break in a client name is no control character: kept out by trimming at the ends only', async () => {
    const created = await send(ROUTES['POST /api/clients']!, { name: '\tTabbed Client\n' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ name: string }>().name).toBe('Tabbed Client');
  });

  it('an e-mail address with a control character was already refused, by its format', async () => {
    const spec = ROUTES['POST /api/users']!;
    const error = expectErrorBody(await send(spec, { ...spec.body(), email: 'a\u0000b@example.com' }), 400);
    expect(error.details).toEqual([{ path: '/body/email', message: 'must match format "email"' }]);
  });
});
