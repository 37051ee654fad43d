import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_FIELDS } from '../../server/locations/fields.js';
import { DryRunResponse, Location, LocationRecord, UploadResponse } from '../../server/locations/schemas.js';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot, EVERY_FIELD_ROW } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * Issue 9: the listing fields, the three import modes, the blank-cell rule and the diff, over the real
 * server and encrypted database. Every answer is also checked against the schema the OpenAPI document
 * shows (the writer thread writes them as text).
 */

type Row = Record<string, unknown>;
interface Preview {
  index: number;
  action: string;
  location_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  duplicate_of: { reason: string; row?: number; location_id?: string } | null;
  skip_reason: string | null;
  [field: string]: unknown;
}
interface DryRun {
  valid: boolean;
  count: number;
  totals: { created: number; updated: number; unchanged: number; skipped: number; errors: number };
  rows: Preview[];
  errors: { row: number; line?: number; field: string; message: string }[];
}

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

async function upload(clientId: string, rows: Row[], query = '') {
  const response = await t.request({
    method: 'POST',
    url: `/api/locations/upload${query}`,
    token: admin,
    body: { clientId, rows },
  });
  if (response.statusCode === 201) expect(Value.Check(UploadResponse, response.json())).toBe(true);
  if (response.statusCode === 200) expect(Value.Errors(DryRunResponse, response.json()).First()).toBeUndefined();
  return response;
}

async function imported(clientId: string, rows: Row[], query = '') {
  const response = await upload(clientId, rows, query);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<UploadResponse>();
}

async function dryRun(clientId: string, rows: Row[], query = '') {
  const response = await upload(clientId, rows, `?dryRun=true${query.replace('?', '&')}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DryRun>();
}

async function list(clientId: string): Promise<Row[]> {
  const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
  expect(response.statusCode).toBe(200);
  const rows = response.json<Row[]>();
  for (const row of rows) expect(Value.Errors(Location, row).First()).toBeUndefined();
  return rows;
}

async function record(id: string, token = admin) {
  return t.request({ method: 'GET', url: `/api/locations/${id}`, token });
}

/** A client holding a location of each name with its store code, and their ids by name. */
async function clientWithCodes(name: string, codes: Record<string, string>) {
  const clientId = await t.createClient(admin, name);
  await imported(
    clientId,
    Object.entries(codes).map(([location, code]) => ({ name: location, store_code: code })),
  );
  const ids = Object.fromEntries((await list(clientId)).map((row) => [row.name, row.id as string]));
  return { clientId, ids };
}

const STORE = EVERY_FIELD_ROW;

describe('the listing fields', () => {
  it('are stored normalized and listed: E.164 phone, URL, numbers, labels, status, hours', async () => {
    const clientId = await t.createClient(admin, 'Fields');
    await imported(clientId, [STORE]);
    const [location] = await list(clientId);
    expect(location).toMatchObject({
      store_code: 'BB-001',
      country: 'US',
      phone: '+12175550142',
      website: 'https://bluebird.example/',
      latitude: 39.7817,
      longitude: -89.6501,
      primary_category: 'Coffee shop',
      labels: ['downtown', 'flagship'],
      status: 'open',
      hours: {
        mon: [['07:00', '19:00']],
        fri: [['07:00', '19:00']],
        sat: [['08:00', '14:00']],
        sun: [],
      },
      health_score: 100,
      health_status: 'green',
    });
    expect(location).not.toHaveProperty('google_place_id');
    const whole = await record(location!.id as string);
    expect(whole.statusCode).toBe(200);
    expect(Value.Check(LocationRecord, whole.json())).toBe(true);
    expect(whole.json()).toMatchObject({ google_place_id: STORE.google_place_id, client_id: clientId });
  });

  it('take the JSON forms too: numbers, label lists, per-day hours of the GBP sheet', async () => {
    const clientId = await t.createClient(admin, 'JSON forms');
    await imported(clientId, [
      {
        name: 'A',
        country: 'DE',
        phone: '+49 30 1234567',
        latitude: 52.52,
        longitude: 13.405,
        labels: ['Berlin', 'Mitte'],
        hours: { mon: '09:00-12:00,13:00-18:00', tue: '9am-6pm', sat: 'x', sun: null },
        status: 'CLOSED_TEMPORARILY',
      },
    ]);
    expect((await list(clientId))[0]).toMatchObject({
      phone: '+49301234567',
      latitude: 52.52,
      labels: ['Berlin', 'Mitte'],
      hours: {
        mon: [
          ['09:00', '12:00'],
          ['13:00', '18:00'],
        ],
        tue: [['09:00', '18:00']],
        sat: [],
      },
      status: 'temporarily_closed',
    });
  });

  it.each([
    ['store_code', 'x'.repeat(61), /at most 60/],
    ['store_code', 'https://example.com/store', /URL/],
    ['phone', '12', /wrong number of digits for US/],
    // +1 is shared by the US, Canada and the Caribbean: an invalid number is judged by its calling code.
    ['phone', '+1 206 555 01', /^"\+1 206 555 01" has the wrong number of digits for \+1$/],
    ['phone', 'call us', /not a phone number/],
    ['phone', '(217) 055-0142', /not a number that US's numbering plan allows/],
    // A General cell of Excel's: the digits after the sixth are gone, and the message says how to get them back.
    [
      'phone',
      '2.12555E+09',
      /Excel shortened \(scientific notation\), its last digits lost: format the phone column as Text/,
    ],
    ['phone', '4,98912E+11', /Excel shortened/],
    // A postal code as Excel shows 100000 in a General cell: refused as a store code's is (a walk's was stored).
    ['zip', '1.00E+05', /Excel turned into a number in scientific notation: format the postal code column as Text/],
    ['website', 'not a site', /domain/],
    ['latitude', '91', /-90 to 90/],
    ['longitude', 'east', /not a number/],
    ['primary_category', 'c'.repeat(101), /longer than 100/],
    // Yext's Categories column holds its category ids: no listing shows "1316" (a walk stored it).
    ['primary_category', '1316', /^"1316" is a category id, not a category: give its name, such as "Coffee shop"/],
    ['primary_category', '1316, 1317', /category id/],
    ['labels', Array.from({ length: 11 }, (_, i) => `l${i}`).join(','), /at most 10/],
    ['labels', 'x'.repeat(51), /longer than 50/],
    ['labels', ['a,b', 'c'], /"a,b" holds a comma/],
    ['id', 'not-a-uuid', /must be a location's id \(a UUID/],
    // Uberall's bare CLOSED: refused for what it leaves unsaid (a walk read "must be one of …").
    [
      'status',
      'CLOSED',
      /^"CLOSED" does not say whether for now or for good: write temporarily_closed or permanently_closed/,
    ],
    ['status', 'shut', /"shut" is not a status: write open, temporarily_closed or permanently_closed/],
    ['hours', 'whenever', /write hours as/],
    ['hours', 'Mon 25:00-26:00', /not a time/],
    ['name', 'x\ud800y', /lone surrogate/],
    ['city', '\udc00', /lone surrogate/],
    ['city', 'x\u0007y', /control character U\+0007/],
    ['name', 'a\u0000b', /control character U\+0000/],
    ['store_code', 'a\nb', /tab or a line break/],
    ['name', '\u200b\u00a0', /is required/],
  ])('%s %j -> 400 naming the row and field, nothing written', async (field, value, message) => {
    const clientId = await t.createClient(admin, `Bad ${field}`);
    const before = dataSnapshot(t.store.db);
    const response = await upload(clientId, [
      { name: 'Fine', country: 'US' },
      { name: 'Bad', country: 'US', [field]: value },
    ]);
    const error = expectErrorBody(response, 400);
    expect(error.details).toEqual([
      expect.objectContaining({ row: 1, field, message: expect.stringMatching(message) }),
    ]);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('two rows of one file with the same store code -> 400 naming both rows', async () => {
    const clientId = await t.createClient(admin, 'Twice');
    const response = await upload(clientId, [
      { name: 'A', store_code: 'S1' },
      { name: 'B', store_code: 'S2' },
      { name: 'C', store_code: 'S1' },
    ]);
    const error = expectErrorBody(response, 400);
    expect(error.details?.map((detail) => [detail.row, detail.field])).toEqual([
      [0, 'store_code'],
      [2, 'store_code'],
    ]);
    expect(error.details?.[0]?.message).toMatch(/also on row 2/);
  });

  it("two rows of one store code are both errors whatever else is wrong with either: the dry run says so as the import does (a walk's file)", async () => {
    const clientId = await t.createClient(admin, 'Twice, and more wrong');
    // Either row refused for its phone or its hours, before or after the other, or both refused.
    for (const rows of [
      [
        { name: 'A', store_code: 'DUP-1', phone: '555-01', country: 'US', line: 3 },
        { name: 'B', store_code: 'DUP-1', line: 4 },
      ],
      [
        { name: 'A', store_code: 'DUP-1', line: 3 },
        { name: 'B', store_code: 'DUP-1', hours: 'Mon 9-25', line: 4 },
      ],
      [
        { name: 'A', store_code: 'DUP-1', phone: '555-01', country: 'US', line: 3 },
        { name: 'B', store_code: 'DUP-1', hours: 'Mon 9-25', line: 4 },
      ],
    ]) {
      for (const mode of ['', '?mode=upsert']) {
        const preview = await dryRun(clientId, rows, mode);
        expect(preview.totals, JSON.stringify(rows)).toMatchObject({ created: 0, errors: 2 });
        expect(preview.rows.map((row) => row.action)).toEqual(['error', 'error']);
        const refused = expectErrorBody(await upload(clientId, rows, mode), 400);
        expect(refused.message).toMatch(/^2 of 2 rows are not valid; nothing was imported\. The first: line 3, /);
        expect(refused.message).toContain(refused.details![0]!.message);
        const repeats = refused.details!.filter((detail) => detail.field === 'store_code');
        expect(repeats.map((detail) => [detail.row, detail.message])).toEqual(
          expect.arrayContaining([
            [0, 'the store code "DUP-1" is also on line 4; store codes are unique within a client'],
            [1, 'the store code "DUP-1" is also on line 3; store codes are unique within a client'],
          ]),
        );
        expect(repeats).toHaveLength(2);
      }
    }
    expect(await list(clientId)).toEqual([]);
    // One location id on two rows of an upsert, one of them refused for its hours: both errors too.
    await imported(clientId, [{ name: 'Kept', store_code: 'K-1' }]);
    const [kept] = await list(clientId);
    const copied = [
      { id: kept!.id, name: 'Kept', hours: 'Mon 9-25' },
      { id: kept!.id, name: 'Kept copy' },
    ];
    const preview = await dryRun(clientId, copied, '?mode=upsert');
    expect(preview.rows.map((row) => row.action)).toEqual(['error', 'error']);
    const refused = expectErrorBody(await upload(clientId, copied, '?mode=upsert'), 400);
    expect(refused.details!.map((detail) => [detail.row, detail.field])).toEqual(
      expect.arrayContaining([
        [0, 'hours'],
        [0, 'id'],
        [1, 'id'],
      ]),
    );
  });

  it('a row named by two repeats counts once: "N of M rows are not valid" counts rows, not errors (a review read "4 of 3")', async () => {
    const clientId = await t.createClient(admin, 'Counted once');
    await imported(clientId, [{ name: 'Kept', store_code: 'K-1' }]);
    const [kept] = await list(clientId);
    // Row 1 repeats row 0's id, and its store code is repeated by row 1000, refused in a later piece for
    // its phone: two errors name row 1, which is one row.
    const rows = [
      { id: kept!.id, name: 'Kept' },
      { id: kept!.id, name: 'Kept copy', store_code: 'Y' },
      ...Array.from({ length: 998 }, (_, i) => ({ name: `Filler ${i}` })),
      { name: 'Other', store_code: 'Y', phone: 'call us', country: 'US' },
    ];
    const refused = expectErrorBody(await upload(clientId, rows, '?mode=upsert'), 400);
    expect(refused.message).toBe(
      `3 of 1001 rows are not valid; nothing was imported. The first: row 0, id: ${refused.details![0]!.message}`,
    );
    expect(refused.details!.filter((detail) => detail.row === 1).map((detail) => detail.field)).toEqual([
      'id',
      'store_code',
    ]);
    const preview = await dryRun(clientId, rows, '?mode=upsert');
    expect(preview.totals.errors).toBe(preview.rows.filter((row) => row.action === 'error').length);
    expect(preview.totals.errors).toBe(3);
  });

  it('two rows with one store code are a 400 in create mode too, when a location has the code already', async () => {
    const clientId = await t.createClient(admin, 'Twice, existing');
    await imported(clientId, [{ name: 'Capitol', store_code: 'S1' }]);
    // Both rows would be skipped as duplicates of the location; the file still says two shops are S1.
    const error = expectErrorBody(
      await upload(clientId, [
        { name: 'Capitol', store_code: 'S1' },
        { name: 'Capitol Kiosk', store_code: 'S1' },
      ]),
      400,
    );
    expect(error.details?.map((detail) => [detail.row, detail.field])).toEqual([
      [0, 'store_code'],
      [1, 'store_code'],
    ]);
  });

  it('two rows with one location id in an upsert -> 400 naming both (a row copied to add a shop, its id kept)', async () => {
    // Found by a probe: the copy was skipped as a duplicate of the first, and the new shop never created.
    const clientId = await t.createClient(admin, 'One id twice');
    await imported(clientId, [{ name: 'Edinburgh', store_code: 'E1' }]);
    const [edinburgh] = await list(clientId);
    const before = dataSnapshot(t.store.db);
    const error = expectErrorBody(
      await upload(
        clientId,
        [
          { id: edinburgh!.id, name: 'Edinburgh', store_code: 'E1' },
          { id: edinburgh!.id, name: 'Glasgow', store_code: 'G1' },
        ],
        '?mode=upsert',
      ),
      400,
    );
    expect(error.details?.map((detail) => [detail.row, detail.field])).toEqual([
      [0, 'id'],
      [1, 'id'],
    ]);
    expect(error.details?.[1]?.message).toMatch(/^the location id ".*" is also on row 0; one id is one location/);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('the dry run shows both rows with one store code as errors, with what they read, and counts them so', async () => {
    const clientId = await t.createClient(admin, 'Twice, dry');
    const rows = [
      { name: 'A', store_code: 'S1', city: 'Austin', line: 3 },
      { name: 'B', store_code: 'S2', line: 4 },
      { name: 'C', store_code: 'S1', city: 'Boise', line: 5 },
    ];
    const result = await dryRun(clientId, rows);
    expect(result.valid).toBe(false);
    expect(result.totals).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 0, errors: 2 });
    expect(result.rows.map((row) => [row.action, row.name, row.city])).toEqual([
      ['error', 'A', 'Austin'],
      ['created', 'B', null],
      ['error', 'C', 'Boise'],
    ]);
    // The rows said their lines: each message names the other row's line.
    expect(result.errors.map((error) => [error.line, error.message.match(/also on (line \d+)/)?.[1]])).toEqual([
      [3, 'line 5'],
      [5, 'line 3'],
    ]);
  });
});

describe('coordinates come in pairs (a probe stored a latitude alone)', () => {
  it('a row that leaves its location with one coordinate -> 400 naming the missing one; a row giving the other of a stored pair is fine', async () => {
    const clientId = await t.createClient(admin, 'Half pairs');
    const before = dataSnapshot(t.store.db);
    const half = await upload(clientId, [{ name: 'Alone', latitude: '45', line: 2 }]);
    expect(expectErrorBody(half, 400).details).toEqual([
      expect.objectContaining({
        row: 0,
        line: 2,
        field: 'longitude',
        message: 'is missing while the latitude is given: a place on a map needs both, or neither',
      }),
    ]);
    expect(dataSnapshot(t.store.db)).toEqual(before);
    // With another field wrong too, both are said (a walk's row said only its Closed).
    const both = await upload(clientId, [{ name: 'Alone', latitude: '45', closed: 'Maybe', line: 2 }]);
    expect(expectErrorBody(both, 400).details!.map((detail) => detail.field)).toEqual(['status', 'longitude']);
    await imported(clientId, [{ name: 'Pinned', store_code: 'P1', latitude: '45', longitude: '7' }]);
    // Upsert, blank cells kept: the latitude alone moves the pin, the stored longitude stays.
    const moved = await dryRun(clientId, [{ name: 'Pinned', store_code: 'P1', latitude: '46' }], '?mode=upsert');
    expect(moved.rows[0]).toMatchObject({ action: 'updated', changes: { latitude: { from: 45, to: 46 } } });
    // Blank cells cleared: the longitude's blank leaves a latitude alone.
    const cleared = await dryRun(
      clientId,
      [{ name: 'Pinned', store_code: 'P1', latitude: '46', longitude: '' }],
      '?mode=upsert&blanks=clear',
    );
    expect(cleared.errors).toEqual([expect.objectContaining({ field: 'longitude' })]);
  });

  it('PATCH says so too (the bulk edit sets no coordinates); a location stored with one before is not refused for another field', async () => {
    const clientId = await t.createClient(admin, 'Half pairs edited');
    await imported(clientId, [{ name: 'Pin', latitude: '45', longitude: '7' }]);
    const [pin] = await list(clientId);
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/api/locations/${pin!.id}`, token: admin, body });
    // Said on both fields: the editor shows it as the person leaves the one they typed in.
    const half = await patch({ longitude: 8, latitude: null });
    expect(expectErrorBody(half, 400).details).toEqual([
      { path: '/body/longitude', message: 'has no latitude: a place on a map needs both, or neither' },
      {
        path: '/body/latitude',
        message: 'is missing while the longitude is given: a place on a map needs both, or neither',
      },
    ]);
    // One cleared alone is said first on the field sent, not as "latitude has no longitude" (a probe).
    const cleared = expectErrorBody(await patch({ longitude: null }), 400);
    expect(cleared.message).toBe(
      'longitude cannot be cleared alone: the latitude stays, and a place on a map needs both, or neither (clear the latitude too)',
    );
    expect(cleared.details).toEqual([
      {
        path: '/body/longitude',
        message:
          'cannot be cleared alone: the latitude stays, and a place on a map needs both, or neither (clear the latitude too)',
      },
      {
        path: '/body/latitude',
        message: 'stays while the longitude is cleared: a place on a map needs both, or neither',
      },
    ]);
    // With the fields' own problems, at once (a walk saw it one Save later).
    const all = await patch({ name: '', website: 'htp:/not a site', latitude: 40.5, longitude: null });
    expect(expectErrorBody(all, 400).details!.map((detail) => detail.path)).toEqual([
      '/body/name',
      '/body/website',
      '/body/latitude',
      '/body/longitude',
    ]);
    // A coordinate out of range is that, not also "missing" beside the other (a walk read both).
    expect(expectErrorBody(await patch({ latitude: 95, longitude: 10 }), 400).details).toEqual([
      { path: '/body/latitude', message: 'must be a number from -90 to 90' },
    ]);
    expect((await patch({ latitude: null, longitude: null })).statusCode).toBe(200);
    expect((await patch({ latitude: 45, longitude: 7 })).statusCode).toBe(200);
    // A half pair stored by an earlier release: editing its city is not refused.
    t.store.db.prepare('UPDATE locations SET longitude = NULL WHERE id = ?').run(pin!.id);
    expect((await patch({ city: 'Turin' })).statusCode).toBe(200);
  });
});

describe("PATCH of a phone with an extension (a walk's was dropped unsaid)", () => {
  it('answers the extension the stored number cannot keep, on the dry run and on the save; none without one', async () => {
    const clientId = await t.createClient(admin, 'Extensions');
    await imported(clientId, [{ name: 'Desk', country: 'US' }]);
    const [desk] = await list(clientId);
    const patch = (body: unknown, query = '') =>
      t.request({ method: 'PATCH', url: `/api/locations/${desk!.id}${query}`, token: admin, body });
    const dry = await patch({ phone: '(512) 555-0177 ext. 3' }, '?dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ dry_run: true, phone: '+15125550177', phone_extension: '3' });
    const saved = await patch({ phone: '(512) 555-0999 x44' });
    expect(saved.json()).toMatchObject({ phone: '+15125550999', phone_extension: '44' });
    expect(saved.json()).not.toHaveProperty('dry_run');
    // Without an extension, or without a phone in the change, the answer has no such field.
    expect((await patch({ phone: '(512) 555-0100' })).json()).not.toHaveProperty('phone_extension');
    expect((await patch({ city: 'Austin' })).json()).not.toHaveProperty('phone_extension');
    expect((await list(clientId))[0]!.phone).toBe('+15125550100');
  });
});

describe('a refused row in the dry run', () => {
  it('shows the fields it could read, the refused one and the others blank', async () => {
    const clientId = await t.createClient(admin, 'Refused row shown');
    const preview = await dryRun(clientId, [
      { name: 'Foo', city: 'Paris', phone: 'abc', latitude: '48,85', longitude: '2,35' },
    ]);
    expect(preview.rows[0]).toMatchObject({
      action: 'error',
      name: 'Foo',
      city: 'Paris',
      phone: null,
      latitude: 48.85,
      longitude: 2.35,
    });
    expect(preview.errors).toEqual([expect.objectContaining({ row: 0, field: 'phone' })]);
  });

  it('a refused blank name is shown as empty text, the answer still the schema it documents', async () => {
    // Found by the fuzz test: {name: ""} came back with name null, which DryRunResponse does not allow.
    const clientId = await t.createClient(admin, 'Refused blank name');
    const preview = await dryRun(clientId, [{ name: '', city: 'Paris' }]);
    expect(preview.rows[0]).toMatchObject({ action: 'error', name: '', city: 'Paris' });
  });
});

describe('import modes', () => {
  it('create (default) skips a row whose store code, place id or name and address exists', async () => {
    const clientId = await t.createClient(admin, 'Create');
    await imported(clientId, [STORE]);
    const again = await dryRun(clientId, [
      { name: 'Other', store_code: 'BB-001' },
      { name: 'Other', google_place_id: STORE.google_place_id },
      { name: ' bluebird  DOWNTOWN', address: '12 main st' },
      { name: 'Fresh' },
    ]);
    expect(again.rows.map((row) => [row.action, row.duplicate_of?.reason ?? null])).toEqual([
      ['skipped', 'store_code'],
      ['skipped', 'google_place_id'],
      ['skipped', 'name_and_address'],
      ['created', null],
    ]);
    expect(again.totals).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 3, errors: 0 });
  });

  it("create's dry run says what an upsert would change where a skipped row differs from its location (a walk lost a phone)", async () => {
    const clientId = await t.createClient(admin, 'Would change');
    await imported(clientId, [
      { name: 'Cambridge', address: '12 Brattle St', country: 'US', phone: '(617) 555-0101' },
      { name: 'Back Bay', address: '500 Boylston St', country: 'US' },
    ]);
    const rows = [
      { name: 'Cambridge', address: '12 Brattle St', country: 'US', phone: '(617) 555-0199' },
      { name: 'Back Bay', address: '500 Boylston St', country: 'US' },
      { name: 'Fresh', country: 'US' },
    ];
    const preview = await dryRun(clientId, rows);
    expect(preview.rows.map((row) => [row.action, row.would_change])).toEqual([
      ['skipped', { phone: { from: '+16175550101', to: '+16175550199' } }],
      ['skipped', null],
      ['created', null],
    ]);
    // Upsert says the same as its change; create's import changes nothing.
    const upsert = await dryRun(clientId, rows, '?mode=upsert');
    expect(upsert.rows[0]).toMatchObject({
      action: 'updated',
      changes: preview.rows[0]!.would_change,
      would_change: null,
    });
    await imported(clientId, rows);
    expect((await list(clientId)).find((row) => row.name === 'Cambridge')!.phone).toBe('+16175550101');
  });

  it('upsert updates the location a row matches by its key and creates the others; the answer counts both', async () => {
    const clientId = await t.createClient(admin, 'Upsert');
    await imported(clientId, [STORE, { name: 'Second', store_code: 'BB-002', phone: '+1 217 555 0100' }]);
    const answer = await imported(
      clientId,
      [
        { name: 'Bluebird Downtown', store_code: 'BB-001', phone: '217-555-0199' },
        { name: 'Second', store_code: 'BB-002', phone: '+1 217 555 0100' },
        { name: 'Third', store_code: 'BB-003' },
      ],
      '?mode=upsert',
    );
    expect(answer).toMatchObject({ count: 1, created: 1, updated: 1, unchanged: 1, skipped: 0 });
    const rows = await list(clientId);
    expect(rows.map((row) => [row.store_code, row.phone])).toEqual([
      ['BB-001', '+12175550199'],
      ['BB-002', '+12175550100'],
      ['BB-003', null],
    ]);
    // The blank-cell rule: fields the rows left out kept their values.
    expect(rows[0]).toMatchObject({ website: 'https://bluebird.example/', city: 'Springfield' });
  });

  it('the dry run of an upsert shows each change {from, to}, and writes nothing', async () => {
    const clientId = await t.createClient(admin, 'Diff');
    await imported(clientId, [STORE]);
    const before = dataSnapshot(t.store.db);
    const preview = await dryRun(
      clientId,
      [
        { ...STORE, phone: '217 555 0111', status: 'permanently closed' },
        { ...STORE, store_code: 'NEW-1', name: 'Brand new' },
      ],
      '?mode=upsert',
    );
    const [row, added] = preview.rows;
    expect(row).toMatchObject({ action: 'updated', health_status: 'closed' });
    expect(row!.location_id).toBe((await list(clientId))[0]!.id);
    // A row the import would create matches nothing: no id that the real import would not give it.
    expect(added).toMatchObject({ action: 'created', location_id: null });
    expect(row!.changes).toEqual({
      phone: { from: '+12175550142', to: '+12175550111' },
      status: { from: 'open', to: 'permanently_closed' },
    });
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('update only updates: a row that matches nothing is reported, not created', async () => {
    const clientId = await t.createClient(admin, 'Update');
    await imported(clientId, [STORE]);
    const preview = await dryRun(
      clientId,
      [
        { name: 'Nobody', store_code: 'NOPE' },
        { ...STORE, city: 'Chatham' },
      ],
      '?mode=update',
    );
    expect(preview.rows.map((row) => row.action)).toEqual(['skipped', 'updated']);
    expect(preview.rows[0]!.skip_reason).toMatch(/No location/);
    const answer = await imported(
      clientId,
      [
        { name: 'Nobody', store_code: 'NOPE' },
        { ...STORE, city: 'Chatham' },
      ],
      '?mode=update',
    );
    expect(answer).toMatchObject({ created: 0, updated: 1, skipped: 1, count: 0 });
    expect((await list(clientId)).map((row) => row.city)).toEqual(['Chatham']);
  });

  it('blank cells keep the stored value by default; blanks=clear clears them (never the name)', async () => {
    const clientId = await t.createClient(admin, 'Blanks');
    await imported(clientId, [STORE]);
    const blanked = { name: 'Bluebird Downtown', store_code: 'BB-001', phone: '', website: '  ', labels: '' };
    expect(await imported(clientId, [blanked], '?mode=upsert')).toMatchObject({ unchanged: 1, updated: 0 });
    expect(await imported(clientId, [blanked], '?mode=upsert&blanks=clear')).toMatchObject({ updated: 1 });
    expect((await list(clientId))[0]).toMatchObject({ phone: null, website: null, labels: null, city: 'Springfield' });
  });

  it("a sheet's day columns change the days they give; a blank day keeps its hours unless blanks=clear (a walk lost a week)", async () => {
    const clientId = await t.createClient(admin, 'Day columns');
    await imported(clientId, [STORE]);
    const stored = {
      mon: [['07:00', '19:00']],
      tue: [['07:00', '19:00']],
      wed: [['07:00', '19:00']],
      thu: [['07:00', '19:00']],
      fri: [['07:00', '19:00']],
      sat: [['08:00', '14:00']],
      sun: [],
    };
    const sheet = (query: string) =>
      t.request({
        method: 'POST',
        url: `/api/locations/upload?clientId=${clientId}${query}`,
        token: admin,
        headers: { 'content-type': 'text/csv' },
        body: 'Store code,Business name,Friday hours,Saturday hours\r\nBB-001,Bluebird Downtown,,11:00-15:00\r\n',
      });
    const preview = (await sheet('&mode=update&dryRun=true')).json<DryRun>().rows[0]!;
    expect(preview).toMatchObject({ action: 'updated', hours: { ...stored, sat: [['11:00', '15:00']] } });
    expect(preview.changes).toEqual({ hours: { from: stored, to: { ...stored, sat: [['11:00', '15:00']] } } });
    // Create's dry run says what an update would change: the same.
    const skipped = (await sheet('&dryRun=true')).json<DryRun>().rows[0]!;
    expect(skipped).toMatchObject({ action: 'skipped', would_change: preview.changes });
    expect((await sheet('&mode=update')).statusCode).toBe(201);
    const id = (await list(clientId))[0]!.id as string;
    expect((await record(id)).json()).toMatchObject({ hours: { ...stored, sat: [['11:00', '15:00']] } });

    // A JSON row's hours, text or days, leave the days they do not name too; the same again is no change.
    await imported(
      clientId,
      [{ name: 'Bluebird Downtown', store_code: 'BB-001', hours: 'Sun 10:00-12:00' }],
      '?mode=upsert',
    );
    const sunday = { ...stored, sat: [['11:00', '15:00']], sun: [['10:00', '12:00']] };
    expect((await record(id)).json()).toMatchObject({ hours: sunday });
    const again = { name: 'Bluebird Downtown', store_code: 'BB-001', hours: { sun: [['10:00', '12:00']] } };
    expect(await imported(clientId, [again], '?mode=upsert')).toMatchObject({ unchanged: 1 });

    // Days that would overlap the ones kept: a 400 naming the row and hours, nothing written.
    const late = { name: 'Bluebird Downtown', store_code: 'BB-001', hours: 'Thu 20:00-08:00' };
    const refused = await upload(clientId, [late], '?mode=upsert');
    expectErrorBody(refused, 400);
    expect(refused.json<{ details: unknown[] }>().details).toEqual([
      expect.objectContaining({
        row: 0,
        field: 'hours',
        message: expect.stringMatching(/^Fri 07:00-19:00 overlaps Thu 20:00-08:00.*the days this row leaves out keep/),
      }),
    ]);
    expect((await record(id)).json()).toMatchObject({ hours: sunday });

    // blanks=clear: the sheet's days are the whole week, its blank Friday unknown.
    expect((await sheet('&mode=update&blanks=clear')).statusCode).toBe(201);
    expect((await record(id)).json<{ hours: unknown }>().hours).toEqual({ sat: [['11:00', '15:00']] });
  });

  it('a phone a tool wrote as a decimal (pandas: 6175550100.0) is read without its .0', async () => {
    const clientId = await t.createClient(admin, 'Pandas');
    await imported(clientId, [{ name: 'Back Bay', country: 'US', phone: '6175550100.0' }]);
    expect((await list(clientId))[0]!.phone).toBe('+16175550100');
  });

  it("a national phone number on a row without a country is read with the matched location's country", async () => {
    const clientId = await t.createClient(admin, 'Phone country');
    await imported(clientId, [{ name: 'Paris', store_code: 'P1', country: 'FR' }]);
    await imported(clientId, [{ name: 'Paris', store_code: 'P1', phone: '01 42 68 53 00' }], '?mode=upsert');
    expect((await list(clientId))[0]!.phone).toBe('+33142685300');
  });

  it('?country= gives a sheet without a Country column its country: national phones and postal codes read by it', async () => {
    const clientId = await t.createClient(admin, 'US sheet without Country');
    const rows = [
      { name: 'Back Bay', city: 'Boston', state: 'MA', zip: '2116', phone: '(617) 555-0100' },
      { name: 'Toronto', country: 'Canada', phone: '416-555-0199' },
    ];
    // Without it, a national number has no country to be read by: the row says so.
    const refused = expectErrorBody(await upload(clientId, rows), 400);
    expect(refused.details!.map((detail) => [detail.row, detail.field])).toEqual([[0, 'phone']]);
    expect(await list(clientId)).toEqual([]);
    const preview = await dryRun(clientId, rows, '?country=United States');
    expect(preview.totals).toMatchObject({ created: 2, errors: 0 });
    await imported(clientId, rows, '?country=us');
    const [boston, toronto] = await list(clientId);
    // The zero Excel dropped from a Massachusetts ZIP is put back by the country given.
    expect(boston).toMatchObject({ country: 'US', phone: '+16175550100', zip: '02116' });
    expect(toronto).toMatchObject({ country: 'CA', phone: '+14165550199' });
  });

  it("?country= never replaces a matched location's country; it fills one that has none, in upsert and blanks=clear", async () => {
    const clientId = await t.createClient(admin, 'Country fallback');
    await imported(clientId, [
      { name: 'Paris', store_code: 'P1', country: 'FR' },
      { name: 'Nowhere', store_code: 'N1' },
    ]);
    const rows = [
      { name: 'Paris', store_code: 'P1', phone: '01 42 68 53 00' },
      { name: 'Nowhere', store_code: 'N1', phone: '(617) 555-0100' },
      { name: 'New', store_code: 'W1', phone: '(617) 555-0101' },
    ];
    const preview = await dryRun(clientId, rows, '?mode=upsert&country=US');
    expect(preview.rows.map((row) => [row.action, Object.keys(row.changes ?? {}).sort()])).toEqual([
      ['updated', ['phone']],
      ['updated', ['country', 'phone']],
      ['created', []],
    ]);
    await imported(clientId, rows, '?mode=upsert&blanks=clear&country=US');
    expect((await list(clientId)).map((row) => [row.name, row.country, row.phone])).toEqual([
      // A field the row leaves out is no blank cell: blanks=clear keeps France, and the phone is read by it.
      ['Paris', 'FR', '+33142685300'],
      ['Nowhere', 'US', '+16175550100'],
      ['New', 'US', '+16175550101'],
    ]);
  });

  it("a row without a country has its postal code's zeros put back by the country its location keeps (a walk)", async () => {
    const clientId = await t.createClient(admin, 'Zeros by the kept country');
    await imported(clientId, [
      { name: 'Toronto', store_code: 'T1', country: 'CA' },
      { name: 'Back Bay', store_code: 'B1', country: 'US', state: 'MA' },
    ]);
    const rows = [
      { name: 'Toronto', store_code: 'T1', zip: '2116' },
      { name: 'Back Bay', store_code: 'B1', zip: '2116' },
    ];
    // ?country=US is no Canadian location's country: its code stays as given; the US one gets its zero.
    const preview = await dryRun(clientId, rows, '?mode=upsert&country=US');
    expect(preview.rows.map((row) => [row.country, row.zip])).toEqual([
      ['CA', '2116'],
      ['US', '02116'],
    ]);
    await imported(clientId, rows, '?mode=upsert');
    expect((await list(clientId)).map((row) => [row.name, row.country, row.zip])).toEqual([
      ['Toronto', 'CA', '2116'],
      ['Back Bay', 'US', '02116'],
    ]);
  });

  it('?country= that names no country -> 400 naming it, nothing imported', async () => {
    const clientId = await t.createClient(admin, 'Bad country');
    const refused = async (country: string) =>
      expectErrorBody(await upload(clientId, [{ name: 'A' }], `?country=${country}`), 400).message;
    expect(await refused('Atlantis')).toBe('?country=: "Atlantis" is not a country name or ISO code');
    for (const empty of ['', '%20'])
      expect(await refused(empty)).toBe('?country= is empty: give a country name or ISO code (US), or leave it out');
    expect(await list(clientId)).toEqual([]);
  });

  it("a row refused for another field still says what is wrong with a phone that waited for the location's country", async () => {
    const clientId = await t.createClient(admin, 'Phone and website');
    await imported(clientId, [{ name: 'Paris', store_code: 'P1', country: 'FR' }]);
    const both = await upload(
      clientId,
      [
        { name: 'Paris', store_code: 'P1', phone: 'call the manager', website: 'not a website' },
        // A national number that only the matched location's country can judge: the website alone is said.
        { name: 'Paris Opéra', store_code: 'P2', phone: '01 42 68 53 00', website: 'not a website' },
      ],
      '?mode=upsert',
    );
    const notWebsite = 'must be a domain such as example.com or an http(s) address';
    expect(expectErrorBody(both, 400).details!.map((detail) => [detail.row, detail.field, detail.message])).toEqual([
      [0, 'website', notWebsite],
      [0, 'phone', '"call the manager" is not a phone number'],
      [1, 'website', notWebsite],
    ]);
    expect((await list(clientId))[0]).toMatchObject({ phone: null, website: null });
  });

  it("the key order: store code, else place id, else name and address; the exported id first when it is the client's", async () => {
    const clientId = await t.createClient(admin, 'Keys');
    await imported(clientId, [
      { name: 'Coded', store_code: 'K1', google_place_id: 'ChIJaaaaaaaaaaaaaaaaaaaa' },
      { name: 'Placed', google_place_id: 'ChIJbbbbbbbbbbbbbbbbbbbb', address: '1 Elm' },
      { name: 'Addressed', address: '2 Elm' },
      { name: 'Named only' },
    ]);
    const [, , , named] = await list(clientId);
    const preview = await dryRun(
      clientId,
      [
        // The store code is the key: a new code with a known place id is a new location.
        { name: 'Coded', store_code: 'K9', google_place_id: 'ChIJaaaaaaaaaaaaaaaaaaaa' },
        { name: 'Placed', google_place_id: 'ChIJbbbbbbbbbbbbbbbbbbbb', city: 'Oslo' },
        { name: 'ADDRESSED', address: '2  elm', city: 'Oslo' },
        { id: named!.id, name: 'Named only', city: 'Oslo' },
        { id: '00000000-0000-4000-8000-000000000000', name: 'Unknown id' },
      ],
      '?mode=upsert',
    );
    expect(preview.rows.map((row) => row.action)).toEqual(['created', 'updated', 'updated', 'updated', 'created']);
  });

  it("a row whose id is not one of the client's locations carries a note in upsert and update, none in create", async () => {
    const other = await t.createClient(admin, 'Another client');
    await imported(other, [{ name: 'Theirs', address: '9 Oak' }]);
    const theirId = (await list(other))[0]!.id as string;
    const clientId = await t.createClient(admin, 'Notes');
    await imported(clientId, [{ name: 'Ours', address: '1 Elm' }]);
    const [ours] = await list(clientId);
    const rows = [
      { id: ours!.id, name: 'Ours', address: '1 Elm', city: 'Oslo' },
      { id: theirId, name: 'Theirs', address: '9 Oak' },
      { id: theirId.replace(/^.{8}/, '00000000'), name: 'Ours', address: '1 elm', city: 'Bergen' },
    ];
    const upsert = await dryRun(clientId, rows, '?mode=upsert');
    expect(upsert.rows.map((row) => [row.action, row.note !== null])).toEqual([
      ['updated', false],
      ['created', true],
      ['skipped', true],
    ]);
    expect(upsert.rows[1]!.note).toBe(
      `its id ${theirId} is not one of this client's locations (is the file another client's export?): ` +
        'the row was matched by its store code, place id or name and address instead',
    );
    const update = await dryRun(clientId, rows, '?mode=update');
    expect(update.rows.map((row) => row.note !== null)).toEqual([false, true, true]);
    const create = await dryRun(clientId, rows, '');
    expect(create.rows.map((row) => row.note)).toEqual([null, null, null]);
  });

  // A new user's walk: the stored Bordeaux had store code ME-005b, the sheet said ME-005; upsert made a
  // second Bordeaux at the same address, and the preview said nothing.
  it('a row whose key matches nothing but whose place id or name and address are a stored location says which', async () => {
    const clientId = await t.createClient(admin, 'Same place');
    await imported(clientId, [
      { name: 'Bordeaux', address: '12 Rue Sainte-Catherine', store_code: 'ME-005b' },
      { name: 'Lyon', address: '3 Rue de la République', google_place_id: 'ChIJdddddddddddddddddddd' },
    ]);
    const [bordeaux, lyon] = await list(clientId);
    const rows = [
      { name: 'BORDEAUX', address: '12  rue Sainte-Catherine', store_code: 'ME-005' },
      { name: 'Lyon 2', address: '5 Quai', store_code: 'ME-006', google_place_id: 'ChIJdddddddddddddddddddd' },
      { name: 'Lille', address: '1 Grand Place', store_code: 'ME-007' },
      { name: 'Bordeaux', address: '12 Rue Sainte-Catherine', store_code: 'ME-005b', city: 'Bordeaux' },
    ];
    const upsert = await dryRun(clientId, rows, '?mode=upsert');
    expect(upsert.rows.map((row) => [row.action, row.same_place_as])).toEqual([
      ['created', bordeaux!.id],
      ['created', lyon!.id],
      ['created', null],
      ['updated', null],
    ]);
    const update = await dryRun(clientId, rows, '?mode=update');
    expect(update.rows.map((row) => [row.action, row.same_place_as])).toEqual([
      ['skipped', bordeaux!.id],
      ['skipped', lyon!.id],
      ['skipped', null],
      ['updated', null],
    ]);
    // In create mode such a row is a duplicate already, and the real import's answer has no rows to mark.
    const create = await dryRun(clientId, rows, '');
    expect(create.rows.map((row) => row.same_place_as)).toEqual([null, null, null, null]);
    expect(Value.Check(DryRunResponse, upsert)).toBe(true);
  });

  // A new user's walk: a sheet wrote "sea-001" for the stored SEA-001, and upsert made a second shop.
  it('a row whose store code is a stored one in other capitals names that location; exact codes still match', async () => {
    const clientId = await t.createClient(admin, 'Code case');
    await imported(clientId, [
      { name: 'Pike Place', store_code: 'SEA-001' },
      { name: 'Ballard', store_code: 'sea-002' },
      { name: 'Fremont', store_code: 'Sea-003' },
    ]);
    const [pike, ballard, fremont] = await list(clientId);
    const rows = [
      { name: 'Pike Place', store_code: 'sea-001' },
      { name: 'Ballard', store_code: 'SEA-002' },
      // A walk's: the stored code is in mixed capitals, which no exact index finds from the row's.
      { name: 'Fremont', store_code: 'SEA-003' },
      { name: 'Fremont', store_code: 'sEA-003' },
      { name: 'Pike Place', store_code: 'SEA-001', city: 'Seattle' },
      { name: 'Wallingford', store_code: 'Sea-004' },
    ];
    const upsert = await dryRun(clientId, rows, '?mode=upsert');
    expect(upsert.rows.map((row) => [row.action, row.store_code_case_of])).toEqual([
      ['created', pike!.id],
      ['created', ballard!.id],
      ['created', fremont!.id],
      ['created', fremont!.id],
      ['updated', null],
      ['created', null],
    ]);
    const update = await dryRun(clientId, rows, '?mode=update');
    expect(update.rows.map((row) => [row.action, row.store_code_case_of])).toEqual([
      ['skipped', pike!.id],
      ['skipped', ballard!.id],
      ['skipped', fremont!.id],
      ['skipped', fremont!.id],
      ['updated', null],
      ['skipped', null],
    ]);
    expect(Value.Check(DryRunResponse, update)).toBe(true);
  });

  // A probe: a row matched by its store code took another shop's place id, and the dry run said nothing.
  it("an update that gives its location another stored location's place id names that location", async () => {
    const clientId = await t.createClient(admin, 'Place ids');
    await imported(clientId, [
      { name: 'Pike', store_code: 'BB-1', google_place_id: 'ChIJffffffffffffffffffff' },
      { name: 'Ballard', store_code: 'BB-2' },
      { name: 'Fremont', store_code: 'BB-3', google_place_id: 'ChIJgggggggggggggggggggg' },
    ]);
    const [pike] = await list(clientId);
    const rows = [
      { name: 'Ballard', store_code: 'BB-2', google_place_id: 'ChIJffffffffffffffffffff' },
      { name: 'Fremont', store_code: 'BB-3', google_place_id: 'ChIJhhhhhhhhhhhhhhhhhhhh' },
      { name: 'Pike', store_code: 'BB-1', google_place_id: 'ChIJffffffffffffffffffff' },
    ];
    for (const mode of ['?mode=upsert', '?mode=update']) {
      const run = await dryRun(clientId, rows, mode);
      expect(
        run.rows.map((row) => [row.action, row.place_id_of]),
        mode,
      ).toEqual([
        ['updated', pike!.id],
        ['updated', null],
        ['unchanged', null],
      ]);
      expect(Value.Check(DryRunResponse, run)).toBe(true);
    }
  });

  // A new user's walk: 20 rows of a name and a city only were added again by every re-import, in every
  // mode, and the preview said nothing.
  it('a row to create with no store code, place id or address is marked no_key: importing it again adds it again', async () => {
    const clientId = await t.createClient(admin, 'No keys');
    const rows = [
      { name: 'Kiosk', city: 'Leeds' },
      { name: 'Shop', address: '1 Park Row', city: 'Leeds' },
      { name: 'Stall', store_code: 'ST-1' },
      { name: 'Cart', google_place_id: 'ChIJeeeeeeeeeeeeeeeeeeee' },
      { id: '00000000-0000-4000-8000-000000000001', name: 'Van' },
    ];
    const first = await dryRun(clientId, rows, '?mode=upsert');
    expect(first.rows.map((row) => [row.action, row.no_key])).toEqual([
      ['created', true],
      ['created', false],
      ['created', false],
      ['created', false],
      ['created', true],
    ]);
    await imported(clientId, rows);
    for (const mode of ['', '?mode=upsert']) {
      const again = await dryRun(clientId, rows, mode);
      expect(
        again.rows.map((row) => [row.action, row.no_key]),
        mode,
      ).toEqual([
        ['created', true],
        [mode === '' ? 'skipped' : 'unchanged', false],
        [mode === '' ? 'skipped' : 'unchanged', false],
        [mode === '' ? 'skipped' : 'unchanged', false],
        ['created', true],
      ]);
      expect(Value.Check(DryRunResponse, again)).toBe(true);
    }
    // update creates nothing, and marks nothing.
    const update = await dryRun(clientId, rows, '?mode=update');
    expect(update.rows.map((row) => row.no_key)).toEqual([false, false, false, false, false]);
  });

  it('a second row matching a location another row already updates is skipped as its duplicate', async () => {
    const clientId = await t.createClient(admin, 'Twice matched');
    await imported(clientId, [{ name: 'One', store_code: 'T1', google_place_id: 'ChIJcccccccccccccccccccc' }]);
    const preview = await dryRun(
      clientId,
      [
        { name: 'One', store_code: 'T1', city: 'A' },
        { name: 'One again', google_place_id: 'ChIJcccccccccccccccccccc', city: 'B' },
      ],
      '?mode=upsert',
    );
    expect(preview.rows.map((row) => [row.action, row.duplicate_of])).toEqual([
      ['updated', null],
      ['skipped', { reason: 'google_place_id', row: 0 }],
    ]);
  });

  it('store codes swapped or renumbered in one file move between locations; the undo moves them back', async () => {
    const { clientId, ids } = await clientWithCodes('Code swap', { A: 'RT-1', B: 'RT-2', C: 'RT-3' });
    // A and B swap, C is renumbered, and 1,000 new rows between them put B in a later piece than A.
    const rows = [
      { id: ids.A, name: 'A', store_code: 'RT-2' },
      ...Array.from({ length: 1000 }, (_, i) => ({ name: `Filler ${i}`, address: `${i} Filler St` })),
      { id: ids.B, name: 'B', store_code: 'RT-1' },
      { id: ids.C, name: 'C', store_code: 'RT-4' },
    ];
    const preview = await dryRun(clientId, rows, '?mode=upsert');
    expect(preview.valid, JSON.stringify(preview.errors)).toBe(true);
    expect(preview.totals).toMatchObject({ updated: 3, created: 1000, errors: 0 });
    expect(preview.rows[0]!.changes).toEqual({ store_code: { from: 'RT-1', to: 'RT-2' } });
    const result = await upload(clientId, rows, '?mode=upsert');
    expect(result.statusCode, result.body).toBe(201);
    const codes = async () =>
      Object.fromEntries(
        (await list(clientId)).filter((row) => row.store_code !== null).map((row) => [row.name, row.store_code]),
      );
    expect(await codes()).toEqual({ A: 'RT-2', B: 'RT-1', C: 'RT-4' });
    const operationId = result.json<{ operation_id: string }>().operation_id;
    const undo = await t.request({ method: 'POST', url: `/api/operations/${operationId}/undo`, token: admin });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toMatchObject({ removed: 1000, restored: 3, conflicts: [] });
    expect(await codes()).toEqual({ A: 'RT-1', B: 'RT-2', C: 'RT-3' });
  });

  it('a new row taking the store code an earlier row moves away from its location is created, not skipped (a probe)', async () => {
    const { clientId, ids } = await clientWithCodes('Code freed', { X: 'X-1', Y: 'Y-1' });
    const codes = async () => Object.fromEntries((await list(clientId)).map((row) => [row.name, row.store_code]));
    const cases: { rows: Row[]; query: string; expected: Record<string, string | null> }[] = [
      {
        rows: [
          { id: ids.X, name: 'X', store_code: 'X-NEW' },
          { name: 'Fresh', store_code: 'X-1', address: '9 Fresh St' },
        ],
        query: '?mode=upsert',
        expected: { X: 'X-NEW', Y: 'Y-1', Fresh: 'X-1' },
      },
      // The code cleared by a blank cell frees it as well.
      {
        rows: [
          { id: ids.Y, name: 'Y', store_code: '' },
          { name: 'Newer', store_code: 'Y-1', address: '10 Fresh St' },
        ],
        query: '?mode=upsert&blanks=clear',
        expected: { X: 'X-NEW', Y: null, Fresh: 'X-1', Newer: 'Y-1' },
      },
    ];
    for (const { rows, query, expected } of cases) {
      const preview = await dryRun(clientId, rows, query);
      expect(preview.rows.map((row) => [row.action, row.duplicate_of])).toEqual([
        ['updated', null],
        ['created', null],
      ]);
      const result = await upload(clientId, rows, query);
      expect(result.statusCode, result.body).toBe(201);
      expect(result.json()).toMatchObject({ created: 1, updated: 1, skipped: 0 });
      expect(await codes()).toEqual(expected);
    }
    // The row that renumbers the location below the one that takes its old code, in the same piece.
    const above = [
      { name: 'Above', store_code: 'X-NEW', address: '11 Fresh St' },
      { id: ids.X, name: 'X', store_code: 'X-2' },
    ];
    expect((await dryRun(clientId, above, '?mode=upsert')).rows.map((row) => row.action)).toEqual([
      'created',
      'updated',
    ]);
    expect((await upload(clientId, above, '?mode=upsert')).statusCode).toBe(201);
    expect(await codes()).toMatchObject({ X: 'X-2', Above: 'X-NEW' });
    // A row that leaves the location its code: the second row is that location's again, as before.
    const kept = await dryRun(
      clientId,
      [
        { id: ids.X, name: 'X', city: 'Leeds' },
        { name: 'X copy', store_code: 'X-2' },
      ],
      '?mode=upsert',
    );
    expect(kept.rows.map((row) => [row.action, row.duplicate_of])).toEqual([
      ['updated', null],
      ['skipped', { reason: 'store_code', row: 0 }],
    ]);
  });

  it('a new row taking a code its location does not really give up -> 400 naming it, never a 500; the dry run agrees (the review)', async () => {
    const { clientId, ids } = await clientWithCodes('Code not freed', { X: 'X-1', Other: 'O-1' });
    const cases: [rows: Row[], query: string][] = [
      // Create mode updates nothing: X keeps X-1.
      [
        [
          { id: ids.X, name: 'X', store_code: 'X-NEW' },
          { name: 'Fresh', store_code: 'X-1' },
        ],
        '?duplicates=keep',
      ],
      // A blank code cell keeps the code unless blanks=clear.
      [
        [
          { id: ids.X, name: 'X', store_code: '' },
          { name: 'Fresh', store_code: 'X-1', address: '1 Fresh St' },
        ],
        '?mode=upsert',
      ],
    ];
    for (const [rows, query] of cases) {
      const preview = await dryRun(clientId, rows, query);
      const refused = await upload(clientId, rows, query);
      expect(refused.statusCode, refused.body).not.toBe(500);
      expect(preview.valid === false, JSON.stringify(preview.totals)).toBe(refused.statusCode === 400);
      if (refused.statusCode === 201) expect(preview.totals.created).toBe(refused.json<{ created: number }>().created);
    }
    // The renumbering row itself a duplicate of an earlier row (by place id): the new row's code stays X's.
    await upload(clientId, [{ id: ids.X, name: 'X', google_place_id: 'ChIJxxxxxxxxxxxxxxxxxxxx' }], '?mode=upsert');
    const rows = [
      { name: 'X', google_place_id: 'ChIJxxxxxxxxxxxxxxxxxxxx', city: 'Leeds' },
      { id: ids.X, name: 'X', store_code: 'X-NEW' },
      { name: 'New', store_code: 'X-1', address: '2 New St' },
    ];
    const refused = await upload(clientId, rows, '?mode=upsert');
    expect(expectErrorBody(refused, 400).details!.map((detail) => [detail.row, detail.field])).toEqual(
      expect.arrayContaining([[2, 'store_code']]),
    );
    expect((await dryRun(clientId, rows, '?mode=upsert')).valid).toBe(false);
    expect((await list(clientId)).map((row) => [row.name, row.store_code])).toEqual([
      ['X', 'X-1'],
      ['Other', 'O-1'],
    ]);
  });

  it("a code without Excel's zeros, a piece after the row that gave a location that code: the dry run and the import agree (the review)", async () => {
    const { clientId, ids } = await clientWithCodes('Zeros across pieces', { X: '0123' });
    const filler = Array.from({ length: 999 }, (_, i) => ({ name: `Filler ${i}`, address: `${i} Filler St` }));
    const rows = [{ id: ids.X, name: 'X', store_code: '0124' }, ...filler, { name: 'New', store_code: '124' }];
    const preview = await dryRun(clientId, rows, '?mode=upsert');
    const result = await upload(clientId, rows, '?mode=upsert');
    // "124" is X's new 0124 without its zeros: two rows for one code, in both.
    expect(preview.valid).toBe(false);
    expect(preview.errors.map((error) => error.row)).toEqual([0, 1000]);
    expect(expectErrorBody(result, 400).details!.map((detail) => detail.row)).toEqual([0, 1000]);
  });

  it('a row naming a location by its id after another row matched it by its code -> both rows errors, across pieces too (the review)', async () => {
    const { clientId, ids } = await clientWithCodes('One location two rows', { X: 'X-1' });
    const filler = Array.from({ length: 1000 }, (_, i) => ({ name: `Filler ${i}`, address: `${i} Filler St` }));
    const rows = [
      { name: 'Above', store_code: 'X-1', address: '3 Above St' },
      ...filler,
      { id: ids.X, name: 'X', store_code: 'X-2' },
    ];
    const refused = await upload(clientId, rows, '?mode=upsert');
    const details = expectErrorBody(refused, 400).details!;
    expect(details.map((detail) => [detail.row, detail.field])).toEqual([
      [0, 'store_code'],
      [1001, 'id'],
    ]);
    expect(details[1]!.message).toBe(
      `location ${ids.X} is also the one row 0 names by its store code: one location is one row (is one of them a new location?)`,
    );
    expect((await list(clientId)).map((row) => row.name)).toEqual(['X']);
  });

  it('a row taking a store code another location keeps -> 400 naming the row, the code and that location; the dry run agrees', async () => {
    const { clientId, ids } = await clientWithCodes('Code taken', { A: 'K-1', Keeper: 'K-2' });
    const before = dataSnapshot(t.store.db);
    const rows = [{ id: ids.A, name: 'A', store_code: 'K-2', line: 2 }];
    const preview = await dryRun(clientId, rows, '?mode=upsert');
    expect(preview.valid).toBe(false);
    expect(preview.totals).toMatchObject({ updated: 0, errors: 1 });
    expect(preview.rows[0]!.action).toBe('error');
    const refused = await upload(clientId, rows, '?mode=upsert');
    expectErrorBody(refused, 400);
    const details = refused.json<{ details: { row: number; line: number; field: string; message: string }[] }>()
      .details;
    expect(details).toEqual([
      expect.objectContaining({ row: 0, line: 2, field: 'store_code', message: expect.stringContaining('"K-2"') }),
    ]);
    expect(details[0]!.message).toContain(ids.Keeper);
    expect(details[0]!.message).toContain('Keeper');
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('undoing a delete whose store code another location took since lists it as a conflict, and stays undoable', async () => {
    const { ids } = await clientWithCodes('Code retaken', { Gone: 'G-1', Taker: 'G-2' });
    const deleted = await t.request({
      method: 'POST',
      url: '/api/locations/delete',
      token: admin,
      body: { ids: [ids.Gone] },
    });
    const operationId = deleted.json<{ operation_id: string }>().operation_id;
    const patch = (code: string) =>
      t.request({ method: 'PATCH', url: `/api/locations/${ids.Taker}`, token: admin, body: { store_code: code } });
    expect((await patch('G-1')).statusCode).toBe(200);
    const undo = (query = '') =>
      t.request({ method: 'POST', url: `/api/operations/${operationId}/undo${query}`, token: admin });
    const dry = await undo('?dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    // The words name the holder as a person would; its id is a field of its own, for a script or a link.
    expect(dry.json()).toMatchObject({
      recreated: 0,
      conflicts: [
        {
          location_id: ids.Gone,
          name: 'Gone',
          reason: 'its store code "G-1" is now used by Taker',
          held_by: ids.Taker,
        },
      ],
    });
    // An undo that would change nothing writes nothing: no undo in the trail, the delete not marked undone...
    const nothing = await undo();
    expect(nothing.statusCode, nothing.body).toBe(200);
    expect(nothing.json()).toMatchObject({ dry_run: false, operation_id: null, recreated: 0, conflicts: [{}] });
    // ...so that once the code is free again, the deleted location comes back.
    expect((await patch('G-2')).statusCode).toBe(200);
    const done = await undo();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ recreated: 1, conflicts: [] });
    expect((await record(ids.Gone!)).json<{ store_code: string }>().store_code).toBe('G-1');
  });

  it("a phone's extension is not kept (E.164 has none), and the dry run gives it on the row", async () => {
    const clientId = await t.createClient(admin, 'Extensions');
    const rows = [
      { name: 'Main office', country: 'US', phone: '+1 217-555-0100 ext. 3' },
      { name: 'Branch', country: 'US', phone: '(217) 555-0101 x12' },
      { name: 'Plain', country: 'US', phone: '(217) 555-0102' },
      // The words of other languages' sheets: Québec's poste, Dutch tst., Italian int.; Austria's DW is
      // a direct dial, the number's own end, as "+43 1 53114-0" is.
      { name: 'Montréal', country: 'CA', phone: '+1 514 555 1104 poste 104' },
      { name: 'Wien', country: 'AT', phone: '+43 1 53114 DW 0' },
      { name: 'Utrecht', country: 'NL', phone: '020 123 4567 tst. 8' },
      { name: 'Roma', country: 'IT', phone: '06 1234 5678 int. 21' },
    ];
    const preview = await dryRun(clientId, rows);
    expect(preview.rows.map((row) => [row.phone, row.phone_extension, row.note])).toEqual([
      ['+12175550100', '3', null],
      ['+12175550101', '12', null],
      ['+12175550102', null, null],
      ['+15145551104', '104', null],
      ['+431531140', null, null],
      ['+31201234567', '8', null],
      ['+390612345678', '21', null],
    ]);
    // The final answer names them too, for a script that never ran the dry run (a walk's was dropped unsaid).
    const done = await imported(clientId, rows);
    expect(done.phone_extensions).toEqual([
      { row: 0, extension: '3' },
      { row: 1, extension: '12' },
      { row: 3, extension: '104' },
      { row: 5, extension: '8' },
      { row: 6, extension: '21' },
    ]);
    expect((await list(clientId)).map((location) => location.phone).sort()).toEqual([
      '+12175550100',
      '+12175550101',
      '+12175550102',
      '+15145551104',
      '+31201234567',
      '+390612345678',
      '+431531140',
    ]);
    // From a CSV, each names its line in the file.
    const csv = await t.request({
      method: 'POST',
      url: `/api/locations/upload?clientId=${clientId}`,
      token: admin,
      headers: { 'content-type': 'text/csv' },
      body: 'Name,Country,Phone\nDesk,US,(217) 555-0103\nAnnex,US,"(217) 555-0104 ext. 7"\n',
    });
    expect(csv.statusCode, csv.body).toBe(201);
    expect(csv.json<UploadResponse>().phone_extensions).toEqual([{ row: 1, line: 3, extension: '7' }]);
    // A word alone, with no number before it, is no phone.
    const lone = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows: [{ name: 'Lone', country: 'CA', phone: 'poste 104' }] },
    });
    expect(expectErrorBody(lone, 400).details?.[0]).toMatchObject({ row: 0, field: 'phone' });
  });

  it("an extension is named however the phone's country was found: ?country=, or the matched location's (a walk)", async () => {
    const clientId = await t.createClient(admin, 'Extensions by country');
    const rows = [{ name: 'Back Bay', store_code: 'BB', phone: '(617) 555-0100 ext. 12' }];
    const created = await dryRun(clientId, rows, '?country=US');
    expect(created.rows.map((row) => [row.action, row.phone, row.phone_extension])).toEqual([
      ['created', '+16175550100', '12'],
    ]);
    await imported(clientId, rows, '?country=US');
    // The same row again in an upsert, no ?country=: read by the stored country, its extension still said.
    const again = await dryRun(clientId, rows, '?mode=upsert');
    expect(again.rows.map((row) => [row.action, row.phone, row.phone_extension])).toEqual([
      ['unchanged', '+16175550100', '12'],
    ]);
    // Written, the unchanged row's extension is named (it is still not kept); a skipped duplicate's is not.
    expect((await imported(clientId, rows, '?mode=upsert')).phone_extensions).toEqual([{ row: 0, extension: '12' }]);
    expect((await imported(clientId, rows, '?country=US')).phone_extensions).toEqual([]);
  });

  it('an undo whose code restore waits on a location left as a conflict lists both, not a 500', async () => {
    // The import gives A a new code and B the code A had (and renames D); C takes B's old code since.
    // B cannot get its code back, so it keeps A's old one, and A cannot get that back either.
    const { clientId, ids } = await clientWithCodes('Code chain', { A: 'X', B: 'Y', C: 'Z', D: 'V' });
    const renumbered = await t.request({
      method: 'POST',
      url: '/api/locations/upload?mode=update',
      token: admin,
      body: {
        clientId,
        rows: [
          { id: ids.A, name: 'A', store_code: 'W' },
          { id: ids.B, name: 'B', store_code: 'X' },
          { id: ids.D, name: 'D renamed', store_code: 'V' },
        ],
      },
    });
    const operationId = renumbered.json<{ operation_id: string }>().operation_id;
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/locations/${ids.C}`,
      token: admin,
      body: { store_code: 'Y' },
    });
    expect(patched.statusCode).toBe(200);
    for (const query of ['?dryRun=true', '']) {
      const undo = await t.request({
        method: 'POST',
        url: `/api/operations/${operationId}/undo${query}`,
        token: admin,
      });
      expect(undo.statusCode, undo.body).toBe(200);
      const answer = undo.json<{ restored: number; conflicts: { location_id: string }[] }>();
      expect(answer.restored).toBe(1);
      expect(answer.conflicts.map((conflict) => conflict.location_id).sort()).toEqual([ids.A, ids.B].sort());
    }
    const codes = Object.fromEntries((await list(clientId)).map((row) => [row.name, row.store_code]));
    expect(codes).toEqual({ A: 'W', B: 'X', C: 'Y', D: 'V' });
  });

  it('labels in another order are no change: the upsert leaves the location unchanged, a PATCH too', async () => {
    const clientId = await t.createClient(admin, 'Label order');
    const row = { name: 'Labelled', store_code: 'L1', labels: 'Downtown, Flagship, Drive-thru' };
    await imported(clientId, [row]);
    const reordered = { ...row, labels: 'Flagship, Drive-thru, Downtown' };
    expect(await imported(clientId, [reordered], '?mode=upsert')).toMatchObject({ unchanged: 1, updated: 0 });
    expect((await list(clientId))[0]!.labels).toEqual(['Downtown', 'Flagship', 'Drive-thru']);
    // One label fewer, or another one, is a change.
    const fewer = await dryRun(clientId, [{ ...row, labels: 'Flagship, Downtown' }], '?mode=upsert');
    expect(fewer.rows[0]!.changes).toEqual({
      labels: { from: ['Downtown', 'Flagship', 'Drive-thru'], to: ['Flagship', 'Downtown'] },
    });
    const [stored] = await list(clientId);
    const revision = () =>
      t.store.db
        .prepare('SELECT revision FROM locations WHERE id = ?')
        .pluck()
        .get(stored!.id as string);
    const before = revision();
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/locations/${stored!.id as string}`,
      token: admin,
      body: { labels: ['Drive-thru', 'Downtown', 'Flagship'] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Nor a new revision: an undo of an earlier change does not take the order for a change since.
    expect(revision()).toBe(before);
    // Saved as sent, and no change in the history.
    expect(patched.json<{ labels: string[] }>().labels).toEqual(['Drive-thru', 'Downtown', 'Flagship']);
    const updates = t.store.db
      .prepare("SELECT count(*) FROM audit_entries WHERE action = 'location.updated' AND location_id = ?")
      .pluck()
      .get(stored!.id);
    expect(updates).toBe(0);
  });

  it('coordinates of 17 digits read back exactly: the same row again is unchanged, by id and by key', async () => {
    const clientId = await t.createClient(admin, 'Exact coordinates');
    const row = { name: 'Exact', store_code: 'X1', latitude: '48.85661400000001', longitude: '-122.41941550000001' };
    await imported(clientId, [row]);
    // The list gives the stored numbers exactly (SQLite's JSON would write 15 digits: 48.856614), so the
    // listed values, exported and imported again, are no change either.
    const [stored] = await list(clientId);
    expect([stored!.latitude, stored!.longitude]).toEqual([Number(row.latitude), Number(row.longitude)]);
    const listed = {
      name: 'Exact',
      store_code: 'X1',
      latitude: String(stored!.latitude),
      longitude: String(stored!.longitude),
    };
    expect(await imported(clientId, [listed], '?mode=upsert')).toMatchObject({ unchanged: 1, updated: 0 });
    expect(await imported(clientId, [row], '?mode=upsert')).toMatchObject({ unchanged: 1, updated: 0 });
    expect(await imported(clientId, [{ id: stored!.id, ...row }], '?mode=upsert')).toMatchObject({ unchanged: 1 });
  });

  it("a coordinate in Excel's scientific notation (-1E-07, its General format of a tiny one) is the number it says", async () => {
    const clientId = await t.createClient(admin, 'Greenwich');
    await imported(clientId, [
      { name: 'Royal Observatory', store_code: 'G1', latitude: '51.4779', longitude: '-1E-07' },
    ]);
    const [stored] = await list(clientId);
    expect([stored!.latitude, stored!.longitude]).toEqual([51.4779, -0.0000001]);
    // Written as decimals, as the export does, it is no change; nor in JavaScript's own "-1e-7".
    for (const longitude of ['-0.0000001', '-1e-7', '-1,0E-07'])
      expect(
        await imported(clientId, [{ name: 'Royal Observatory', store_code: 'G1', longitude }], '?mode=upsert'),
      ).toMatchObject({ unchanged: 1 });
    const refused = await upload(clientId, [{ name: 'Odd', latitude: '1e', longitude: '1E+' }]);
    expect(expectErrorBody(refused, 400).details!.map((detail) => detail.message)).toEqual([
      '"1e" is not a number',
      '"1E+" is not a number',
    ]);
  });

  it('a website keeps letters beyond ASCII readable, other escapes as they were; the same row again is unchanged', async () => {
    const clientId = await t.createClient(admin, 'Readable websites');
    const rows = [
      { name: 'Accents', store_code: 'W1', website: 'boulangerie.example/éclairs/crème-brûlée' },
      { name: 'Encoded', store_code: 'W2', website: 'https://example.fr/a%20b/%C3%A9t%C3%A9?q=caf%c3%a9' },
      { name: 'Japanese', store_code: 'W3', website: 'https://example.jp/店舗/東京' },
      // A mark that changes the direction of text, and a Latin-1 byte that is no UTF-8: both stay escaped.
      // So do a fullwidth slash (read as a /), a Hangul filler (drawn blank) and an accent after a /.
      {
        name: 'Kept',
        store_code: 'W4',
        website: 'https://example.com/x%E2%80%8Fy/stra%DFe/a%EF%BC%8Fb/%E3%85%A4/%CC%81',
      },
      // An accent after its letter (a decomposed é) is that letter's.
      { name: 'Decomposed', store_code: 'W5', website: 'https://example.fr/e%CC%81t%C3%A9' },
    ];
    await imported(clientId, rows);
    expect((await list(clientId)).map((location) => location.website)).toEqual([
      'https://boulangerie.example/éclairs/crème-brûlée',
      'https://example.fr/a%20b/été?q=café',
      'https://example.jp/店舗/東京',
      'https://example.com/x%E2%80%8Fy/stra%DFe/a%EF%BC%8Fb/%E3%85%A4/%CC%81',
      'https://example.fr/e\u0301té',
    ]);
    expect(await imported(clientId, rows, '?mode=upsert')).toMatchObject({ unchanged: 5, updated: 0 });
    // As an earlier release stored it, percent-encoded: the same row again is still no change.
    t.store.db
      .prepare(
        "UPDATE locations SET website = 'https://boulangerie.example/%C3%A9clairs/cr%C3%A8me-br%C3%BBl%C3%A9e' WHERE store_code = 'W1'",
      )
      .run();
    expect(await imported(clientId, rows, '?mode=upsert')).toMatchObject({ unchanged: 5, updated: 0 });
  });

  it('an internationalized domain is a website, kept as its letters; a port is 1 to 65535 (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'IDN websites');
    const rows = [
      { name: 'Müller', store_code: 'I1', website: 'müller.de' },
      { name: 'Bücher', store_code: 'I2', website: 'https://BÜCHER.example/läden?stadt=köln' },
      { name: 'Punycode', store_code: 'I3', website: 'https://xn--mller-kva.de/' },
      { name: 'Russia', store_code: 'I4', website: 'пример.рф' },
      { name: 'Russia ASCII', store_code: 'I5', website: 'example.xn--p1ai' },
    ];
    await imported(clientId, rows);
    expect((await list(clientId)).map((location) => location.website)).toEqual([
      'https://müller.de/',
      'https://bücher.example/läden?stadt=köln',
      'https://müller.de/',
      'https://пример.рф/',
      'https://example.рф/',
    ]);
    expect(await imported(clientId, rows, '?mode=upsert')).toMatchObject({ unchanged: 5, updated: 0 });
    // A label past DNS's 63 characters, or a name past its 253 (a probe's 2,040-letter label was taken).
    const websites = [
      'https://example.com:0/',
      'https://example.com:65536/',
      '☕.example',
      'müller.d3',
      'xn--a.com',
      `${'a'.repeat(64)}.com`,
      `${'abcdefghi.'.repeat(26)}com`,
    ];
    const refused = await dryRun(
      clientId,
      websites.map((website, n) => ({ name: `R${n}`, website })),
    );
    expect(refused.errors.map((error) => [error.row, error.field])).toEqual([
      [0, 'website'],
      [1, 'website'],
      [2, 'website'],
      [3, 'website'],
      [4, 'website'],
      [5, 'website'],
      [6, 'website'],
    ]);
    // At the limits, a website: a 63-letter label, an internationalized one whose ASCII form fits.
    const fits = await dryRun(clientId, [
      { name: 'Long', website: `${'a'.repeat(63)}.com` },
      { name: 'Long IDN', website: `${'ü'.repeat(20)}.de` },
    ]);
    expect(fits.errors).toEqual([]);
  });

  it('export -> re-import as upsert round-trips with zero changes', async () => {
    const clientId = await t.createClient(admin, 'Round trip');
    await imported(clientId, [STORE, { name: 'Bare' }, { name: 'Kiosk', address: 'Gate 4', labels: 'a,b' }]);
    const ids = (await list(clientId)).map((row) => row.id as string);
    const records = await Promise.all(ids.map(async (id) => (await record(id)).json<Row>()));
    // Every field the export writes, and the id it adds: nothing of the record it does not.
    const rows = records.map((record) =>
      Object.fromEntries(['id', ...LOCATION_FIELDS].map((field) => [field, record[field]])),
    );
    expect(await imported(clientId, rows, '?mode=upsert')).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it('a row matched by its exported id keeps the stored store code that Excel stripped of its zeros', async () => {
    const { clientId, ids } = await clientWithCodes('Zeros by id', { North: '00123', South: '0042' });
    const rows = [
      { id: ids.North, name: 'North', store_code: '123' },
      { id: ids.South, name: 'South', store_code: '42', city: 'Tulsa' },
    ];
    const preview = await dryRun(clientId, rows, '?mode=update');
    expect(preview.rows.map(({ action, changes }) => [action, changes])).toEqual([
      ['unchanged', null],
      ['updated', { city: { from: null, to: 'Tulsa' } }],
    ]);
    expect(await imported(clientId, rows, '?mode=update')).toMatchObject({ updated: 1, unchanged: 1 });
    expect((await list(clientId)).map((row) => row.store_code)).toEqual(['00123', '0042']);
  });

  it("coordinates Excel's General format rounded to 11 characters are the stored ones; a real move is a change (found by a probe)", async () => {
    const clientId = await t.createClient(admin, 'Excel rounding');
    await imported(clientId, [{ name: 'SF', latitude: 37.7749295, longitude: -122.4194155 }]);
    const [stored] = await list(clientId);
    const row = (latitude: string, longitude: string) => [{ id: stored!.id, name: 'SF', latitude, longitude }];
    expect((await dryRun(clientId, row('37.7749295', '-122.419416'), '?mode=update')).totals).toMatchObject({
      unchanged: 1,
    });
    const moved = await dryRun(clientId, row('37.7749295', '-122.41942'), '?mode=update');
    expect(moved.rows[0]!.changes).toEqual({ longitude: { from: -122.4194155, to: -122.41942 } });
    // A change of another field keeps the stored coordinates exact, not Excel's.
    await imported(clientId, [{ ...row('37.77493', '-122.419416')[0], city: 'San Francisco' }], '?mode=update');
    expect((await list(clientId))[0]).toMatchObject({
      latitude: 37.7749295,
      longitude: -122.4194155,
      city: 'San Francisco',
    });
  });

  it('a phone Excel left readable two ways is the stored one when it is one of them; else the row is refused (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Excel phones');
    await imported(clientId, [{ name: 'Dresden', country: 'DE', phone: '+49 351 1234567' }]);
    const [stored] = await list(clientId);
    // The export's +493511234567, saved by Excel as the number 493511234567, matched by its id: unchanged.
    const back = await dryRun(
      clientId,
      [{ id: stored!.id, name: 'Dresden', country: 'DE', phone: '493511234567' }],
      '?mode=update',
    );
    expect(back.totals).toMatchObject({ unchanged: 1, errors: 0 });
    // A location whose phone is neither reading, and a new row: refused, naming both readings.
    const other = await upload(clientId, [{ name: 'Leer', country: 'DE', phone: '4921123456' }], '?mode=upsert');
    expect(expectErrorBody(other, 400).details![0]!.message).toMatch(
      /^"4921123456" may be \+4921123456 .* or \+494921123456/,
    );
  });

  it('a foreign phone Excel stripped of its + is the stored one; else the row is refused, told the reading (a walk)', async () => {
    const clientId = await t.createClient(admin, 'Excel foreign phones');
    await imported(clientId, [{ name: 'Capitol Hill', country: 'US', phone: '+44 20 7946 0958' }]);
    const [stored] = await list(clientId);
    const row = (phone: string) => [{ id: stored!.id, name: 'Capitol Hill', country: 'US', phone }];
    expect((await dryRun(clientId, row('442079460958'), '?mode=update')).totals).toMatchObject({
      unchanged: 1,
      errors: 0,
    });
    // Another number of the same form, or a new row: not taken on a guess, the reading said.
    for (const [rows, query] of [
      [row('442079460959'), '?mode=update'],
      [[{ name: 'Soho', country: 'US', phone: '442079460958' }], '?mode=upsert'],
    ] as const) {
      const refused = await upload(clientId, [...rows], query);
      expect(expectErrorBody(refused, 400).details![0]!.message).toMatch(
        /has the wrong number of digits for US \(read with a \+, it is \+44207946095\d: write it so if it is, as Excel drops the \+\)$/,
      );
    }
  });

  it('a postal code Excel stripped of its zeros is the stored one too, where no country puts them back (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Zip zeros by id');
    await imported(clientId, [{ name: 'Hartford', zip: '06103' }]);
    const [stored] = await list(clientId);
    const preview = await dryRun(clientId, [{ id: stored!.id, name: 'Hartford', zip: '6103' }], '?mode=update');
    expect(preview.totals).toMatchObject({ unchanged: 1, updated: 0 });
    // A postal code that is another one is still a change.
    const other = await dryRun(clientId, [{ id: stored!.id, name: 'Hartford', zip: '6104' }], '?mode=update');
    expect(other.rows[0]!.changes).toEqual({ zip: { from: '06103', to: '6104' } });
  });

  it.each(['?mode=merge', '?blanks=drop', '?dryRun=maybe'])('%s -> 400', async (query) => {
    const clientId = await t.createClient(admin, `Query ${query}`);
    expectErrorBody(await upload(clientId, [{ name: 'A' }], query), 400);
  });
});

describe('one location: GET, PATCH, DELETE', () => {
  let clientId: string;
  let id: string;
  beforeAll(async () => {
    clientId = await t.createClient(admin, 'Editing');
    await imported(clientId, [STORE, { name: 'Neighbour', store_code: 'BB-002' }]);
    id = (await list(clientId))[0]!.id as string;
  });

  const patch = (body: unknown, token = admin, target = id) =>
    t.request({ method: 'PATCH', url: `/api/locations/${target}`, token, body });

  it("PATCH changes fields by the import's rules and recomputes health", async () => {
    const response = await patch({ phone: '217.555.0177', primary_category: null, status: 'temporarily closed' });
    expect(response.statusCode, response.body).toBe(200);
    expect(Value.Check(LocationRecord, response.json())).toBe(true);
    expect(response.json()).toMatchObject({
      phone: '+12175550177',
      primary_category: null,
      status: 'temporarily_closed',
      health_score: 95,
      health_hints: ['No primary category'],
    });
  });

  it('an hours interval of one time says what an interval is, in words (TypeBox said "Expected tuple to have 2 elements")', async () => {
    const error = expectErrorBody(await patch({ hours: { mon: [['09:00']] } }), 400);
    expect(error.details).toEqual([
      {
        path: '/body/hours/mon/0',
        message:
          'must be a list of 2 items (Opening and closing time, HH:MM; a closing time at or before the opening runs past midnight)',
      },
    ]);
    // A time out of form is named where it is, in words, not by its pattern (a probe's "9:00"), and a
    // union of types in the import's words (a probe: PATCH said "string or null", the import "text or null").
    expect(expectErrorBody(await patch({ hours: { mon: [['9:00', '17:00']] }, zip: 2116 }), 400).details).toEqual([
      { path: '/body/zip', message: 'must be text or null' },
      {
        path: '/body/hours/mon/0/0',
        message: 'must be a time as HH:MM on the 24-hour clock, such as "09:00" or "17:30"',
      },
    ]);
    const row = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows: [{ name: 'A', hours: { mon: [['9:00', '17:00']] } }] },
    });
    expect(expectErrorBody(row, 400).details).toMatchObject([
      {
        row: 0,
        field: 'hours',
        message: 'mon/0/0 must be a time as HH:MM on the 24-hour clock, such as "09:00" or "17:30"',
      },
    ]);
    // JSON's 1e400 is Infinity to JavaScript: said so, not "must be number or string or null".
    const huge = await patch('{"latitude": 1e400, "longitude": 2}');
    expect(expectErrorBody(huge, 400).details).toEqual([
      { path: '/body/latitude', message: 'must be a finite number' },
    ]);
    // An import row's too (a walk was told "must be a number, or text holding one" of a number).
    const hugeRow = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: `{"clientId": "${clientId}", "rows": [{"name": "A", "latitude": 1e999, "longitude": 2}]}`,
    });
    expect(expectErrorBody(hugeRow, 400).details).toMatchObject([
      { row: 0, field: 'latitude', message: 'must be a finite number' },
    ]);
  });

  it('PATCH keeps a postal code as typed: the zeros a spreadsheet drops are put back for imports only', async () => {
    // 7870 for a US location: an import's row would be 07870 (Excel's 2116 for Boston's 02116), a typed
    // value is kept, and health says it does not fit (a user's typo for 78701 was saved as New Jersey's).
    const typed = await patch({ zip: '7870' });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json()).toMatchObject({
      zip: '7870',
      health_hints: expect.arrayContaining(['Postal code does not fit US']),
    });
    const other = await t.createClient(admin, 'Zeros imported');
    await imported(other, [
      { name: 'Back Bay', country: 'US', zip: '2116' },
      { name: 'Back Bay Kiosk', state: 'Massachusetts', country: 'US', zip: '2116' },
      // A state whose ZIP codes start with 7: mistyped, not stripped (a walk's Austin became New Jersey).
      { name: 'Austin', state: 'TX', country: 'US', zip: '7870' },
      { name: 'Austin Kiosk', state: 'texas', country: 'US', zip: '7870' },
      // Nor the Pacific's military post offices (962-966), nor the Marshall Islands' (969) (a review).
      { name: 'Camp Zama', state: 'AP', country: 'US', zip: '9634' },
      { name: 'Majuro', state: 'MH', country: 'US', zip: '6920' },
    ]);
    const rows = await list(other);
    expect(rows.map((row) => [row.name, row.zip])).toEqual([
      ['Back Bay', '02116'],
      ['Back Bay Kiosk', '02116'],
      ['Austin', '7870'],
      ['Austin Kiosk', '7870'],
      ['Camp Zama', '9634'],
      ['Majuro', '6920'],
    ]);
    expect(rows[2]!.health_issues).toEqual(expect.arrayContaining(['Postal code does not fit US']));
    expect((await patch({ zip: STORE.zip })).statusCode).toBe(200);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ phone: 'abc' }, 'phone'],
    [{ hours: 'sometimes' }, 'hours'],
    [{ color: 'blue' }, 'color'],
    [{}, ''],
  ])('PATCH %j -> 400 naming the field, nothing written', async (body, field) => {
    const before = dataSnapshot(t.store.db);
    const error = expectErrorBody(await patch(body), 400);
    expect(error.details?.[0]?.path).toBe(field === '' ? '/body' : `/body/${field}`);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('PATCH a blank name -> one error for it, not "is required" and "cannot be blank" both', async () => {
    const error = expectErrorBody(await patch({ name: '  ', phone: 'abc' }), 400);
    expect(error.message).toBe('name cannot be blank');
    expect(error.details?.map((detail) => detail.path)).toEqual(['/body/name', '/body/phone']);
  });

  it("PATCH to another location's store code -> 409", async () => {
    // The location that has it, by name.
    expect(expectErrorBody(await patch({ store_code: 'BB-002' }), 409).message).toBe(
      'Another location of this client, "Neighbour", already has the store code "BB-002"',
    );
  });

  it("PATCH refused for other fields also names another location's store code (a walk heard of it a save later)", async () => {
    const before = dataSnapshot(t.store.db);
    const error = expectErrorBody(await patch({ name: ' ', latitude: 123, store_code: ' BB-002 ' }), 400);
    expect(error.details).toEqual([
      expect.objectContaining({ path: '/body/name', message: 'cannot be blank' }),
      expect.objectContaining({ path: '/body/latitude' }),
      {
        path: '/body/store_code',
        message: 'Another location of this client, "Neighbour", already has the store code "BB-002"',
      },
    ]);
    // Its own code, or a free one, is no clash; nothing was written.
    const own = expectErrorBody(await patch({ name: ' ', store_code: 'BB-001' }), 400);
    expect(own.details?.map((detail) => detail.path)).toEqual(['/body/name']);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('PATCH ?dryRun=true answers the record as it would be, with every check, and writes nothing', async () => {
    const before = dataSnapshot(t.store.db);
    const dry = (body: unknown, token = admin) =>
      t.request({ method: 'PATCH', url: `/api/locations/${id}?dryRun=true`, token, body });
    const would = await dry({ phone: '(217) 555-0142', primary_category: null });
    expect(would.statusCode, would.body).toBe(200);
    expect(Value.Check(LocationRecord, would.json())).toBe(true);
    expect(would.json()).toMatchObject({ id, phone: '+12175550142', primary_category: null, dry_run: true });
    expect((await record(id)).json()).not.toHaveProperty('dry_run');
    expect(would.json<{ health_hints: string[] }>().health_hints).toContain('No primary category');
    expect(expectErrorBody(await dry({ phone: 'abc' }), 400).details?.[0]?.path).toBe('/body/phone');
    // The store code's uniqueness is SQLite's index: the dry run meets it as the change would.
    expectErrorBody(await dry({ store_code: 'BB-002' }), 409);
    expectErrorBody(await dry({ phone: '(217) 555-0142' }, viewer), 403);
    expectErrorBody(
      await t.request({ method: 'PATCH', url: `/api/locations/${id}?dryRun=maybe`, token: admin, body: {} }),
      400,
    );
    // Nothing written: no value, no revision, no entry in the history.
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('as a Viewer -> 403; an unknown id -> 404', async () => {
    expectErrorBody(await patch({ city: 'X' }, viewer), 403);
    expectErrorBody(await patch({ city: 'X' }, admin, '00000000-0000-4000-8000-000000000000'), 404);
    expectErrorBody(await record('00000000-0000-4000-8000-000000000000'), 404);
    expect((await record(id, viewer)).statusCode).toBe(200);
  });

  it('bulk edit sets the same values on many in one request; one foreign id fails it all', async () => {
    const ids = (await list(clientId)).map((row) => row.id as string);
    const edit = (body: unknown) => t.request({ method: 'PATCH', url: '/api/locations', token: admin, body });
    const bad = await edit({ ids: [...ids, '00000000-0000-4000-8000-000000000000'], set: { labels: 'x' } });
    const refused = expectErrorBody(bad, 404);
    expect(refused.message).toBe(
      `1 of the ${ids.length + 1} ids is not a location of your organization (deleted already?): 00000000-0000-4000-8000-000000000000; nothing was changed`,
    );
    // Which one, and where in the list (a probe could not tell which of its ids was wrong).
    expect(refused.details).toEqual([
      {
        path: `/body/ids/${ids.length}`,
        message: '00000000-0000-4000-8000-000000000000 is not a location of your organization',
      },
    ]);
    // Many: ten named in the message, the rest counted; a hundred in the details, in list order.
    const strangers = Array.from({ length: 120 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const many = expectErrorBody(
      await t.request({
        method: 'POST',
        url: '/api/locations/delete',
        token: admin,
        body: { ids: [ids[0], ...strangers] },
      }),
      404,
    );
    expect(many.message).toBe(
      `120 of the 121 ids are not locations of your organization (deleted already?): ${strangers.slice(0, 10).join(', ')} and 110 more; nothing was changed`,
    );
    expect(many.details).toHaveLength(100);
    expect(many.details![99]).toEqual({
      path: '/body/ids/100',
      message: `${strangers[99]} is not a location of your organization`,
    });
    // One id alone is named as one, not "1 of the 1 ids".
    const alone = await edit({ ids: ['00000000-0000-4000-8000-000000000000'], set: { labels: 'x' } });
    const aloneBody = expectErrorBody(alone, 404);
    expect(aloneBody.message).toBe(
      'This id is not a location of your organization (deleted already?); nothing was changed',
    );
    // With the detail a list of several carries: a script reads one shape (a walk's saw none).
    expect(aloneBody.details).toEqual([
      { path: '/body/ids/0', message: '00000000-0000-4000-8000-000000000000 is not a location of your organization' },
    ]);
    const deletedAlone = await t.request({
      method: 'POST',
      url: '/api/locations/delete',
      token: admin,
      body: { ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(expectErrorBody(deletedAlone, 404).details).toHaveLength(1);
    // A wrong value and an unknown field are named by the same kind of path.
    const wrong = expectErrorBody(await edit({ ids, set: { status: 'gone' } }), 400);
    expect(wrong.details?.map((detail) => detail.path)).toEqual(['/body/set/status']);
    const unknown = expectErrorBody(await edit({ ids, set: { color: 'red' } }), 400);
    expect(unknown.details?.map((detail) => detail.path)).toEqual(['/body/set/color']);
    const done = await edit({ ids, set: { status: 'permanently_closed', labels: ['closing'] } });
    expect(done.json()).toEqual({ success: true, count: 2, operation_id: expect.any(String) });
    expect((await list(clientId)).map((row) => [row.status, row.health_status, row.labels])).toEqual([
      ['permanently_closed', 'closed', ['closing']],
      ['permanently_closed', 'closed', ['closing']],
    ]);
  });

  it('DELETE one, and POST /api/locations/delete many in one transaction; counts follow', async () => {
    const other = await t.createClient(admin, 'Deleting');
    await imported(other, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const [a, b, c] = (await list(other)).map((row) => row.id as string);
    const deleted = await t.request({ method: 'DELETE', url: `/api/locations/${a}`, token: admin });
    expect(deleted.json()).toEqual({ success: true, operation_id: expect.any(String) });
    expectErrorBody(await t.request({ method: 'DELETE', url: `/api/locations/${a}`, token: admin }), 404);
    // Its operation id is what a script undoes it with: the location comes back.
    const undo = await t.request({
      method: 'POST',
      url: `/api/operations/${deleted.json<{ operation_id: string }>().operation_id}/undo`,
      token: admin,
    });
    expect(undo.json()).toMatchObject({ recreated: 1, conflicts: [] });
    expect((await list(other)).map((row) => row.id)).toContain(a);
    expect((await t.request({ method: 'DELETE', url: `/api/locations/${a}`, token: admin })).statusCode).toBe(200);
    const many = (ids: string[], token = admin) =>
      t.request({ method: 'POST', url: '/api/locations/delete', token, body: { ids } });
    expectErrorBody(await many([b!, c!], viewer), 403);
    expectErrorBody(await many([b!, '00000000-0000-4000-8000-000000000000']), 404);
    expect((await list(other)).length).toBe(2);
    expect((await many([b!, c!])).json()).toEqual({ success: true, count: 2, operation_id: expect.any(String) });
    const clients = (await t.request({ method: 'GET', url: '/api/clients', token: admin })).json<
      { id: string; locations_count: number }[]
    >();
    expect(clients.find((client) => client.id === other)?.locations_count).toBe(0);
  });

  it('bulk edit and delete take ids in upper case, as PATCH and DELETE of one do (RFC 9562 section 4)', async () => {
    const other = await t.createClient(admin, 'Upper-case ids');
    await imported(other, [{ name: 'A' }, { name: 'B' }]);
    const [a, b] = (await list(other)).map((row) => row.id as string);
    const edit = await t.request({
      method: 'PATCH',
      url: '/api/locations',
      token: admin,
      body: { ids: [a!.toUpperCase(), b!], set: { city: 'Springfield' } },
    });
    expect(edit.json()).toEqual({ success: true, count: 2, operation_id: expect.any(String) });
    const twice = (ids: string[]) =>
      t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids } });
    // The same id in two cases is one id named twice, refused as any repeated id is.
    const repeated = expectErrorBody(await twice([a!, a!.toUpperCase()]), 400);
    expect(repeated.details?.[0]?.path).toBe('/body/ids/1');
    expect(repeated.message).toBe(`ids/1 repeats ${a!}, given at 0 already`);
    expect((await twice([a!.toUpperCase(), b!.toUpperCase()])).json()).toEqual({
      success: true,
      count: 2,
      operation_id: expect.any(String),
    });
    expect(await list(other)).toEqual([]);
  });

  it('bulk delete has a dry run, as bulk edit has: the same checks, a count, nothing written (a walk got a 400)', async () => {
    const kept = await t.createClient(admin, 'Delete, dry run');
    await imported(kept, [{ name: 'A' }, { name: 'B' }]);
    const ids = (await list(kept)).map((row) => row.id as string);
    const dry = (body: { ids: string[] }) =>
      t.request({ method: 'POST', url: '/api/locations/delete?dryRun=true', token: admin, body });
    const before = dataSnapshot(t.store.db);
    expect((await dry({ ids })).json()).toEqual({ success: true, count: 2, operation_id: null });
    // An id that is none of the organization's fails it as it fails the deletion.
    expect((await dry({ ids: [...ids, '00000000-0000-4000-8000-000000000000'] })).statusCode).toBe(404);
    expect(dataSnapshot(t.store.db)).toEqual(before);
    expect(await list(kept)).toHaveLength(2);
  });
});

describe('bulk edit: labels added and removed', () => {
  type Labelled = { id: string; name: string; labels: string[] | null };
  const edit = (body: unknown, query = '') =>
    t.request({ method: 'PATCH', url: `/api/locations${query}`, token: admin, body });
  const labelsOf = async (clientId: string) =>
    Object.fromEntries(((await list(clientId)) as Labelled[]).map((row) => [row.name, row.labels]));

  /** The user walk's client: a bakery, a flagship café, one without labels. */
  async function tagged(name: string) {
    const clientId = await t.createClient(admin, name);
    await imported(clientId, [
      { name: 'Pike Street', labels: 'bakery' },
      { name: 'Harbor', labels: 'flagship, café' },
      { name: 'Airport' },
    ]);
    const rows = (await list(clientId)) as Labelled[];
    return { clientId, ids: rows.map((row) => row.id) };
  }

  it("add_labels adds to each location's own labels, which stay; the entry says what was added", async () => {
    const { clientId, ids } = await tagged('Labels added');
    // As the dashboard sends "summer, summer, " (its text split at the commas): the blank is left out.
    const done = await edit({ ids, add_labels: [' summer ', 'summer', ' '] });
    expect(done.json()).toEqual({ success: true, count: 3, operation_id: expect.any(String) });
    expect(await labelsOf(clientId)).toEqual({
      'Pike Street': ['bakery', 'summer'],
      Harbor: ['flagship', 'café', 'summer'],
      Airport: ['summer'],
    });
    const trail = await t.request({ method: 'GET', url: `/api/audit?clientId=${clientId}&limit=1`, token: admin });
    expect(trail.json<{ entries: { summary: unknown }[] }>().entries[0]!.summary).toEqual({
      count: 3,
      of: 3,
      add_labels: ['summer'],
      names: expect.arrayContaining(['Pike Street', 'Harbor', 'Airport']),
    });
  });

  it('remove_labels takes them off where they are, compared as stored: case counts', async () => {
    const { clientId, ids } = await tagged('Labels removed');
    expect((await edit({ ids, remove_labels: ['Bakery', 'CAFÉ'] })).json()).toMatchObject({ count: 0 });
    expect((await edit({ ids, remove_labels: ['café', 'bakery'] })).json()).toMatchObject({ count: 2 });
    expect(await labelsOf(clientId)).toEqual({ 'Pike Street': null, Harbor: ['flagship'], Airport: null });
  });

  it('both at once, beside set: each location its own labels plus the added less the removed', async () => {
    const { clientId, ids } = await tagged('Labels both');
    const done = await edit({ ids, set: { city: 'Seattle' }, add_labels: ['summer'], remove_labels: ['flagship'] });
    expect(done.json()).toMatchObject({ count: 3 });
    expect(await labelsOf(clientId)).toEqual({
      'Pike Street': ['bakery', 'summer'],
      Harbor: ['café', 'summer'],
      Airport: ['summer'],
    });
    expect(((await list(clientId)) as { city: string }[]).map((row) => row.city)).toEqual([
      'Seattle',
      'Seattle',
      'Seattle',
    ]);
  });

  it('a location whose labels would not change is not counted and not written', async () => {
    const { clientId, ids } = await tagged('Labels no-op');
    const revisions = () =>
      ids.map((id) => t.store.db.prepare('SELECT revision FROM locations WHERE id = ?').pluck().get(id));
    const [pike, harbor, airport] = revisions() as number[];
    // Pike Street has bakery already and no café; Harbor gains bakery and loses café; Airport gains bakery.
    expect((await edit({ ids, add_labels: ['bakery'], remove_labels: ['café'] })).json()).toMatchObject({ count: 2 });
    expect(revisions()).toEqual([pike, harbor! + 1, airport! + 1]);
    expect(await labelsOf(clientId)).toEqual({
      'Pike Street': ['bakery'],
      Harbor: ['flagship', 'bakery'],
      Airport: ['bakery'],
    });
    // A dry run counts the same, and writes nothing.
    const before = dataSnapshot(t.store.db);
    const dry = await edit({ ids, add_labels: ['bakery', 'summer'] }, '?dryRun=true');
    expect(dry.json()).toEqual({ success: true, count: 3, operation_id: null });
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('a location that would have more than 10 labels -> 400 naming how many and one of them; nothing written', async () => {
    const clientId = await t.createClient(admin, 'Labels full');
    const nine = Array.from({ length: 9 }, (_, n) => `tag ${n + 1}`);
    await imported(clientId, [
      { name: 'Full One', labels: nine },
      { name: 'Full Two', labels: nine },
      { name: 'Roomy', labels: ['tag 1'] },
    ]);
    const ids = ((await list(clientId)) as Labelled[]).map((row) => row.id);
    const before = dataSnapshot(t.store.db);
    for (const query of ['', '?dryRun=true']) {
      const refused = expectErrorBody(await edit({ ids, add_labels: ['new 1', 'new 2'] }, query), 400);
      expect(refused.message).toMatch(/^2 locations would have more than 10 labels \(Full One would have 11\)/);
      expect(refused.details?.map((detail) => detail.path)).toEqual(['/body/add_labels']);
    }
    expect(dataSnapshot(t.store.db)).toEqual(before);
    // Taking one off in the same request leaves room: 9 + 2 - 1.
    expect((await edit({ ids, add_labels: ['new 1', 'new 2'], remove_labels: ['tag 9'] })).json()).toMatchObject({
      count: 3,
    });
  });

  it.each([
    [{ set: { labels: 'x' }, add_labels: ['y'] }, '/body/set/labels', /^set.labels cannot go with add_labels/],
    [{ set: { labels: null }, remove_labels: ['y'] }, '/body/set/labels', /cannot go with remove_labels/],
    [{ add_labels: 'summer' }, '/body/add_labels', /array/i],
    [{ remove_labels: ['ok', 5] }, '/body/remove_labels/1', /string/i],
    [{ add_labels: ['a, b'] }, '/body/add_labels', /holds a comma/],
    [{ add_labels: ['x'.repeat(51)] }, '/body/add_labels', /longer than 50 characters/],
    [{ add_labels: Array.from({ length: 11 }, (_, n) => `l${n}`) }, '/body/add_labels', /has 11 labels/],
    [{ add_labels: ['summer'], remove_labels: [' summer'] }, '/body/remove_labels', /"summer" is in add_labels too/],
    [{ add_labels: [' '] }, '/body/add_labels', /^add_labels names no label: each one given is blank$/],
    [{ remove_labels: ['', '  '] }, '/body/remove_labels', /^remove_labels names no label/],
    [{}, '/body', /changes nothing/],
    // Found by a probe: one request copied 140,000 intervals onto each of 200 locations (600 MB).
    [
      { set: { hours: { mon: Array.from({ length: 9 }, () => ['09:00', '10:00']) } } },
      '/body/set/hours/mon',
      /^set\/hours\/mon must have at most 8 items/,
    ],
    [
      {
        set: {
          hours: {
            mon: [
              ['09:00', '17:00'],
              ['12:00', '18:00'],
            ],
          },
        },
      },
      '/body/set/hours',
      /^set\/hours Mon 12:00-18:00 overlaps Mon 09:00-17:00/,
    ],
    [{ set: { labels: ['x\u0000y'] } }, '/body/set/labels', /control character U\+0000/],
  ])('%j -> 400 naming the path, nothing written', async (body, path, message) => {
    const { ids } = await tagged(`Labels refused ${path} ${JSON.stringify(body).length}`);
    const before = dataSnapshot(t.store.db);
    const refused = expectErrorBody(await edit({ ids, ...body }), 400);
    expect(refused.details?.[0]?.path).toBe(path);
    expect(refused.message).toMatch(message);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });
});

describe('one client: GET and PATCH', () => {
  it('PATCH changes the name, industry and website; GET reads it; the rules are those of POST', async () => {
    const clientId = await t.createClient(admin, 'Renamed Soon');
    const patchClient = (body: unknown, token = admin) =>
      t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token, body });
    const response = await patchClient({ name: '  Bluebird Coffee  ', website: 'bluebird.example', industry: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: clientId, name: 'Bluebird Coffee', website: 'bluebird.example' });
    const read = await t.request({ method: 'GET', url: `/api/clients/${clientId}`, token: viewer });
    expect(read.json()).toMatchObject({ name: 'Bluebird Coffee', industry: null });
    expectErrorBody(await patchClient({ name: '  ' }), 400);
    expectErrorBody(await patchClient({ website: 'nope' }), 400);
    // The locations' rule: a host the URL parser refuses is no website; an internationalized one is.
    expectErrorBody(await patchClient({ website: 'xn--a.com' }), 400);
    expect((await patchClient({ website: 'müller.de' })).json()).toMatchObject({ website: 'müller.de' });
    expectErrorBody(await patchClient({}), 400);
    expectErrorBody(await patchClient({ name: 'X' }, viewer), 403);
    expectErrorBody(
      await t.request({
        method: 'PATCH',
        url: '/api/clients/00000000-0000-4000-8000-000000000000',
        token: admin,
        body: { name: 'X' },
      }),
      404,
    );
  });
});

describe('GET /api/locations?include=google_place_id', () => {
  it('adds the place id for an export; the list leaves it out by default', async () => {
    const clientId = await t.createClient(admin, 'Export ids');
    await imported(clientId, [STORE, { name: 'No place' }]);
    const url = `/api/locations?clientId=${clientId}&include=google_place_id`;
    for (const page of ['', '&limit=1']) {
      const rows = (await t.request({ method: 'GET', url: `${url}${page}`, token: admin })).json<Row[]>();
      expect(rows[0]).toMatchObject({ google_place_id: STORE.google_place_id });
      for (const row of rows) expect(Value.Errors(Location, row).First()).toBeUndefined();
    }
    expect((await list(clientId))[0]).not.toHaveProperty('google_place_id');
    expectErrorBody(
      await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}&include=phone`, token: admin }),
      400,
    );
  });
});

describe('what sheets write for "no value", and parts of a country', () => {
  it('N/A, -, none, #N/A, TBD… are blank: they are not stored and earn no health; NA in the country column is Namibia', async () => {
    const clientId = await t.createClient(admin, 'Placeholders');
    await imported(clientId, [
      { name: 'A', address: 'N/A', city: '-', state: 'none', zip: '#N/A', phone: 'TBD', website: 'n/a', country: 'NA' },
      { name: 'B', country: 'England', phone: '020 7946 0958' },
      { name: 'C', country: 'Scotland' },
    ]);
    const [a, b, c] = await list(clientId);
    expect(a).toMatchObject({
      address: null,
      city: null,
      state: null,
      zip: null,
      phone: null,
      website: null,
      country: 'NA',
    });
    // The country alone (8), and the state Namibia's addresses do without (10): the blanks earn nothing.
    expect(a!.health_score).toBe(18);
    expect(b).toMatchObject({ country: 'GB', phone: '+442079460958' });
    expect(c).toMatchObject({ country: 'GB' });
  });
});

describe('the line a row came from', () => {
  it('a row may say its line in the sheet: not stored, echoed in its errors', async () => {
    const clientId = await t.createClient(admin, 'Lines');
    const response = await upload(clientId, [
      { name: 'A', store_code: 'S1', line: 2 },
      { name: 'B', phone: 'nope', line: 5 },
      { name: 'C', store_code: 'S1', line: 9 },
    ]);
    const error = expectErrorBody(response, 400);
    expect(error.details?.map((detail) => [detail.row, detail.field, (detail as { line?: number }).line])).toEqual([
      [0, 'store_code', 2],
      [1, 'phone', 5],
      [2, 'store_code', 9],
    ]);
    expectErrorBody(await upload(clientId, [{ name: 'A', line: 0 }]), 400);
    await imported(clientId, [{ name: 'A', line: 2 }]);
    expect((await list(clientId))[0]).not.toHaveProperty('line');
  });
});
