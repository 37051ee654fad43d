import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';
import { addOtherOrganizationClient, rowCount } from '../helpers/data.js';

interface ClientRow {
  id: string;
  name: string;
  industry: string | null;
  website: string | null;
  created_at: string;
  locations_count: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApp;
let admin: string;
let viewer: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin, viewer },
  } = await buildSignedInApp({ admin: 'admin', viewer: 'viewer' }));
});
afterAll(() => t.close());

function createClient(body: unknown, token = admin) {
  return t.request({ method: 'POST', url: '/api/clients', token, body });
}

async function listClients(query = ''): Promise<{ rows: ClientRow[]; total: string | undefined }> {
  const response = await t.request({ method: 'GET', url: `/api/clients${query}`, token: admin });
  expect(response.statusCode, response.body).toBe(200);
  return { rows: response.json<ClientRow[]>(), total: response.headers['x-total-count'] as string | undefined };
}

function deleteClient(id: string, token = admin) {
  return t.request({ method: 'DELETE', url: `/api/clients/${id}`, token });
}

describe('POST /api/clients', () => {
  it('-> 201 with exactly {id, name}', async () => {
    const response = await createClient({ name: 'Blue Bottle', industry: 'Coffee', website: 'bluebottle.example' });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ id: string; name: string }>();
    expect(Object.keys(body).sort()).toEqual(['id', 'name']);
    expect(body.id).toMatch(UUID);
    expect(body.name).toBe('Blue Bottle');
  });

  it('the name is trimmed', async () => {
    const response = await createClient({ name: '  Padded Name  ' });
    expect(response.json<{ name: string }>().name).toBe('Padded Name');
  });

  it('industry and website are null in the list when absent (and when blank)', async () => {
    const absent = (await createClient({ name: 'No Extras Inc' })).json<{ id: string }>().id;
    const blank = (await createClient({ name: 'Blank Extras Inc', industry: '  ', website: '' })).json<{ id: string }>()
      .id;
    const { rows } = await listClients();
    for (const id of [absent, blank]) {
      const row = rows.find((client) => client.id === id);
      expect(row).toMatchObject({ industry: null, website: null, locations_count: 0 });
    }
  });

  it('the list returns what was created, with created_at in ISO 8601 UTC', async () => {
    const id = (
      await createClient({ name: 'Full Record', industry: 'Retail', website: 'https://www.full.example/shop' })
    ).json<{
      id: string;
    }>().id;
    const row = (await listClients()).rows.find((client) => client.id === id)!;
    expect(Object.keys(row).sort()).toEqual(['created_at', 'id', 'industry', 'locations_count', 'name', 'website']);
    expect(row).toMatchObject({ name: 'Full Record', industry: 'Retail', website: 'https://www.full.example/shop' });
    expect(row.created_at).toBe(new Date(t.clock.now()).toISOString());
  });

  it.each([
    ['missing', {}],
    ['blank', { name: '   ' }],
    ['empty', { name: '' }],
    ['too long (201 characters)', { name: 'x'.repeat(201) }],
    ['a number', { name: 42 }],
    ['null', { name: null }],
    ['an array', { name: ['Acme'] }],
  ])('name %s -> 400', async (_case, body) => {
    const before = rowCount(t.store.db, 'clients');
    const error = expectErrorBody(await createClient(body), 400);
    expect(error.details?.some((detail) => detail.path === '/body/name')).toBe(true);
    expect(rowCount(t.store.db, 'clients')).toBe(before);
  });

  it('a name of exactly 200 characters is accepted', async () => {
    expect((await createClient({ name: 'y'.repeat(200) })).statusCode).toBe(201);
  });

  it.each([
    'example.com',
    'www.example.co.uk',
    'http://example.com',
    'https://shop.example.com/path?q=1',
    'EXAMPLE.COM',
  ])('website %j is accepted', async (website) => {
    expect((await createClient({ name: `Site ${website}`, website })).statusCode).toBe(201);
  });

  it.each([
    'not a website',
    'javascript:alert(1)',
    'ftp://example.com',
    'example',
    'http://',
    'exa mple.com',
    // No URL parser accepts a port above 65535 (WHATWG URL, "port state").
    'https://example.com:99999',
  ])('website %j -> 400', async (website) => {
    const error = expectErrorBody(await createClient({ name: 'Bad Site', website }), 400);
    expect(error.details?.[0]?.path).toBe('/body/website');
  });

  it.each([
    ['an unknown field', { name: 'Acme', owner: 'me' }],
    ['a numeric industry', { name: 'Acme', industry: 7 }],
    ['an industry over 100 characters', { name: 'Acme', industry: 'i'.repeat(101) }],
    ['an array body', [{ name: 'Acme' }]],
  ])('%s -> 400', async (_case, body) => {
    expectErrorBody(await createClient(body), 400);
  });

  it('no body -> 400', async () => {
    expectErrorBody(
      await t.request({
        method: 'POST',
        url: '/api/clients',
        token: admin,
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  });

  it('as viewer -> 403 and nothing created', async () => {
    const before = rowCount(t.store.db, 'clients');
    expectErrorBody(await createClient({ name: 'Viewer Made' }, viewer), 403);
    expect(rowCount(t.store.db, 'clients')).toBe(before);
  });

  it('without a token -> 401', async () => {
    expectErrorBody(await t.request({ method: 'POST', url: '/api/clients', body: { name: 'Anonymous' } }), 401);
  });
});

describe('GET /api/clients', () => {
  let ordered: TestApp;
  let token: string;
  beforeAll(async () => {
    ordered = await buildTestApp();
    await ordered.addUser('lister@example.com', 'admin');
    token = await ordered.login('lister@example.com');
    for (const name of ['banana', 'Apple', 'cherry', 'apricot', 'Blueberry']) await ordered.createClient(token, name);
    addOtherOrganizationClient(ordered.store.db, ordered.clock.now(), 'Aaa Other Organization');
  });
  afterAll(() => ordered.close());

  async function list(query = '') {
    const response = await ordered.request({ method: 'GET', url: `/api/clients${query}`, token });
    return response;
  }

  it("orders by name case-insensitively and lists only the caller's organization", async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(response.json<ClientRow[]>().map((client) => client.name)).toEqual([
      'Apple',
      'apricot',
      'banana',
      'Blueberry',
      'cherry',
    ]);
  });

  it('X-Total-Count is the number of clients of the organization', async () => {
    expect((await list()).headers['x-total-count']).toBe('5');
    expect((await list('?limit=2')).headers['x-total-count']).toBe('5');
  });

  it('limit and offset page through the same order', async () => {
    expect((await list('?limit=2')).json<ClientRow[]>().map((client) => client.name)).toEqual(['Apple', 'apricot']);
    expect((await list('?limit=2&offset=2')).json<ClientRow[]>().map((client) => client.name)).toEqual([
      'banana',
      'Blueberry',
    ]);
    expect((await list('?offset=4')).json<ClientRow[]>().map((client) => client.name)).toEqual(['cherry']);
    expect((await list('?offset=10')).json()).toEqual([]);
  });

  it.each(['?limit=0', '?limit=-1', '?limit=abc', '?offset=-1', '?limit=1.5', '?sort=name', '?limit=100001'])(
    '%s -> 400',
    async (query) => {
      expectErrorBody(await list(query), 400);
    },
  );

  it('with no clients -> [] and X-Total-Count 0', async () => {
    const empty = await buildTestApp();
    try {
      await empty.addUser('empty@example.com', 'viewer');
      const response = await empty.request({
        method: 'GET',
        url: '/api/clients',
        token: await empty.login('empty@example.com'),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(response.headers['x-total-count']).toBe('0');
    } finally {
      await empty.close();
    }
  });

  it('as viewer -> 200', async () => {
    const response = await t.request({ method: 'GET', url: '/api/clients', token: viewer });
    expect(response.statusCode).toBe(200);
  });

  it('as Client Viewer -> only its own client, X-Total-Count 1', async () => {
    const own = await t.createClient(admin, 'Own Client Of Viewer');
    await t.addUser('cv-list@example.com', 'client_viewer', own);
    const response = await t.request({
      method: 'GET',
      url: '/api/clients',
      token: await t.login('cv-list@example.com'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<ClientRow[]>().map((client) => client.id)).toEqual([own]);
    expect(response.headers['x-total-count']).toBe('1');
  });

  it('without a token -> 401', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/clients' }), 401);
  });
});

describe('DELETE /api/clients/:clientId', () => {
  it('-> 200 {success: true} and the client is gone from the list', async () => {
    const id = await t.createClient(admin, 'To Be Deleted');
    const response = await deleteClient(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await listClients()).rows.some((client) => client.id === id)).toBe(false);
  });

  it('a second delete of the same client -> 404', async () => {
    const id = await t.createClient(admin, 'Deleted Twice');
    expect((await deleteClient(id)).statusCode).toBe(200);
    expectErrorBody(await deleteClient(id), 404);
  });

  it.each(['not-a-uuid', '12345', `${randomUUID()}x`, 'null'])('malformed id %j -> 400', async (id) => {
    expectErrorBody(await deleteClient(id), 400);
  });

  it('unknown id -> 404', async () => {
    expectErrorBody(await deleteClient(randomUUID()), 404);
  });

  it('the id in upper case names the same client (UUIDs are case-insensitive on input, RFC 9562 section 4)', async () => {
    const id = await t.createClient(admin, 'Upper Case Id');
    const response = await deleteClient(id.toUpperCase());
    expect(response.statusCode, response.body).toBe(200);
    expect((await listClients()).rows.some((client) => client.id === id)).toBe(false);
  });

  it("another organization's client -> 404 and it is not deleted", async () => {
    const other = addOtherOrganizationClient(t.store.db, t.clock.now());
    expectErrorBody(await deleteClient(other.clientId), 404);
    expect(t.store.db.prepare('SELECT count(*) FROM clients WHERE id = ?').pluck().get(other.clientId)).toBe(1);
  });

  it('removes the locations and the Client Viewer accounts of the client, whose tokens then get 401', async () => {
    const doomed = await t.createClient(admin, 'Doomed Client');
    const kept = await t.createClient(admin, 'Kept Client');
    for (const clientId of [doomed, kept]) {
      const upload = await t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token: admin,
        body: { clientId, rows: [{ name: 'Branch A' }, { name: 'Branch B' }] },
      });
      expect(upload.statusCode).toBe(201);
    }
    await t.addUser('doomed-cv@example.com', 'client_viewer', doomed);
    await t.addUser('kept-cv@example.com', 'client_viewer', kept);
    const doomedToken = await t.login('doomed-cv@example.com');
    const keptToken = await t.login('kept-cv@example.com');

    expect((await deleteClient(doomed)).statusCode).toBe(200);

    const db = t.store.db;
    expect(db.prepare('SELECT count(*) FROM locations WHERE client_id = ?').pluck().get(doomed)).toBe(0);
    expect(db.prepare('SELECT count(*) FROM locations WHERE client_id = ?').pluck().get(kept)).toBe(2);
    expect(
      db.prepare('SELECT email FROM users WHERE email LIKE ? ORDER BY email').pluck().all('%-cv@example.com'),
    ).toEqual(['kept-cv@example.com']);
    expectErrorBody(await t.request({ method: 'GET', url: '/api/me', token: doomedToken }), 401);
    expect((await t.request({ method: 'GET', url: '/api/me', token: keptToken })).statusCode).toBe(200);
    expectErrorBody(await t.request({ method: 'GET', url: `/api/locations?clientId=${doomed}`, token: admin }), 404);
  });

  it('as viewer -> 403 and the client stays', async () => {
    const id = await t.createClient(admin, 'Viewer Cannot Delete');
    expectErrorBody(await deleteClient(id, viewer), 403);
    expect((await listClients()).rows.some((client) => client.id === id)).toBe(true);
  });

  it('without a token -> 401', async () => {
    expectErrorBody(await t.request({ method: 'DELETE', url: `/api/clients/${randomUUID()}` }), 401);
  });
});
