import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Me, SetupStatus, TokenResponse } from '../../server/auth/schemas.js';
import { Client, CreatedClient } from '../../server/clients/schemas.js';
import { Success } from '../../server/http/schemas.js';
import { DryRunResponse, Location, UploadResponse } from '../../server/locations/schemas.js';
import { User } from '../../server/users/schemas.js';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

// The response schemas name these formats; TypeBox's checker knows none by itself.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));

const NUM_RUNS = 200;

let t: TestApp;
let admin: string;
let victimId: string;
let clientIds: string[];

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
  } = await buildSignedInApp({ admin: 'admin' }));
  victimId = await t.addUser('victim@example.com', 'viewer');
  clientIds = [await t.createClient(admin, 'Fuzzed One'), await t.createClient(admin, 'Fuzzed Two')];
  const upload = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin,
    body: {
      clientId: clientIds[0],
      rows: [{ name: 'Seed', address: '1 Seed St', google_place_id: 'ChIJseedSeedSeedSeed01' }],
    },
  });
  expect(upload.statusCode).toBe(201);
});
afterAll(() => t.close());

// ---- arbitraries ----------------------------------------------------------------------------

const text = fc.string({ maxLength: 40 });
const unicode = fc.string({ unit: 'grapheme', maxLength: 40 });
const ascii = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });

const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', '\u0000', [], {}),
  fc.integer({ min: 1, max: 3_000_000 }).map((length) => 'x'.repeat(length)),
);

/** Known ids (which may be deleted by the fuzz along the way) and any other text. */
const anyId: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: fc.constantFrom('known-client-0', 'known-client-1', 'victim'), weight: 3 },
    fc.uuid(),
    unicode,
    fc.constantFrom('', '..', '%00', 'null', '0', '-1', `${randomUUID()}-extra`),
  )
  .map((id) =>
    id === 'known-client-0' ? clientIds[0]! : id === 'known-client-1' ? clientIds[1]! : id === 'victim' ? victimId : id,
  );

const maybe = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: value, weight: 6 }, { arbitrary: anything, weight: 1 });

/** A row of plausible values: what a real import sends. */
const plausibleRow = fc.record(
  {
    name: unicode,
    address: fc.option(text),
    city: fc.option(text),
    state: fc.option(text),
    zip: fc.option(fc.constantFrom('94043', '75001', 'SW1A 1AA', '12345', 'ABCDE')),
    country: fc.option(fc.constantFrom('US', 'FR', 'France', 'usa', 'Mars', '')),
    google_place_id: fc.option(fc.constantFrom('ChIJseedSeedSeedSeed01', 'ChIJN1t_tDeuEmsRUsoyG83frY4', 'bad')),
  },
  { requiredKeys: ['name'] },
);

const row = fc.oneof(
  { arbitrary: plausibleRow, weight: 4 },
  {
    arbitrary: fc.record(
      {
        name: maybe(text),
        address: maybe(fc.option(text)),
        city: maybe(fc.option(text)),
        zip: maybe(fc.option(text)),
        country: maybe(fc.option(text)),
        google_place_id: maybe(fc.option(text)),
      },
      { requiredKeys: [] },
    ),
    weight: 2,
  },
  { arbitrary: anything, weight: 1 },
);

const knownClientId = fc.constantFrom(0, 1).map((index) => clientIds[index]!);

/** Bodies a real caller would send, per endpoint: the fuzz also has to reach the success paths. */
const PLAUSIBLE = {
  login: fc.record({
    email: fc.constantFrom('admin@example.com', 'victim@example.com', 'nobody@example.com'),
    password: text,
  }),
  client: fc.record({
    name: unicode,
    industry: fc.option(text),
    website: fc.option(fc.constantFrom('example.com', 'nope')),
  }),
  upload: fc.record({ clientId: knownClientId, rows: fc.array(plausibleRow, { maxLength: 8 }) }),
  user: fc.record(
    {
      email: fc.emailAddress(),
      password: fc.string({ minLength: 6, maxLength: 20 }),
      role: fc.constantFrom('admin', 'viewer', 'client_viewer'),
      clientId: fc.option(knownClientId),
    },
    { requiredKeys: ['email', 'password', 'role'] },
  ),
};

const FIELDS = {
  name: maybe(unicode),
  industry: maybe(fc.option(text)),
  website: maybe(fc.option(fc.constantFrom('example.com', 'https://a.example/x', 'nope', 'javascript:x'))),
  email: maybe(fc.oneof(fc.emailAddress(), fc.constantFrom('admin@example.com', 'VICTIM@example.com'))),
  password: maybe(fc.string({ maxLength: 20 })),
  role: maybe(fc.constantFrom('admin', 'viewer', 'client_viewer', 'owner')),
  clientId: maybe(fc.option(anyId)),
  rows: maybe(fc.array(row, { maxLength: 6 })),
  refresh_token: maybe(fc.base64String({ minLength: 40, maxLength: 48 })),
  organization_name: maybe(text),
};
type Field = keyof typeof FIELDS;

function bodyText(fields: readonly Field[], plausible?: fc.Arbitrary<unknown>): fc.Arbitrary<string | undefined> {
  const known = fc.record(Object.fromEntries(fields.map((field) => [field, FIELDS[field]])), { requiredKeys: [] });
  const json = fc.oneof(
    { arbitrary: known, weight: 6 },
    {
      arbitrary: fc.tuple(known, fc.dictionary(text, anything, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })),
      weight: 1,
    },
    { arbitrary: anything, weight: 1 },
  );
  return fc.oneof(
    { arbitrary: json.map((value) => JSON.stringify(value)), weight: 6 },
    { arbitrary: (plausible ?? json).map((value) => JSON.stringify(value)), weight: 4 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    // Malformed JSON: any text, or valid JSON cut short.
    {
      arbitrary: fc.oneof(
        ascii,
        json.map((value) => (JSON.stringify(value) ?? '').slice(0, -1)),
      ),
      weight: 2,
    },
    // Prototype poisoning, at the top or inside a value.
    {
      arbitrary: fc
        .tuple(
          known,
          fc.constantFrom('"__proto__":{"polluted":1}', '"constructor":{"prototype":{"polluted":1}}'),
          fc.boolean(),
        )
        .map(([value, poison, nested]) => {
          const inner = JSON.stringify(value);
          const body = inner === '{}' ? `{${poison}}` : `{${poison},${inner.slice(1)}`;
          return nested ? `{"rows":[${body}],"name":${body}}` : body;
        }),
      weight: 2,
    },
    // Deep nesting.
    {
      arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
      weight: 1,
    },
  );
}

/** Known parameters with plausible or random values, plus random pairs, repeated keys included. */
function queryString(keys: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    anyId,
    fc.integer({ min: -2, max: 200_000 }).map(String),
    fc.constantFrom('true', 'false', 'keep', 'skip', '1e3', ''),
    text,
  );
  const known = fc.array(fc.tuple(fc.constantFrom(...keys), value), { maxLength: keys.length + 1 });
  const random = fc.array(fc.tuple(text, value), { maxLength: 2 });
  return fc
    .tuple(known, fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: random, weight: 1 }))
    .map(([a, b]) => [...a, ...b])
    .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));
}

const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant('admin'), weight: 4 },
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: fc.base64String({ minLength: 20, maxLength: 60 }).map((token) => `Bearer ${token}`), weight: 1 },
  { arbitrary: ascii, weight: 1 },
);

const randomHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.oneof(
      fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
      ascii,
    ),
    origin: fc.oneof(fc.constant('http://127.0.0.1:4870'), ascii),
    host: fc.oneof(fc.constantFrom('localhost:4870', 'evil.example'), ascii),
    accept: ascii,
    'x-forwarded-for': ascii,
  },
  { requiredKeys: [] },
);

/** Mostly the headers a real caller sends, sometimes random ones. */
const extraHeaders = fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: randomHeaders, weight: 1 });

// ---- the endpoints --------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface FuzzedEndpoint {
  name: string;
  method: Method;
  url: fc.Arbitrary<string>;
  body: fc.Arbitrary<string | undefined>;
  /** The documented success statuses and the shape of each. */
  success: Record<number, TSchema>;
  /** For logout: the admin token must survive, so only other tokens are sent. */
  withoutAdminToken?: boolean;
  /** Rows a refused request may write, by table (an SQL condition): the sign-in throttle's one entry. */
  writesWhenRefused?: Record<string, string>;
}

const noBody = fc.constant(undefined);
const fixed = (url: string) => fc.constant(url);

const ENDPOINTS: FuzzedEndpoint[] = [
  {
    name: 'POST /auth/callback',
    method: 'POST',
    url: fixed('/auth/callback'),
    body: bodyText(['email', 'password'], PLAUSIBLE.login),
    success: { 200: TokenResponse },
    // A burst of wrong passwords that reaches an account's throttle is one audit entry (issue 11).
    writesWhenRefused: { audit_entries: "action = 'user.sign_in_throttled'" },
  },
  {
    name: 'POST /auth/refresh',
    method: 'POST',
    url: fixed('/auth/refresh'),
    body: bodyText(['refresh_token']),
    success: { 200: TokenResponse },
  },
  {
    name: 'POST /auth/logout',
    method: 'POST',
    url: fixed('/auth/logout'),
    body: bodyText([]),
    success: { 200: Success },
    withoutAdminToken: true,
  },
  {
    name: 'GET /auth/setup',
    method: 'GET',
    url: queryString(['x']).map((q) => `/auth/setup${q}`),
    body: noBody,
    success: { 200: SetupStatus },
  },
  {
    name: 'POST /auth/setup',
    method: 'POST',
    url: fixed('/auth/setup'),
    body: bodyText(['organization_name', 'email', 'password']),
    success: { 201: TokenResponse },
  },
  {
    name: 'GET /api/me',
    method: 'GET',
    url: queryString(['x']).map((q) => `/api/me${q}`),
    body: noBody,
    success: { 200: Me },
  },
  {
    name: 'GET /api/clients',
    method: 'GET',
    url: queryString(['limit', 'offset']).map((q) => `/api/clients${q}`),
    body: noBody,
    success: { 200: Type.Array(Client) },
  },
  {
    name: 'POST /api/clients',
    method: 'POST',
    url: fixed('/api/clients'),
    body: bodyText(['name', 'industry', 'website'], PLAUSIBLE.client),
    success: { 201: CreatedClient },
  },
  {
    name: 'GET /api/locations',
    method: 'GET',
    url: fc
      .oneof(
        queryString(['clientId', 'clientId', 'limit', 'offset']),
        fc
          .tuple(knownClientId, fc.option(fc.nat(5)))
          .map(([id, limit]) => `?clientId=${id}${limit === null ? '' : `&limit=${limit + 1}`}`),
      )
      .map((q) => `/api/locations${q}`),
    body: noBody,
    success: { 200: Type.Array(Location) },
  },
  {
    name: 'POST /api/locations/upload',
    method: 'POST',
    url: queryString(['dryRun', 'duplicates']).map((q) => `/api/locations/upload${q}`),
    body: bodyText(['clientId', 'rows'], PLAUSIBLE.upload),
    success: { 200: DryRunResponse, 201: UploadResponse },
  },
  { name: 'GET /api/users', method: 'GET', url: fixed('/api/users'), body: noBody, success: { 200: Type.Array(User) } },
  {
    name: 'POST /api/users',
    method: 'POST',
    url: fixed('/api/users'),
    body: bodyText(['email', 'password', 'role', 'clientId'], PLAUSIBLE.user),
    success: { 201: User },
  },
  {
    name: 'PATCH /api/users/:id',
    method: 'PATCH',
    url: anyId.map((id) => `/api/users/${encodeURIComponent(id)}`),
    body: bodyText(['email', 'password', 'role', 'clientId'], PLAUSIBLE.user),
    success: { 200: User },
  },
  // Last: they remove the known client and user the endpoints above aim at.
  {
    name: 'DELETE /api/clients/:clientId',
    method: 'DELETE',
    url: anyId.map((id) => `/api/clients/${encodeURIComponent(id)}`),
    body: noBody,
    success: { 200: Success },
  },
  {
    name: 'DELETE /api/users/:id',
    method: 'DELETE',
    url: anyId.map((id) => `/api/users/${encodeURIComponent(id)}`),
    body: noBody,
    success: { 200: Success },
  },
];

describe('fuzz: random and malformed requests at every endpoint', () => {
  it.each(ENDPOINTS.map((endpoint) => [endpoint.name, endpoint] as const))(
    '%s: no 5xx, a JSON error or a documented success, and a refused request changes nothing',
    async (_name, endpoint) => {
      await fc.assert(
        fc.asyncProperty(endpoint.url, endpoint.body, authorization, extraHeaders, async (url, body, auth, headers) => {
          const token = auth === 'admin' ? (endpoint.withoutAdminToken ? undefined : admin) : undefined;
          const authHeader = auth !== undefined && auth !== 'admin' ? { authorization: auth } : {};
          const except = endpoint.writesWhenRefused ?? {};
          const before = dataSnapshot(t.store.db, except);
          const response = await t.app.inject({
            method: endpoint.method,
            url,
            headers: {
              host: '127.0.0.1:4870',
              ...(token ? { authorization: `Bearer ${token}` } : authHeader),
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...headers,
            },
            ...(body !== undefined ? { payload: body } : {}),
          });
          expect(response.statusCode, response.body.slice(0, 500)).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expectErrorBody(response, response.statusCode);
            expect(dataSnapshot(t.store.db, except)).toEqual(before);
          } else {
            const schema = endpoint.success[response.statusCode];
            expect(schema, `undocumented status ${response.statusCode}: ${response.body.slice(0, 300)}`).toBeDefined();
            expect(Value.Check(schema!, response.json()), response.body.slice(0, 500)).toBe(true);
          }
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  it('the admin session survived the fuzz (the requests above really ran signed in)', async () => {
    expect((await t.request({ method: 'GET', url: '/api/me', token: admin })).statusCode).toBe(200);
  });
});
