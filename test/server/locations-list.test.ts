import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// More than two of the list's 5,000-row pieces, and not a multiple of them.
const ROWS = 12_345;

describe('GET /api/locations for a client with more rows than one piece of the streamed list', () => {
  let t: TestApp;
  let admin: string;
  let clientId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
    clientId = await t.createClient(admin);
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
