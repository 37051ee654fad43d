import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * Issue 12, "Values and rows": the placeholders a caller kept (the dashboard's edited list) stay values:
 * `?placeholders=none` reads none; without it the default list applies to every row, for scripts.
 */
let t: TestApp;
let admin: string;
let clientId: string;

beforeAll(async () => {
  const built = await buildSignedInApp({ admin: 'admin' });
  t = built.t;
  admin = built.tokens.admin;
  clientId = await t.createClient(admin, 'Placeholders');
});
afterAll(() => t.close());

function uploadJson(query: string, rows: Record<string, unknown>[]) {
  return t.request({ method: 'POST', url: `/api/locations/upload?${query}`, token: admin, body: { clientId, rows } });
}

function uploadCsv(query: string, csv: string) {
  return t.request({
    method: 'POST',
    url: `/api/locations/upload?clientId=${clientId}&${query}`,
    token: admin,
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
}

async function stored(name: string): Promise<Record<string, unknown> | undefined> {
  const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
  return (list.json() as Record<string, unknown>[]).find((location) => location.name === name);
}

describe('POST /api/locations/upload?placeholders=', () => {
  it('by default a JSON row reads N/A, TBD and --- as blank, and NA in the country as Namibia', async () => {
    const row = { name: 'Windhoek Default', country: 'NA', phone: 'N/A', state: 'NA', city: 'TBD', zip: '---' };
    const response = await uploadJson('', [row]);
    expect(response.statusCode, response.body).toBe(201);
    expect(await stored('Windhoek Default')).toMatchObject({
      country: 'NA',
      phone: null,
      state: null,
      city: null,
      zip: null,
    });
  });

  it('placeholders=none keeps every value as sent: Naples keeps its province NA and a city TBD stays', async () => {
    const row = { name: 'Napoli None', country: 'IT', state: 'NA', city: 'TBD', zip: '80134' };
    const response = await uploadJson('placeholders=none', [row]);
    expect(response.statusCode, response.body).toBe(201);
    expect(await stored('Napoli None')).toMatchObject({ country: 'IT', state: 'NA', city: 'TBD' });
  });

  it('placeholders=none reads "N/A" in the phone as a value: a row error naming the phone, nothing written', async () => {
    const response = await uploadJson('placeholders=none', [{ name: 'Windhoek None', country: 'NA', phone: 'N/A' }]);
    const body = expectErrorBody(response, 400);
    expect(body.details).toEqual([expect.objectContaining({ row: 0, field: 'phone' })]);
    expect(await stored('Windhoek None')).toBeUndefined();
  });

  it('placeholders=default is the default; a dry run answers with the values as they would be stored', async () => {
    const row = { name: 'Dry', state: 'N/A', city: 'none' };
    const dry = await uploadJson('placeholders=default&dryRun=true', [row]);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().rows[0]).toMatchObject({ state: null, city: null });
    const kept = await uploadJson('placeholders=none&dryRun=true', [row]);
    expect(kept.json().rows[0]).toMatchObject({ state: 'N/A', city: 'none' });
  });

  it('a text/csv body with placeholders=none keeps "N/A" in its cells', async () => {
    // A zip beside them: a row of a name and placeholders only would be left out as "only a name".
    const csv = 'Name,City,State,Zip\nCSV None,N/A,NA,80134\n';
    const response = await uploadCsv('placeholders=none', csv);
    expect(response.statusCode, response.body).toBe(201);
    expect(await stored('CSV None')).toMatchObject({ city: 'N/A', state: 'NA' });
    const blanked = await uploadCsv('dryRun=true', csv.replace('CSV None', 'CSV Default'));
    expect(blanked.json().rows[0]).toMatchObject({ city: null, state: null });
  });

  it('any other value, or the option twice, is a clear 400; the word in another case is the word', async () => {
    // Query words are taken in any case (mode=UPSERT too): NONE is none.
    const upper = await uploadJson('placeholders=NONE&dryRun=true', [{ name: 'Upper', city: 'N/A' }]);
    expect(upper.statusCode, upper.body).toBe(200);
    expect(upper.json<{ rows: { city: string | null }[] }>().rows[0]!.city).toBe('N/A');
    for (const query of [
      'placeholders=',
      'placeholders=nones',
      'placeholders=off',
      'placeholders=none&placeholders=none',
    ]) {
      const body = expectErrorBody(await uploadJson(query, [{ name: 'Never' }]), 400);
      expect(body.message, query).toMatch(/placeholders/);
    }
    expect(await stored('Never')).toBeUndefined();
  });
});
