import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClient } from '../../server/clients/queries.js';
import type { Scope } from '../../server/tokens/scopes.js';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { addOtherOrganizationAdmin, rowCount } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

type SessionCaller = 'admin' | 'viewer' | 'client_viewer';
/**
 * API tokens (issue 10): the Admin's with each scope alone, the Admin's with every scope but admin
 * limited to the own client, the Viewer's and the Client Viewer's with read, and a revoked one.
 */
type TokenCaller =
  | 'token:read'
  | 'token:import'
  | 'token:clients'
  | 'token:admin'
  | 'token:own-client'
  | 'token:viewer'
  | 'token:client_viewer'
  | 'token:revoked';
type Caller = SessionCaller | 'anonymous' | TokenCaller;

interface TokenSpec {
  owner: SessionCaller;
  scopes: Scope[];
  ownClient?: boolean;
}
const TOKEN_SPECS: Record<TokenCaller, TokenSpec> = {
  'token:read': { owner: 'admin', scopes: ['read'] },
  'token:import': { owner: 'admin', scopes: ['import'] },
  'token:clients': { owner: 'admin', scopes: ['clients'] },
  'token:admin': { owner: 'admin', scopes: ['admin'] },
  'token:own-client': { owner: 'admin', scopes: ['read', 'import', 'clients'], ownClient: true },
  'token:viewer': { owner: 'viewer', scopes: ['read'] },
  'token:client_viewer': { owner: 'client_viewer', scopes: ['read'] },
  'token:revoked': { owner: 'admin', scopes: ['read', 'import', 'clients', 'admin'] },
};
const TOKEN_CALLERS = Object.keys(TOKEN_SPECS) as TokenCaller[];
const CALLERS: readonly Caller[] = ['admin', 'viewer', 'client_viewer', 'anonymous', ...TOKEN_CALLERS];

let t: TestApp;
let tokens: Record<SessionCaller, string>;
const apiTokens = {} as Record<TokenCaller, string>;
let ownClientId: string;
let otherClientId: string;

/** Makes an API token through POST /api/tokens, signed in as its owner. */
async function makeApiToken(spec: TokenSpec): Promise<{ id: string; token: string }> {
  const response = await t.request({
    method: 'POST',
    url: '/api/tokens',
    token: tokens[spec.owner],
    body: { name: 'role matrix', scopes: spec.scopes, ...(spec.ownClient ? { clientId: ownClientId } : {}) },
  });
  if (response.statusCode !== 201) throw new Error(`make token: ${response.statusCode} ${response.body}`);
  return response.json<{ id: string; token: string }>();
}

beforeAll(async () => {
  const built = await buildSignedInApp({
    admin: 'admin',
    viewer: 'viewer',
    client_viewer: { role: 'client_viewer', clientName: 'Own Client' },
  });
  t = built.t;
  tokens = built.tokens;
  ownClientId = built.clientIds['Own Client']!;
  otherClientId = await t.createClient(tokens.admin, 'Other Client');
  for (const caller of TOKEN_CALLERS) {
    const made = await makeApiToken(TOKEN_SPECS[caller]);
    apiTokens[caller] = made.token;
    if (caller === 'token:revoked')
      await t.request({ method: 'DELETE', url: `/api/tokens/${made.id}`, token: tokens.admin });
  }
});
afterAll(() => t.close());

function isTokenCaller(caller: Caller): caller is TokenCaller {
  return caller.startsWith('token:');
}

function tokenOf(caller: Caller): string | undefined {
  if (caller === 'anonymous') return undefined;
  return isTokenCaller(caller) ? apiTokens[caller] : tokens[caller];
}

/** A fresh credential of the same kind, for the requests that end the caller's own session or token. */
async function freshTokenOf(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous' || caller === 'token:revoked') return tokenOf(caller);
  if (isTokenCaller(caller)) return (await makeApiToken(TOKEN_SPECS[caller])).token;
  return t.login(`${caller}@example.com`);
}

/** A token of the caller's user that the caller may revoke. */
async function tokenIdFor(caller: Caller): Promise<string> {
  const owner = caller === 'anonymous' ? 'admin' : isTokenCaller(caller) ? TOKEN_SPECS[caller].owner : caller;
  return (await makeApiToken({ owner, scopes: ['read'] })).id;
}

/** A new location of a client, imported by the Admin; its id. */
async function newLocation(clientId: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: tokens.admin,
    body: { clientId, rows: [{ name: `Branch ${randomUUID()}` }] },
  });
  return response.json<{ locations: { id: string }[] }>().locations[0]!.id;
}

/** An import of one location into the client, as the admin: its operation, for an undo. */
async function newOperation(clientId: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: tokens.admin,
    body: { clientId, rows: [{ name: `Branch ${randomUUID()}` }] },
  });
  return response.json<{ operation_id: string }>().operation_id;
}

function mappingBody(clientId: string | null) {
  return { client_id: clientId, name: 'Yext export', columns: [{ header: 'Name', field: 'name' }] };
}

/** A saved mapping of the client, made by the Admin; its id. */
async function newMapping(clientId: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/mappings',
    token: tokens.admin,
    body: mappingBody(clientId),
  });
  return response.json<{ id: string }>().id;
}

function disposableClient(): string {
  return insertClient(
    t.store.db,
    t.organizationId,
    { name: 'Disposable', industry: null, website: null },
    t.clock.now(),
  ).id;
}

let serial = 0;
const uniqueEmail = () => `made-${++serial}@example.com`;

interface Endpoint {
  name: string;
  expected: Record<Caller, number>;
  send(caller: Caller): Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>;
}

const NO_TOKEN = Object.fromEntries(TOKEN_CALLERS.map((caller) => [caller, 403])) as Record<TokenCaller, number>;
/** Which token callers have a scope (a Viewer's or Client Viewer's token never has more than read). */
function tokensWith(scope: Scope, status: number): Record<TokenCaller, number> {
  const expected = { ...NO_TOKEN, 'token:revoked': 401 };
  for (const caller of TOKEN_CALLERS) {
    if (caller !== 'token:revoked' && TOKEN_SPECS[caller].scopes.includes(scope)) expected[caller] = status;
  }
  return expected;
}
const ALL_SIGNED_IN = { admin: 200, viewer: 200, client_viewer: 200, anonymous: 401 };
const ADMIN_ONLY = { admin: 200, viewer: 403, client_viewer: 403, anonymous: 401 };
const READ = { ...ALL_SIGNED_IN, ...tokensWith('read', 200) };
const EVERY_TOKEN = Object.fromEntries(
  TOKEN_CALLERS.map((caller) => [caller, caller === 'token:revoked' ? 401 : 200]),
) as Record<TokenCaller, number>;

/** The location writes, each on a location of the own client and of another one. */
const LOCATION_TARGETS: { where: string; clientId: () => string; exceptions: Partial<Record<Caller, number>> }[] = [
  { where: 'the own client', clientId: () => ownClientId, exceptions: {} },
  { where: 'another client', clientId: () => otherClientId, exceptions: { 'token:own-client': 403 } },
];

const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET /api/clients',
    expected: READ,
    send: (caller) => t.request({ method: 'GET', url: '/api/clients', token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/clients',
    // A token limited to one client cannot make another.
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('clients', 201), 'token:own-client': 403 },
    send: (caller) =>
      t.request({ method: 'POST', url: '/api/clients', token: tokenOf(caller), body: { name: 'Made By Role' } }),
  },
  {
    name: 'DELETE /api/clients/:id of another client',
    expected: { ...ADMIN_ONLY, ...tokensWith('clients', 200), 'token:own-client': 403 },
    send: (caller) =>
      t.request({ method: 'DELETE', url: `/api/clients/${disposableClient()}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/locations of the own client',
    expected: READ,
    send: (caller) =>
      t.request({ method: 'GET', url: `/api/locations?clientId=${ownClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/locations of another client',
    expected: { ...READ, client_viewer: 403, 'token:client_viewer': 403, 'token:own-client': 403 },
    send: (caller) =>
      t.request({ method: 'GET', url: `/api/locations?clientId=${otherClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/locations/upload',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('import', 201) },
    send: (caller) =>
      t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token: tokenOf(caller),
        body: { clientId: ownClientId, rows: [{ name: `Branch ${randomUUID()}` }] },
      }),
  },
  {
    name: 'POST /api/locations/upload into another client',
    // The body's client is checked inside the write: a client-limited token imports only into its own.
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('import', 201), 'token:own-client': 403 },
    send: (caller) =>
      t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token: tokenOf(caller),
        body: { clientId: otherClientId, rows: [{ name: `Branch ${randomUUID()}` }] },
      }),
  },
  {
    name: 'POST /api/locations/upload as text/csv',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('import', 201) },
    send: (caller) =>
      t.request({
        method: 'POST',
        url: `/api/locations/upload?clientId=${ownClientId}`,
        token: tokenOf(caller),
        headers: { 'content-type': 'text/csv' },
        body: `Name,City\nBranch ${randomUUID()},Berlin\n`,
      }),
  },
  {
    name: 'GET /api/mappings of the own client',
    expected: READ,
    send: (caller) =>
      t.request({ method: 'GET', url: `/api/mappings?clientId=${ownClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/mappings of another client',
    expected: { ...READ, client_viewer: 403, 'token:client_viewer': 403, 'token:own-client': 403 },
    send: (caller) =>
      t.request({ method: 'GET', url: `/api/mappings?clientId=${otherClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/mappings for the own client',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('import', 201) },
    send: (caller) =>
      t.request({ method: 'POST', url: '/api/mappings', token: tokenOf(caller), body: mappingBody(ownClientId) }),
  },
  {
    name: 'POST /api/mappings shared by every client',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('import', 201), 'token:own-client': 403 },
    send: (caller) =>
      t.request({ method: 'POST', url: '/api/mappings', token: tokenOf(caller), body: mappingBody(null) }),
  },
  {
    name: 'PATCH /api/mappings/:id of the own client',
    expected: { ...ADMIN_ONLY, ...tokensWith('import', 200) },
    send: async (caller) =>
      t.request({
        method: 'PATCH',
        url: `/api/mappings/${await newMapping(ownClientId)}`,
        token: tokenOf(caller),
        body: { name: 'Renamed' },
      }),
  },
  {
    name: 'DELETE /api/mappings/:id of another client',
    expected: { ...ADMIN_ONLY, ...tokensWith('import', 200), 'token:own-client': 403 },
    send: async (caller) =>
      t.request({ method: 'DELETE', url: `/api/mappings/${await newMapping(otherClientId)}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/clients/:id of the own client',
    expected: READ,
    send: (caller) => t.request({ method: 'GET', url: `/api/clients/${ownClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/clients/:id of another client',
    expected: { ...READ, client_viewer: 403, 'token:client_viewer': 403, 'token:own-client': 403 },
    send: (caller) => t.request({ method: 'GET', url: `/api/clients/${otherClientId}`, token: tokenOf(caller) }),
  },
  {
    name: 'PATCH /api/clients/:id of the own client',
    expected: { ...ADMIN_ONLY, ...tokensWith('clients', 200) },
    send: (caller) =>
      t.request({
        method: 'PATCH',
        url: `/api/clients/${ownClientId}`,
        token: tokenOf(caller),
        body: { industry: 'Coffee' },
      }),
  },
  {
    name: 'PATCH /api/clients/:id of another client',
    expected: { ...ADMIN_ONLY, ...tokensWith('clients', 200), 'token:own-client': 403 },
    send: (caller) =>
      t.request({
        method: 'PATCH',
        url: `/api/clients/${otherClientId}`,
        token: tokenOf(caller),
        body: { industry: 'Tea' },
      }),
  },
  {
    name: 'GET /api/locations/:id of the own client',
    expected: READ,
    send: async (caller) =>
      t.request({ method: 'GET', url: `/api/locations/${await newLocation(ownClientId)}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/locations/:id of another client',
    expected: { ...READ, client_viewer: 403, 'token:client_viewer': 403, 'token:own-client': 403 },
    send: async (caller) =>
      t.request({ method: 'GET', url: `/api/locations/${await newLocation(otherClientId)}`, token: tokenOf(caller) }),
  },
  ...LOCATION_TARGETS.flatMap(({ where, clientId, exceptions }): Endpoint[] => {
    const expected = { ...ADMIN_ONLY, ...tokensWith('import', 200), ...exceptions };
    return [
      {
        name: `PATCH /api/locations/:id of ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'PATCH',
            url: `/api/locations/${await newLocation(clientId())}`,
            token: tokenOf(caller),
            body: { city: 'Lisbon' },
          }),
      },
      {
        name: `PATCH /api/locations of ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'PATCH',
            url: '/api/locations',
            token: tokenOf(caller),
            body: { ids: [await newLocation(clientId())], set: { city: 'Porto' } },
          }),
      },
      {
        // A dry run writes nothing, yet says what the locations hold: the write's right, checked alike.
        name: `PATCH /api/locations?dryRun=true of ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'PATCH',
            url: '/api/locations?dryRun=true',
            token: tokenOf(caller),
            body: { ids: [await newLocation(clientId())], add_labels: ['summer'] },
          }),
      },
      {
        name: `DELETE /api/locations/:id of ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'DELETE',
            url: `/api/locations/${await newLocation(clientId())}`,
            token: tokenOf(caller),
          }),
      },
      {
        name: `POST /api/locations/delete of ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'POST',
            url: '/api/locations/delete',
            token: tokenOf(caller),
            body: { ids: [await newLocation(clientId())] },
          }),
      },
      {
        name: `POST /api/operations/:id/undo of an import into ${where}`,
        expected,
        send: async (caller) =>
          t.request({
            method: 'POST',
            url: `/api/operations/${await newOperation(clientId())}/undo`,
            token: tokenOf(caller),
          }),
      },
    ];
  }),
  {
    name: 'GET /api/audit',
    expected: READ,
    send: (caller) => t.request({ method: 'GET', url: '/api/audit', token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/users',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: (caller) => t.request({ method: 'GET', url: '/api/users', token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/users',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('admin', 201) },
    send: (caller) =>
      t.request({
        method: 'POST',
        url: '/api/users',
        token: tokenOf(caller),
        body: { email: uniqueEmail(), password: 'a long password', role: 'viewer' },
      }),
  },
  {
    name: 'PATCH /api/users/:id',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: async (caller) => {
      const id = await t.addUser(uniqueEmail(), 'viewer');
      return t.request({
        method: 'PATCH',
        url: `/api/users/${id}`,
        token: tokenOf(caller),
        body: { email: uniqueEmail() },
      });
    },
  },
  {
    name: 'DELETE /api/users/:id',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: async (caller) => {
      const id = await t.addUser(uniqueEmail(), 'viewer');
      return t.request({ method: 'DELETE', url: `/api/users/${id}`, token: tokenOf(caller) });
    },
  },
  {
    name: 'GET /api/me',
    expected: { ...ALL_SIGNED_IN, ...EVERY_TOKEN },
    send: (caller) => t.request({ method: 'GET', url: '/api/me', token: tokenOf(caller) }),
  },
  {
    // A wrong current password: the access is what is tested, and no password or token changes.
    name: 'PATCH /api/me with a wrong current password',
    expected: {
      admin: 400,
      viewer: 400,
      client_viewer: 400,
      anonymous: 401,
      ...NO_TOKEN,
      'token:revoked': 401,
    },
    send: (caller) =>
      t.request({
        method: 'PATCH',
        url: '/api/me',
        token: tokenOf(caller),
        body: { current_password: 'not the password', new_password: 'a long new password' },
      }),
  },
  {
    name: 'POST /auth/logout (a token: revokes it)',
    expected: { ...ALL_SIGNED_IN, ...EVERY_TOKEN },
    send: async (caller) => t.request({ method: 'POST', url: '/auth/logout', token: await freshTokenOf(caller) }),
  },
  {
    name: 'GET /api/tokens',
    expected: { ...ALL_SIGNED_IN, ...tokensWith('admin', 200) },
    send: (caller) => t.request({ method: 'GET', url: '/api/tokens', token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/tokens?all=true',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: (caller) => t.request({ method: 'GET', url: '/api/tokens?all=true', token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/tokens {scopes: [read]}',
    expected: { admin: 201, viewer: 201, client_viewer: 201, anonymous: 401, ...tokensWith('admin', 201) },
    send: (caller) =>
      t.request({
        method: 'POST',
        url: '/api/tokens',
        token: tokenOf(caller),
        body: { name: 'made by role', scopes: ['read'] },
      }),
  },
  {
    name: "DELETE /api/tokens/:id of the caller's user",
    expected: { ...ALL_SIGNED_IN, ...tokensWith('admin', 200) },
    send: async (caller) =>
      t.request({ method: 'DELETE', url: `/api/tokens/${await tokenIdFor(caller)}`, token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/backups',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: (caller) => t.request({ method: 'GET', url: '/api/backups', token: tokenOf(caller) }),
  },
  {
    name: 'POST /api/backups',
    expected: { ...ADMIN_ONLY, admin: 201, ...tokensWith('admin', 201) },
    send: (caller) => t.request({ method: 'POST', url: '/api/backups', token: tokenOf(caller) }),
  },
  {
    name: 'GET /api/backups/:id/download',
    expected: { ...ADMIN_ONLY, ...tokensWith('admin', 200) },
    send: async (caller) => {
      const made = await t.request({ method: 'POST', url: '/api/backups', token: tokens.admin });
      const { name } = made.json<{ name: string }>();
      return t.request({ method: 'GET', url: `/api/backups/${name}/download`, token: tokenOf(caller) });
    },
  },
  {
    name: 'GET /api/device',
    expected: { ...ALL_SIGNED_IN, ...tokensWith('admin', 200) },
    send: (caller) => t.request({ method: 'GET', url: '/api/device', token: tokenOf(caller) }),
  },
  ...(['approve', 'deny'] as const).map((decision): Endpoint => ({
    name: `POST /api/device/${decision} of a read request`,
    expected: { ...ALL_SIGNED_IN, ...tokensWith('admin', 200) },
    send: async (caller) => {
      // Within the flood limits: spaced (20 a minute) and answered (10 pending) whatever the caller did.
      t.clock.advance(3_100);
      const asked = await t.request({
        method: 'POST',
        url: '/auth/device',
        body: { client_name: 'role matrix', scope: 'read' },
      });
      const body = { user_code: asked.json<{ user_code: string }>().user_code };
      const response = await t.request({
        method: 'POST',
        url: `/api/device/${decision}`,
        token: tokenOf(caller),
        body,
      });
      await t.request({ method: 'POST', url: '/api/device/deny', token: tokens.admin, body });
      return response;
    },
  })),
];

const MATRIX = ENDPOINTS.flatMap((endpoint) =>
  CALLERS.map((caller) => ({ endpoint, caller, status: endpoint.expected[caller] })),
);

describe('the role matrix', () => {
  it.each(MATRIX.map((row) => [`${row.endpoint.name} as ${row.caller} -> ${row.status}`, row] as const))(
    '%s',
    async (_name, { endpoint, caller, status }) => {
      const response = await endpoint.send(caller);
      if (status >= 400) expectErrorBody(response, status);
      else expect(response.statusCode, response.body).toBe(status);
    },
  );

  it('every route of the API document is in the table', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const inTable = ENDPOINTS.map((endpoint) => endpoint.name.split(' ').slice(0, 2).join(' ').split('?')[0]);
    const public_ = [
      'POST /auth/callback',
      'POST /auth/refresh',
      'GET /auth/setup',
      'POST /auth/setup',
      'POST /auth/device',
      'POST /auth/token',
    ];
    for (const route of documented) {
      if (public_.includes(route)) continue;
      expect(
        inTable.some((name) => name === route.replace(/:\w+/g, ':id')),
        route,
      ).toBe(true);
    }
  });

  it('a refused request changes nothing: POST /api/clients as viewer and as client_viewer', async () => {
    const before = rowCount(t.store.db, 'clients');
    await ENDPOINTS[1]!.send('viewer');
    await ENDPOINTS[1]!.send('client_viewer');
    expect(rowCount(t.store.db, 'clients')).toBe(before);
  });

  it('the role is checked before the body: POST /api/users as viewer with an invalid body -> 403', async () => {
    expectErrorBody(
      await t.request({ method: 'POST', url: '/api/users', token: tokens.viewer, body: { nonsense: 1 } }),
      403,
    );
  });

  it('GET /api/clients as client_viewer lists only its own client', async () => {
    const response = await t.request({ method: 'GET', url: '/api/clients', token: tokens.client_viewer });
    expect(response.json<{ id: string }[]>().map((client) => client.id)).toEqual([ownClientId]);
  });
});

describe('users API rules', () => {
  function createUser(body: Record<string, unknown>) {
    return t.request({ method: 'POST', url: '/api/users', token: tokens.admin, body });
  }
  function patchUser(id: string, body: unknown) {
    return t.request({ method: 'PATCH', url: `/api/users/${id}`, token: tokens.admin, body });
  }

  it('POST /api/users -> 201 with {id, email, role, client_id, created_at}, the e-mail lower-cased', async () => {
    const response = await createUser({ email: 'New.Person@Example.com', password: 'a long password', role: 'viewer' });
    expect(response.statusCode).toBe(201);
    const user = response.json<Record<string, unknown>>();
    expect(Object.keys(user).sort()).toEqual(['client_id', 'created_at', 'email', 'id', 'role']);
    expect(user).toMatchObject({ email: 'new.person@example.com', role: 'viewer', client_id: null });
    expect((await t.request({ method: 'GET', url: '/api/users', token: tokens.admin })).body).toContain(
      'new.person@example.com',
    );
  });

  it('POST /api/users as client_viewer with a clientId -> 201, and that user sees only that client', async () => {
    const response = await createUser({
      email: 'assigned@example.com',
      password: 'a long password',
      role: 'client_viewer',
      clientId: otherClientId,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ client_id: string }>().client_id).toBe(otherClientId);
    const token = await t.login('assigned@example.com', 'a long password');
    expect((await t.request({ method: 'GET', url: `/api/locations?clientId=${ownClientId}`, token })).statusCode).toBe(
      403,
    );
  });

  it('client_viewer without clientId -> 400', async () => {
    const error = expectErrorBody(
      await createUser({ email: uniqueEmail(), password: 'a long password', role: 'client_viewer' }),
      400,
    );
    expect(error.details?.[0]?.path).toBe('/body/clientId');
  });

  it.each(['admin', 'viewer'])('%s with a clientId -> 400', async (role) => {
    const error = expectErrorBody(
      await createUser({ email: uniqueEmail(), password: 'a long password', role, clientId: ownClientId }),
      400,
    );
    expect(error.details?.[0]?.path).toBe('/body/clientId');
  });

  it('client_viewer with the id of no client of the organization -> 400', async () => {
    expectErrorBody(
      await createUser({
        email: uniqueEmail(),
        password: 'a long password',
        role: 'client_viewer',
        clientId: randomUUID(),
      }),
      400,
    );
  });

  it('a duplicate e-mail -> 409, also in another case', async () => {
    expectErrorBody(
      await createUser({ email: 'viewer@example.com', password: 'a long password', role: 'viewer' }),
      409,
    );
    expectErrorBody(await createUser({ email: 'VIEWER@example.com', password: 'a long password', role: 'admin' }), 409);
  });

  it('PATCH to an e-mail another user has -> 409', async () => {
    const id = await t.addUser(uniqueEmail(), 'viewer');
    expectErrorBody(await patchUser(id, { email: 'admin@example.com' }), 409);
  });

  it.each([
    ['a 7-character password', { email: 'short@example.com', password: '1234567', role: 'viewer' }],
    ['an unknown role', { email: 'role@example.com', password: 'a long password', role: 'owner' }],
    ['a malformed e-mail', { email: 'not-an-email', password: 'a long password', role: 'viewer' }],
    ['no password', { email: 'nopw@example.com', role: 'viewer' }],
    ['an unknown field', { email: 'x@example.com', password: 'a long password', role: 'viewer', admin: true }],
  ])('POST /api/users with %s -> 400', async (_case, body) => {
    const before = rowCount(t.store.db, 'users');
    expectErrorBody(await createUser(body), 400);
    expect(rowCount(t.store.db, 'users')).toBe(before);
  });

  it('PATCH with a 7-character password -> 400', async () => {
    const id = await t.addUser(uniqueEmail(), 'viewer');
    expectErrorBody(await patchUser(id, { password: '1234567' }), 400);
  });

  it('PATCH with an empty body -> 400', async () => {
    const id = await t.addUser(uniqueEmail(), 'viewer');
    expectErrorBody(await patchUser(id, {}), 400);
  });

  it('PATCH and DELETE of an unknown user -> 404; of a malformed id -> 400', async () => {
    expectErrorBody(await patchUser(randomUUID(), { role: 'viewer' }), 404);
    expectErrorBody(await t.request({ method: 'DELETE', url: `/api/users/${randomUUID()}`, token: tokens.admin }), 404);
    expectErrorBody(await patchUser('nope', { role: 'viewer' }), 400);
    expectErrorBody(await t.request({ method: 'DELETE', url: '/api/users/nope', token: tokens.admin }), 400);
  });

  it('PATCH a viewer to client_viewer without a client -> 400; with a client -> 200', async () => {
    const id = await t.addUser(uniqueEmail(), 'viewer');
    expectErrorBody(await patchUser(id, { role: 'client_viewer' }), 400);
    const response = await patchUser(id, { role: 'client_viewer', clientId: ownClientId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'client_viewer', client_id: ownClientId });
  });

  describe('another organization', () => {
    let other: { organizationId: string; clientId: string };
    let outsiderId: string;
    beforeAll(async () => {
      ({ userId: outsiderId, ...other } = addOtherOrganizationAdmin(t.store.db, t.clock.now()));
    });

    it("GET /api/users does not list another organization's users", async () => {
      const response = await t.request({ method: 'GET', url: '/api/users', token: tokens.admin });
      expect(response.json<{ id: string }[]>().map((user) => user.id)).not.toContain(outsiderId);
    });

    it("PATCH and DELETE of another organization's user -> 404, and it is unchanged", async () => {
      expectErrorBody(await patchUser(outsiderId, { role: 'viewer' }), 404);
      expectErrorBody(await t.request({ method: 'DELETE', url: `/api/users/${outsiderId}`, token: tokens.admin }), 404);
      expect(t.store.db.prepare('SELECT role FROM users WHERE id = ?').pluck().get(outsiderId)).toBe('admin');
    });

    it("a Client Viewer of another organization's client -> 400", async () => {
      const response = await createUser({
        email: uniqueEmail(),
        password: 'a long password',
        role: 'client_viewer',
        clientId: other.clientId,
      });
      expectErrorBody(response, 400);
    });
  });

  describe('the last Admin', () => {
    let solo: Awaited<ReturnType<typeof buildSignedInApp<'boss'>>>;
    beforeAll(async () => {
      solo = await buildSignedInApp({ boss: 'admin' });
    });
    afterAll(() => solo.t.close());

    it('cannot be removed -> 409, and stays', async () => {
      const response = await solo.t.request({
        method: 'DELETE',
        url: `/api/users/${solo.ids.boss}`,
        token: solo.tokens.boss,
      });
      expectErrorBody(response, 409);
      expect(rowCount(solo.t.store.db, 'users')).toBe(1);
    });

    it.each(['viewer', 'client_viewer'])('cannot be demoted to %s -> 409', async (role) => {
      const clientId = await solo.t.createClient(solo.tokens.boss, 'Solo Client');
      const response = await solo.t.request({
        method: 'PATCH',
        url: `/api/users/${solo.ids.boss}`,
        token: solo.tokens.boss,
        body: role === 'viewer' ? { role } : { role, clientId },
      });
      expectErrorBody(response, 409);
      expect(solo.t.store.db.prepare('SELECT role FROM users WHERE id = ?').pluck().get(solo.ids.boss)).toBe('admin');
    });

    it('with a second Admin, one of them can be demoted and the other removed', async () => {
      const second = await solo.t.addUser('second-admin@example.com', 'admin');
      const demote = await solo.t.request({
        method: 'PATCH',
        url: `/api/users/${second}`,
        token: solo.tokens.boss,
        body: { role: 'viewer' },
      });
      expect(demote.statusCode).toBe(200);
      const third = await solo.t.addUser('third-admin@example.com', 'admin');
      const remove = await solo.t.request({ method: 'DELETE', url: `/api/users/${third}`, token: solo.tokens.boss });
      expect(remove.statusCode).toBe(200);
    });
  });
});
