import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('the tour', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
  });
  afterAll(() => t.close());

  it('POST /api/locations/upload then GET /api/locations returns the rows with their health', async () => {
    const clientId = await t.createClient(admin);
    const upload = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows: [{ name: 'Downtown', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'USA' }] },
    });
    expect(upload.statusCode).toBe(201);
    const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([expect.objectContaining({ name: 'Downtown', country: 'US', health_status: 'green', health_score: 80 })]);
  });
});
