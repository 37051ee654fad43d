import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';
import { addOtherOrganizationClient, dataSnapshot } from '../helpers/data.js';

interface LocationRow {
  id: string;
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  health_score: number;
  health_status: 'green' | 'yellow' | 'red';
  created_at: string;
}

interface UploadBody {
  success: boolean;
  count: number;
  locations: { id: string; name: string; city: string | null; state: string | null }[];
}

interface DryRunBody {
  dry_run: true;
  valid: boolean;
  count: number;
  duplicates: number;
  rows: {
    index: number;
    action: string;
    name: string;
    country: string | null;
    health_score: number;
    duplicate_of: unknown;
  }[];
  errors: { path: string; row: number; field: string; message: string }[];
}

const PLACE_ID = 'ChIJN1t_tDeuEmsRUsoyG83frY4';
const FULL_ROW = {
  name: 'Sydney Office',
  address: '48 Pirrama Rd',
  city: 'Pyrmont',
  state: 'NSW',
  zip: '2009',
  country: 'AU',
  google_place_id: PLACE_ID,
};

/** The listing fields of issue 9, complete. */
const LISTING = {
  store_code: 'SYD-1',
  phone: '(02) 9374 4000',
  website: 'www.example.com.au',
  primary_category: 'Software company',
  hours: 'Mon-Fri 9:00-17:00',
};

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

function upload(body: unknown, query = '', token = admin) {
  return t.request({ method: 'POST', url: `/api/locations/upload${query}`, token, body });
}

async function imported(clientId: string, rows: unknown[], query = ''): Promise<UploadBody> {
  const response = await upload({ clientId, rows }, query);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<UploadBody>();
}

async function locationsOf(clientId: string, token = admin): Promise<LocationRow[]> {
  const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LocationRow[]>();
}

/** The one location a single-row import makes, as the list returns it. */
async function storedRow(row: Record<string, unknown>): Promise<LocationRow> {
  const clientId = await t.createClient(admin, 'Single Row Client');
  await imported(clientId, [row]);
  const [location] = await locationsOf(clientId);
  return location!;
}

function locationsCount(clientId: string): number {
  return t.store.db.prepare('SELECT locations_count FROM clients WHERE id = ?').pluck().get(clientId) as number;
}

describe('GET /api/locations', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await t.createClient(admin, 'Listed Client');
    await imported(clientId, [FULL_ROW, { name: 'Zeta' }, { name: 'Alpha', city: 'Paris' }, { name: 'Mu' }]);
  });

  it("returns the locations in import order with the spec's fields and the listing fields, never google_place_id", async () => {
    const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('google_place_id');
    expect(response.body).not.toContain(PLACE_ID);
    const rows = response.json<LocationRow[]>();
    expect(rows.map((row) => row.name)).toEqual(['Sydney Office', 'Zeta', 'Alpha', 'Mu']);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        'address',
        'city',
        'country',
        'created_at',
        'health_hints',
        'health_issues',
        'health_score',
        'health_status',
        'hours',
        'id',
        'labels',
        'latitude',
        'longitude',
        'name',
        'phone',
        'primary_category',
        'state',
        'status',
        'store_code',
        'updated_at',
        'website',
        'zip',
      ]);
    }
    expect(rows[0]).toMatchObject({
      address: '48 Pirrama Rd',
      city: 'Pyrmont',
      state: 'NSW',
      zip: '2009',
      country: 'AU',
    });
    expect(rows[0]!.created_at).toBe(new Date(t.clock.now()).toISOString());
  });

  it('X-Total-Count is the number of locations; limit and offset page in import order', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/locations?clientId=${clientId}&limit=2&offset=1`,
      token: admin,
    });
    expect(response.headers['x-total-count']).toBe('4');
    expect(response.json<LocationRow[]>().map((row) => row.name)).toEqual(['Zeta', 'Alpha']);
  });

  it('a client without locations -> []', async () => {
    const empty = await t.createClient(admin, 'No Locations Yet');
    expect(await locationsOf(empty)).toEqual([]);
  });

  it('missing clientId -> 400', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/locations', token: admin }), 400);
  });

  it.each(['abc', '123', `${randomUUID()}0`, ''])('malformed clientId %j -> 400', async (id) => {
    expectErrorBody(await t.request({ method: 'GET', url: `/api/locations?clientId=${id}`, token: admin }), 400);
  });

  it('an unknown query parameter -> 400', async () => {
    expectErrorBody(
      await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}&x=1`, token: admin }),
      400,
    );
  });

  it('clientId in upper case names the same client (UUIDs are case-insensitive on input, RFC 9562 section 4)', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/locations?clientId=${clientId.toUpperCase()}`,
      token: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<LocationRow[]>()).toHaveLength(4);
  });

  it('unknown clientId -> 404', async () => {
    expectErrorBody(
      await t.request({ method: 'GET', url: `/api/locations?clientId=${randomUUID()}`, token: admin }),
      404,
    );
  });

  it("another organization's client -> 404", async () => {
    const other = addOtherOrganizationClient(t.store.db, t.clock.now());
    expectErrorBody(
      await t.request({ method: 'GET', url: `/api/locations?clientId=${other.clientId}`, token: admin }),
      404,
    );
  });

  it('as viewer -> 200', async () => {
    expect((await locationsOf(clientId, viewer)).length).toBe(4);
  });

  it('as Client Viewer of this client -> 200; of another client -> 403', async () => {
    const own = await t.createClient(admin, 'Client Viewer Home');
    await imported(own, [{ name: 'Home Branch' }]);
    await t.addUser('cv@example.com', 'client_viewer', own);
    const cv = await t.login('cv@example.com');
    expect((await locationsOf(own, cv)).map((row) => row.name)).toEqual(['Home Branch']);
    expectErrorBody(await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: cv }), 403);
  });

  it('without a token -> 401', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}` }), 401);
  });
});

describe('POST /api/locations/upload', () => {
  it('-> 201 {success, count, locations: [{id, name, city, state}]} and the totals', async () => {
    const clientId = await t.createClient(admin, 'Upload Shape');
    const response = await upload({ clientId, rows: [FULL_ROW, { name: 'Second' }] });
    expect(response.statusCode).toBe(201);
    const body = response.json<UploadBody>();
    expect(Object.keys(body).sort()).toEqual([
      'count',
      'created',
      'locations',
      'operation_id',
      'phone_extensions',
      'skipped',
      'success',
      'unchanged',
      'updated',
    ]);
    expect(body).toMatchObject({ created: 2, updated: 0, unchanged: 0, skipped: 0 });
    expect(body.success).toBe(true);
    expect(body.count).toBe(2);
    expect(body.locations).toEqual([
      { id: expect.any(String), name: 'Sydney Office', city: 'Pyrmont', state: 'NSW' },
      { id: expect.any(String), name: 'Second', city: null, state: null },
    ]);
    const listed = await locationsOf(clientId);
    expect(listed.map((row) => row.id)).toEqual(body.locations.map((location) => location.id));
  });

  it('locations_count of the client follows the imports', async () => {
    const clientId = await t.createClient(admin, 'Counted');
    await imported(clientId, [{ name: 'One' }, { name: 'Two' }]);
    await imported(clientId, [{ name: 'Three' }]);
    expect(locationsCount(clientId)).toBe(3);
    const listed = await t.request({ method: 'GET', url: '/api/clients', token: admin });
    expect(
      listed.json<{ id: string; locations_count: number }[]>().find((client) => client.id === clientId)
        ?.locations_count,
    ).toBe(3);
  });

  it('an empty rows array -> 201 with count 0, and no entry in the history', async () => {
    const clientId = await t.createClient(admin, 'Empty Import');
    const history = async () =>
      (await t.request({ method: 'GET', url: `/api/audit?clientId=${clientId}`, token: admin })).json<{
        entries: { action: string }[];
      }>().entries;
    expect((await history()).map((entry) => entry.action)).toEqual(['client.created']);
    expect(await imported(clientId, [])).toEqual({
      success: true,
      count: 0,
      locations: [],
      created: 0,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      phone_extensions: [],
      operation_id: null,
    });
    expect((await history()).map((entry) => entry.action)).toEqual(['client.created']);
  });

  it('one bad row among many -> 400 listing every bad row by index and field, and nothing is written', async () => {
    const clientId = await t.createClient(admin, 'Atomic');
    const rows: unknown[] = Array.from({ length: 500 }, (_, i) => ({
      name: `Row ${i}`,
      city: 'Berlin',
      country: 'DE',
    }));
    rows[3] = { city: 'No Name' };
    rows[250] = { name: 'Martian', country: 'Mars' };
    rows[499] = { name: 'Typed', zip: 12345 };
    const before = dataSnapshot(t.store.db);
    const error = expectErrorBody(await upload({ clientId, rows }), 400);
    // The count, then the first problem in words: a script that prints the message learns why (a walk).
    expect(error.message).toBe(
      '3 of 500 rows are not valid; nothing was imported. The first: row 3, name: is required',
    );
    expect(error.details?.map((detail) => [detail.row, detail.field])).toEqual([
      [3, 'name'],
      [250, 'country'],
      [499, 'zip'],
    ]);
    expect(error.details?.map((detail) => detail.path)).toEqual(['/rows/3/name', '/rows/250/country', '/rows/499/zip']);
    expect(dataSnapshot(t.store.db)).toEqual(before);
    expect(await locationsOf(clientId)).toEqual([]);
    expect(locationsCount(clientId)).toBe(0);
  });

  it('every field is trimmed and an empty optional value becomes null', async () => {
    const row = await storedRow({
      name: '  Trimmed  ',
      address: '  1 Main St ',
      city: '\tSpringfield\n',
      state: '   ',
      zip: '',
      country: ' us ',
      google_place_id: null,
    });
    expect(row).toMatchObject({
      name: 'Trimmed',
      address: '1 Main St',
      city: 'Springfield',
      state: null,
      zip: null,
      country: 'US',
    });
  });

  it('a blank name -> 400', async () => {
    const clientId = await t.createClient(admin, 'Blank Name');
    const error = expectErrorBody(await upload({ clientId, rows: [{ name: '   ' }] }), 400);
    expect(error.details?.[0]).toMatchObject({ row: 0, field: 'name' });
  });

  it.each([
    ['France', 'FR'],
    ['germany', 'DE'],
    ['Deutschland', 'DE'],
    ['United States of America', 'US'],
    ['USA', 'US'],
    ['gbr', 'GB'],
    ['UK', 'GB'],
    ['fr', 'FR'],
    ['Us', 'US'],
    ['250', 'FR'],
  ])('country %j is stored as %j', async (country, code) => {
    expect((await storedRow({ name: 'Country Check', country })).country).toBe(code);
  });

  it.each(['Mars', 'XX', 'Atlantis', 'ZZZ'])('country %j -> 400', async (country) => {
    const clientId = await t.createClient(admin, 'Bad Country');
    const error = expectErrorBody(await upload({ clientId, rows: [{ name: 'Nowhere', country }] }), 400);
    expect(error.details).toEqual([expect.objectContaining({ row: 0, field: 'country', path: '/rows/0/country' })]);
  });

  it('an unknown row field -> 400 naming it', async () => {
    const clientId = await t.createClient(admin, 'Unknown Field');
    const error = expectErrorBody(await upload({ clientId, rows: [{ name: 'A', phone: '555-0100' }] }), 400);
    expect(error.details).toEqual([expect.objectContaining({ row: 0, field: 'phone' })]);
  });

  it.each([
    ['name', { name: 7 }],
    ['zip', { name: 'A', zip: 62701 }],
    ['city', { name: 'A', city: true }],
    ['state', { name: 'A', state: { code: 'IL' } }],
    ['google_place_id', { name: 'A', google_place_id: ['x'] }],
  ])('a non-string %s -> 400', async (field, row) => {
    const clientId = await t.createClient(admin, 'Wrong Types');
    const error = expectErrorBody(await upload({ clientId, rows: [row] }), 400);
    expect(error.details).toEqual([expect.objectContaining({ row: 0, field })]);
  });

  it.each([
    ['a string', 'Main Street'],
    ['null', null],
    ['a number', 5],
    ['an array', ['Main Street']],
  ])('a row that is %s -> 400', async (_case, row) => {
    const clientId = await t.createClient(admin, 'Not An Object');
    const error = expectErrorBody(await upload({ clientId, rows: [{ name: 'fine' }, row] }), 400);
    expect(error.message).toBe(
      '1 of 2 rows is not valid; nothing was imported. The first: row 1: must be an object with at least a name',
    );
    expect(error.details?.[0]).toMatchObject({ row: 1 });
  });

  it('a field over its length limit -> 400', async () => {
    const clientId = await t.createClient(admin, 'Too Long');
    const error = expectErrorBody(await upload({ clientId, rows: [{ name: 'A', zip: '1'.repeat(21) }] }), 400);
    expect(error.details).toEqual([expect.objectContaining({ row: 0, field: 'zip' })]);
  });

  it.each([
    ['no clientId', { rows: [] }],
    ['no rows', { clientId: randomUUID() }],
    ['a malformed clientId', { clientId: 'nope', rows: [] }],
    ['rows as an object', { clientId: randomUUID(), rows: { name: 'A' } }],
    ['an unknown top-level field', { clientId: randomUUID(), rows: [], extra: true }],
    ['an array body', []],
    ['a string body', 'rows'],
  ])('%s -> 400', async (_case, body) => {
    expectErrorBody(await upload(typeof body === 'string' ? JSON.stringify(body) : body), 400);
  });

  it('an upper-case clientId imports into the same client', async () => {
    const clientId = await t.createClient(admin, 'Upper Case Upload');
    const response = await upload({ clientId: clientId.toUpperCase(), rows: [{ name: 'A' }] });
    expect(response.statusCode, response.body).toBe(201);
    expect(locationsCount(clientId)).toBe(1);
  });

  it('an unknown clientId -> 404', async () => {
    expectErrorBody(await upload({ clientId: randomUUID(), rows: [{ name: 'A' }] }), 404);
  });

  it("another organization's client -> 404 and nothing written", async () => {
    const other = addOtherOrganizationClient(t.store.db, t.clock.now());
    const before = dataSnapshot(t.store.db);
    expectErrorBody(await upload({ clientId: other.clientId, rows: [{ name: 'Intruder' }] }), 404);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('as viewer -> 403', async () => {
    const clientId = await t.createClient(admin, 'Viewer Upload');
    expectErrorBody(await upload({ clientId, rows: [{ name: 'A' }] }, '', viewer), 403);
    expect(locationsCount(clientId)).toBe(0);
  });

  it.each([['?dryRun=maybe'], ['?duplicates=merge'], ['?other=1']])('query %s -> 400', async (query) => {
    const clientId = await t.createClient(admin, 'Bad Query');
    expectErrorBody(await upload({ clientId, rows: [{ name: 'A' }] }, query), 400);
  });

  describe('duplicates', () => {
    const EXISTING = [
      { name: 'Corner Cafe', address: '1 Market St', google_place_id: 'ChIJexistingPlaceId00001' },
      { name: 'Harbour Deli', address: '9 Quay Rd' },
    ];
    let clientId: string;
    beforeAll(async () => {
      clientId = await t.createClient(admin, 'Duplicates');
      await imported(clientId, EXISTING);
    });

    const INCOMING = [
      { name: 'Renamed Cafe', address: 'Somewhere Else', google_place_id: 'ChIJexistingPlaceId00001' },
      { name: '  HARBOUR   deli ', address: '9  quay RD' },
      { name: 'New Place', address: '2 New St', google_place_id: 'ChIJbrandNewPlaceId00001' },
      { name: 'Twin', address: '3 Twin St' },
      { name: 'twin', address: '3 TWIN st' },
      { name: 'Same Place Again', google_place_id: 'ChIJbrandNewPlaceId00001' },
      { name: 'Harbour Deli' },
    ];

    it('are skipped by default: by google_place_id and by name+address (case and spaces ignored), within the file and against existing', async () => {
      const body = await imported(clientId, INCOMING);
      expect(body.locations.map((location) => location.name)).toEqual(['New Place', 'Twin', 'Harbour Deli']);
      expect(body.count).toBe(3);
      expect(locationsCount(clientId)).toBe(5);
    });

    it('the same place id or name and address under another client is no duplicate', async () => {
      const other = await t.createClient(admin, 'Duplicates Elsewhere');
      const body = await imported(other, EXISTING);
      expect(body.count).toBe(EXISTING.length);
    });

    it('are kept with ?duplicates=keep', async () => {
      const keep = await t.createClient(admin, 'Duplicates Kept');
      await imported(keep, EXISTING);
      const body = await imported(keep, INCOMING, '?duplicates=keep');
      expect(body.count).toBe(INCOMING.length);
      expect(locationsCount(keep)).toBe(EXISTING.length + INCOMING.length);
    });

    it('dryRun=true writes nothing and returns rows, errors and duplicates', async () => {
      const before = dataSnapshot(t.store.db);
      const response = await upload(
        { clientId, rows: [...INCOMING, { name: 'Broken', country: 'Mars' }, { name: 'Fresh', country: 'france' }] },
        '?dryRun=true',
      );
      expect(response.statusCode).toBe(200);
      const body = response.json<DryRunBody>();
      expect(body.dry_run).toBe(true);
      expect(body.valid).toBe(false);
      expect(body.count).toBe(0);
      expect(body.errors).toEqual([expect.objectContaining({ row: INCOMING.length, field: 'country' })]);
      // Every row, in order; the invalid one with action "error".
      expect(body.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(body.rows[7]).toMatchObject({ index: 7, action: 'error' });
      expect(body.rows.at(-1)).toMatchObject({ name: 'Fresh', country: 'FR' });
      // By now every incoming row but the name-only one (a name alone is no evidence) is a duplicate.
      expect(body.duplicates).toBe(INCOMING.length - 1);
      expect(body.rows[6]!.duplicate_of).toBeNull();
      expect(body.rows[0]!.duplicate_of).toMatchObject({ reason: 'google_place_id', location_id: expect.any(String) });
      expect(body.rows[4]!.duplicate_of).toMatchObject({ reason: 'name_and_address' });
      expect(dataSnapshot(t.store.db)).toEqual(before);
    });

    it('dryRun=true on valid rows says valid with the count that would be created', async () => {
      const fresh = await t.createClient(admin, 'Dry Run Valid');
      const before = dataSnapshot(t.store.db);
      const response = await upload(
        { clientId: fresh, rows: [{ name: 'A' }, { name: 'B', address: '1 St' }] },
        '?dryRun=true',
      );
      expect(response.statusCode).toBe(200);
      expect(response.json<DryRunBody>()).toMatchObject({
        dry_run: true,
        valid: true,
        count: 2,
        duplicates: 0,
        errors: [],
      });
      expect(dataSnapshot(t.store.db)).toEqual(before);
    });
  });

  describe('limits and malformed bodies', () => {
    let clientId: string;
    beforeAll(async () => {
      clientId = await t.createClient(admin, 'Limits');
    });

    it('more than 100,000 rows -> 413 and nothing written', async () => {
      const before = dataSnapshot(t.store.db);
      const rows = Array.from({ length: 100_001 }, () => ({ name: 'x' }));
      expectErrorBody(await upload({ clientId, rows }), 413);
      expect(dataSnapshot(t.store.db)).toEqual(before);
    });

    it('a body over 32 MiB -> 413 with a JSON error', async () => {
      const filler = 'x'.repeat(190);
      const rows = Array.from({ length: 180_000 }, () => ({ name: filler }));
      const body = JSON.stringify({ clientId, rows });
      expect(body.length).toBeGreaterThan(32 * 1024 * 1024);
      expectErrorBody(await upload(body), 413);
      expect(locationsCount(clientId)).toBe(0);
    });

    it('a body of the wrong shape -> 400 whose message words its first problem', async () => {
      const message = async (body: unknown) => expectErrorBody(await upload(body), 400).message;
      expect(await message({ clientId: 42, rows: [] })).toBe('The import body is not valid: clientId must be a UUID');
      expect(await message({ clientId, rows: { name: 'A' } })).toBe(
        'The import body is not valid: rows must be an array of locations',
      );
      expect(await message([{ clientId, rows: [] }])).toBe(
        'The import body is not valid: it must be an object with clientId and rows',
      );
      // The key named once (a walk read 'foo "foo" is not a field of an import').
      expect(await message({ clientId, rows: [], foo: 1 })).toBe(
        'The import body is not valid: foo is not a field of an import, which holds clientId and rows',
      );
      expect(locationsCount(clientId)).toBe(0);
    });

    it('a non-JSON content type -> 415', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token: admin,
        body: JSON.stringify({ clientId, rows: [{ name: 'A' }] }),
        headers: { 'content-type': 'text/plain' },
      });
      expectErrorBody(response, 415);
    });

    it('another content type -> 415; a CSV (text/plain too) without ?clientId= -> 400 saying so (issue 12 reads CSV)', async () => {
      const request = (type: string) =>
        t.request({
          method: 'POST',
          url: '/api/locations/upload',
          token: admin,
          body: 'name\nA\n',
          headers: { 'content-type': type },
        });
      expect(expectErrorBody(await request('text/html'), 415).message).toMatch(/JSON rows .*text\/csv.*\.xlsx/);
      expect(expectErrorBody(await request('text/csv'), 400).message).toMatch(/clientId/);
      expect(expectErrorBody(await request('text/plain'), 400).message).toMatch(/clientId/);
    });

    it('malformed JSON -> 400', async () => {
      expectErrorBody(await upload(`{"clientId": "${clientId}", "rows": [{"name": "A"}`), 400);
    });

    it('a body starting with a byte order mark (PowerShell 5.1, Notepad) is read as every JSON body of the API reads it', async () => {
      const text = `\uFEFF{"clientId": "${clientId}", "rows": [{"name": "With a BOM"}]}`;
      const response = await upload(text);
      expect(response.statusCode, response.body).toBe(201);
      expect((await locationsOf(clientId)).map((row) => row.name)).toEqual(['With a BOM']);
      const client = await t.request({
        method: 'POST',
        url: '/api/clients',
        token: admin,
        body: '\uFEFF{"name": "BOM client"}',
      });
      expect(client.statusCode).toBe(201);
    });

    it('an empty body -> 400', async () => {
      expectErrorBody(
        await t.request({
          method: 'POST',
          url: '/api/locations/upload',
          token: admin,
          headers: { 'content-type': 'application/json' },
        }),
        400,
      );
    });

    it.each([
      ['a top-level __proto__', `{"clientId": "CLIENT", "rows": [], "__proto__": {"polluted": true}}`],
      ['a __proto__ in a row', `{"clientId": "CLIENT", "rows": [{"name": "A", "__proto__": {"polluted": true}}]}`],
      ['constructor.prototype', `{"clientId": "CLIENT", "rows": [], "constructor": {"prototype": {"polluted": true}}}`],
    ])('a prototype-poisoning body (%s) -> 400 and nothing written', async (_case, text) => {
      const before = dataSnapshot(t.store.db);
      expectErrorBody(await upload(text.replace('CLIENT', clientId)), 400);
      expect(dataSnapshot(t.store.db)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('health', () => {
    it('name only -> 0, red', async () => {
      expect(await storedRow({ name: 'Bare' })).toMatchObject({ health_score: 0, health_status: 'red' });
    });

    it("a row complete in the spec's fields, with a plausible place id -> 80, still green", async () => {
      expect(await storedRow(FULL_ROW)).toMatchObject({
        health_score: 80,
        health_status: 'green',
        health_issues: [],
        health_hints: ['No phone number', 'No primary category', 'No website', 'No opening hours'],
      });
    });

    it('a row complete in every field -> 100, green, with nothing to raise', async () => {
      expect(await storedRow({ ...FULL_ROW, ...LISTING })).toMatchObject({
        health_score: 100,
        health_status: 'green',
        health_issues: [],
        health_hints: [],
      });
    });

    it('a permanently closed location reads "closed", not by its score', async () => {
      expect(await storedRow({ name: 'Gone', status: 'Permanently closed' })).toMatchObject({
        health_score: 0,
        health_status: 'closed',
        status: 'permanently_closed',
      });
    });

    it.each([
      ['a full postal address without a place id', { ...FULL_ROW, name: 'Y0', google_place_id: null }, 60],
      [
        'address, city, country and place id',
        { name: 'Y2', address: '1 Main St', city: 'Sydney', country: 'AU', google_place_id: PLACE_ID },
        58,
      ],
      ['everything but a zip that does not fit', { ...FULL_ROW, zip: 'ABCDE' }, 68],
    ])('%s -> yellow', async (_case, row, score) => {
      expect(await storedRow(row)).toMatchObject({ health_score: score, health_status: 'yellow' });
    });

    it('a zip that does not fit the country lowers the score', async () => {
      const fitting = await storedRow({ ...FULL_ROW, country: 'US', zip: '94043' });
      const unfitting = await storedRow({ ...FULL_ROW, country: 'US', zip: 'SW1A 1AA' });
      expect(fitting.health_score).toBe(80);
      expect(unfitting.health_score).toBeLessThan(fitting.health_score);
    });

    it('a malformed place id lowers the score', async () => {
      expect((await storedRow({ ...FULL_ROW, google_place_id: 'not a place id' })).health_score).toBeLessThan(80);
    });

    it('below 50 -> red', async () => {
      expect(await storedRow({ name: 'R', address: '1 Main St', city: 'Springfield' })).toMatchObject({
        health_score: 30,
        health_status: 'red',
      });
    });
  });
});
