import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DryRunResponse } from '../../server/locations/schemas.js';
import { TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * An export re-imported after the locations were changed in the app: the rows carry the export's Updated
 * time (updated_at), and the dry run names each update that would put back a value older than a change
 * made since (changed_since). Over the real server and encrypted database, with a clock the test moves.
 */

interface Listed {
  id: string;
  name: string;
  city: string | null;
  phone: string | null;
  updated_at: string;
}
interface Preview {
  index: number;
  action: string;
  location_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  changed_since: string | null;
}

let t: TestApp;
let admin: string;
let clock: TestClock;

beforeAll(async () => {
  clock = new TestClock();
  const built = await buildSignedInApp({ admin: 'admin' }, { clock });
  t = built.t;
  admin = built.tokens.admin;
});
afterAll(() => t.close());

async function listed(clientId: string): Promise<Listed[]> {
  const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
  expect(response.statusCode).toBe(200);
  return response.json<Listed[]>().sort((a, b) => a.name.localeCompare(b.name));
}

/** A listed location as its export's row: the fields the import reads back, and its Updated time. */
function asRow({ id, name, city, phone, updated_at }: Listed): Record<string, unknown> {
  return { id, name, city, phone, updated_at };
}

async function dryRun(clientId: string, rows: Record<string, unknown>[], mode = 'upsert'): Promise<Preview[]> {
  const response = await t.request({
    method: 'POST',
    url: `/api/locations/upload?dryRun=true&mode=${mode}`,
    token: admin,
    body: { clientId, rows },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(Value.Errors(DryRunResponse, response.json()).First()).toBeUndefined();
  return response.json<{ rows: Preview[] }>().rows;
}

/** A client with two locations, exported (listed) at the clock's time; the clock then moves on a minute. */
async function exportedClient(name: string): Promise<{ clientId: string; exported: Listed[] }> {
  const clientId = await t.createClient(admin, name);
  const created = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin,
    body: {
      clientId,
      rows: [
        { name: 'Alder', city: 'Austin', country: 'US', phone: '+1 512 555 0100' },
        { name: 'Birch', city: 'Boston', country: 'US', phone: '+1 617 555 0100' },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const exported = await listed(clientId);
  clock.advance(60_000);
  return { clientId, exported };
}

describe('an export re-imported after the app changed its locations', () => {
  it('names the update that would put back an older value, with when the location changed', async () => {
    const { clientId, exported } = await exportedClient('Changed since');
    const [alder, birch] = exported;
    // A colleague changes Alder's phone in the app after the export.
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/locations/${alder!.id}`,
      token: admin,
      body: { phone: '+1 512 555 0199' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const changedAt = patch.json<{ updated_at: string }>().updated_at;
    expect(Date.parse(changedAt)).toBeGreaterThan(Date.parse(alder!.updated_at));

    // The old export, its cities edited: both rows change their location.
    const rows = exported.map((location) => ({ ...asRow(location), city: `${location.city} (edited)` }));
    for (const mode of ['upsert', 'update']) {
      const preview = await dryRun(clientId, rows, mode);
      expect(preview.map((row) => [row.location_id, row.action, row.changed_since])).toEqual([
        [alder!.id, 'updated', changedAt],
        [birch!.id, 'updated', null],
      ]);
      // The phone the file still has is the export's: importing it puts the old number back.
      expect(preview[0]!.changes).toMatchObject({ phone: { from: '+15125550199', to: '+15125550100' } });
    }
  });

  it('says nothing of a row that changes nothing, nor of one exported after the change', async () => {
    const { clientId, exported } = await exportedClient('Changed, then exported');
    const [alder] = exported;
    await t.request({ method: 'PATCH', url: `/api/locations/${alder!.id}`, token: admin, body: { city: 'Dallas' } });
    // Row 0 is the old export's Alder, unchanged in the file but for the city the app changed since: it
    // would put Austin back. Row 1 is a newer export's Birch, edited: no change of the app is lost.
    const newer = await listed(clientId);
    const preview = await dryRun(clientId, [
      { ...asRow(alder!), city: 'Dallas' },
      { ...asRow(newer[1]!), city: 'Cambridge' },
    ]);
    expect(preview.map((row) => [row.action, row.changed_since])).toEqual([
      ['unchanged', null],
      ['updated', null],
    ]);
  });

  it('reads the time as a spreadsheet may have saved it: seconds or milliseconds cut, a space, an offset', async () => {
    const { clientId, exported } = await exportedClient('Spreadsheet times');
    const [alder, birch] = exported;
    // Created at 09:00:00.000 and more; the clock has moved a minute since: nothing changed after the export.
    const at = new Date(Date.parse(alder!.updated_at));
    const minute = at.toISOString().slice(0, 16).replace('T', ' ');
    const offset = `${at.toISOString().slice(0, 11)}${String(at.getUTCHours() + 1).padStart(2, '0')}${at
      .toISOString()
      .slice(13, 23)}+01:00`;
    for (const time of [minute, offset, `${minute}:${at.toISOString().slice(17, 19)}`, '', 'N/A', null]) {
      const preview = await dryRun(clientId, [
        { id: alder!.id, name: 'Alder', city: 'Austin (edited)', updated_at: time },
        { id: birch!.id, name: 'Birch', city: 'Boston (edited)', updated_at: birch!.updated_at },
      ]);
      expect(
        preview.map((row) => row.changed_since),
        String(time),
      ).toEqual([null, null]);
    }
  });

  it('refuses a time that is not one an export writes, naming the row and the field', async () => {
    const { clientId, exported } = await exportedClient('Unreadable times');
    for (const time of ['12/6/2026 18:25', '2026-02-30T10:00:00Z', 'yesterday']) {
      const response = await t.request({
        method: 'POST',
        url: '/api/locations/upload?mode=upsert',
        token: admin,
        body: { clientId, rows: [{ ...asRow(exported[0]!), city: 'Elsewhere', updated_at: time }] },
      });
      expectErrorBody(response, 400);
      expect(response.json<{ details: unknown[] }>().details).toEqual([
        expect.objectContaining({
          row: 0,
          field: 'updated_at',
          message: expect.stringContaining('the time the export wrote in its Updated column') as unknown,
        }),
      ]);
    }
    expect((await listed(clientId)).map((location) => location.city)).toEqual(['Austin', 'Boston']);
  });

  it('reads the export’s Updated column of a CSV by itself', async () => {
    const { clientId, exported } = await exportedClient('CSV with Updated');
    const [alder, birch] = exported;
    await t.request({ method: 'PATCH', url: `/api/locations/${birch!.id}`, token: admin, body: { city: 'Salem' } });
    const csv = [
      'Location id,Name,City,Updated',
      `${alder!.id},Alder,Austin,${alder!.updated_at}`,
      `${birch!.id},Birch,Boston,${birch!.updated_at}`,
    ].join('\r\n');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/locations/upload?clientId=${clientId}&mode=upsert&dryRun=true`,
      headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json<{ rows: Preview[] }>().rows;
    expect(rows.map((row) => [row.action, row.changed_since === null])).toEqual([
      ['unchanged', true],
      ['updated', false],
    ]);
  });
});
