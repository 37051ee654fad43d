import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Location } from '../../server/locations/schemas.js';
import type { TestApp } from '../helpers/app.js';
import { EVERY_FIELD_ROW } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

/** A fresh app with an Admin signed in and one client. */
async function adminWithClient(): Promise<{ t: TestApp; admin: string; clientId: string }> {
  const { t, tokens } = await buildSignedInApp({ admin: 'admin' });
  return { t, admin: tokens.admin, clientId: await t.createClient(tokens.admin) };
}

// More than two of the list's 5,000-row pieces, and not a multiple of them.
const ROWS = 12_345;

describe('GET /api/locations for a client with more rows than one piece of the streamed list', () => {
  let t: TestApp;
  let admin: string;
  let clientId: string;
  beforeAll(async () => {
    ({ t, admin, clientId } = await adminWithClient());
    const rows = Array.from({ length: ROWS }, (_, i) => ({ name: `Store ${i}`, city: `City ${i % 7}` }));
    const upload = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows },
    });
    expect(upload.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('-> one JSON array of every row, in import order, with X-Total-Count', async () => {
    const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-total-count']).toBe(String(ROWS));
    const list = response.json<{ name: string }[]>();
    expect(list).toHaveLength(ROWS);
    expect(list.map((location) => location.name)).toEqual(Array.from({ length: ROWS }, (_, i) => `Store ${i}`));
  });

  it('?limit=5000&offset=5000 -> exactly the second piece', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/locations?clientId=${clientId}&limit=5000&offset=5000`,
      token: admin,
    });
    const list = response.json<{ name: string }[]>();
    expect(list).toHaveLength(5000);
    expect(list[0]!.name).toBe('Store 5000');
    expect(list.at(-1)!.name).toBe('Store 9999');
  });

  it('a client without locations -> []', async () => {
    const empty = await t.createClient(admin, 'Empty Brand');
    const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${empty}`, token: admin });
    expect(response.body).toBe('[]');
  });
});

// The list's JSON is written by the database, not serialized from the schema: held to the schema here.
describe('GET /api/locations answers what its response schema says, streamed or paged', () => {
  const LocationList = Type.Array(Location);
  let t: TestApp;
  let admin: string;
  let clientId: string;
  beforeAll(async () => {
    ({ t, admin, clientId } = await adminWithClient());
    const every = { ...EVERY_FIELD_ROW, name: 'Bluebird "Downtown" \\ café', status: 'Temporarily closed' };
    const rows = [every, { name: 'Only a name' }, { name: 'Closed', status: 'permanently_closed' }];
    const upload = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows },
    });
    expect(upload.statusCode, upload.body).toBe(201);
  });
  afterAll(() => t.close());

  it.each([
    ['the whole list (streamed)', ''],
    ['the whole list with the place ids', '&include=google_place_id'],
    ['a page', '&limit=2&offset=1'],
    ['a page with the place ids', '&limit=2&include=google_place_id'],
  ])('%s -> Location[]', async (_name, query) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/locations?clientId=${clientId}${query}`,
      token: admin,
    });
    expect(response.statusCode).toBe(200);
    const list: unknown = response.json();
    expect([...Value.Errors(LocationList, list)].map((error) => `${error.path} ${error.message}`)).toEqual([]);
    expect((list as unknown[]).length).toBeGreaterThan(0);
    const first = (list as Record<string, unknown>[])[0]!;
    // The place id is write-only in the list unless asked for (spec 4.5).
    expect('google_place_id' in first).toBe(query.includes('include'));
  });

  it('the streamed list is the pages put together', async () => {
    const whole = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    const pages = await Promise.all(
      [0, 2].map((offset) =>
        t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}&limit=2&offset=${offset}`, token: admin }),
      ),
    );
    expect(pages.flatMap((page) => page.json<unknown[]>())).toEqual(whole.json());
  });
});
