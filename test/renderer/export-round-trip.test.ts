import { beforeAll, describe, expect, it } from 'vitest';
import type { LocationRow } from '../../renderer/src/api/types.js';
import { locationsCsv, locationsXlsx } from '../../renderer/src/export/locations-csv.js';
import { decodeInto } from '../../renderer/src/import/decode.js';
import { mapHeaders } from '../../renderer/src/import/header-mapping.js';
import { CsvParser } from '../../renderer/src/import/parse-csv.js';
import { uploadRowOf } from '../../renderer/src/import/upload-rows.js';
import { appWithAdminPerFile } from '../helpers/users.js';
import { bufferSource, rowsOf } from './csv-files.js';
import { EVERY_FIELD_ROW } from '../helpers/data.js';

/**
 * Issue 9 §4: export -> re-import as upsert changes nothing. The CSV comes from the export's own pure
 * part over rows of the real server; it is read back the way the import dialog reads a dropped file
 * (decode, parse, map the headers, build the upload rows) and sent to the real server.
 */

const { t, admin } = appWithAdminPerFile();

const ROWS = [
  // Every field, with two intervals on one day to round-trip.
  { ...EVERY_FIELD_ROW, hours: 'Mon-Fri 7:00-19:00, Sat 8:00-12:00 & 13:00-16:00, Sun closed' },
  { name: 'Bare' },
  { name: 'Kiosk "Gate 4", Terminal B', address: 'Gate 4\nTerminal B', labels: 'a,b', status: 'temporarily closed' },
  {
    name: 'Café Crème — Nuit',
    country: 'FR',
    phone: '+33 1 42 68 53 00',
    city: 'Paris',
    hours: { fri: '18:00-02:00', sat: '18:00-02:00', sun: 'x' },
    latitude: '-0.5',
    longitude: '2.35',
    status: 'permanently_closed',
  },
  // A longitude JavaScript writes "-1e-7", which did not import back (a walk): written as decimals.
  { name: 'Royal Observatory', latitude: 51.4779, longitude: -0.0000001 },
];

async function upload(clientId: string, rows: unknown[], query: string) {
  return t().request({
    method: 'POST',
    url: `/api/locations/upload${query}`,
    token: admin(),
    body: { clientId, rows },
  });
}

/** The client's locations as the export fetches them: the list, place ids included. */
async function exported(clientId: string): Promise<LocationRow[]> {
  const url = `/api/locations?clientId=${clientId}&include=google_place_id`;
  return (await t().request({ method: 'GET', url, token: admin() })).json<LocationRow[]>();
}

/** The file's upload rows, read as the import worker reads a dropped file. */
async function importedRows(file: string, blanks: 'keep' | 'clear') {
  const bytes = new Uint8Array(Buffer.from(file, 'utf8'));
  let parser = new CsvParser();
  const decoded = await decodeInto(bufferSource(bytes), () => (parser = new CsvParser()));
  expect(decoded).toMatchObject({ ok: true, encoding: 'utf-8' });
  const table = parser.end();
  const mapping = mapHeaders(table.headers);
  return rowsOf(table).map((cells) => uploadRowOf(cells, mapping, undefined, blanks));
}

describe('export -> re-import as upsert', () => {
  let clientId: string;
  let file: string;
  beforeAll(async () => {
    clientId = await t().createClient(admin(), 'Round trip');
    const created = await upload(clientId, ROWS, '');
    expect(created.statusCode, created.body).toBe(201);
    file = await locationsCsv(await exported(clientId));
  });

  it('writes a UTF-8 BOM, every field and the place id', () => {
    expect(file.startsWith('\uFEFFLocation id,Store code,Name,Address,')).toBe(true);
    expect(file).toContain('ChIJN1t_tDeuEmsRUsoyG83frY4');
    expect(file).toContain('Mon 07:00-19:00; Tue 07:00-19:00;');
    expect(file).toContain('"downtown, flagship"');
    // Decimals, and a negative number is no formula: no apostrophe (Excel showed it in every longitude).
    expect(file).toContain(',51.4779,-0.0000001,');
    expect(file).toContain(',-0.5,2.35,');
  });

  it.each(['keep', 'clear'] as const)('blanks=%s: 0 created, 0 updated, every row unchanged', async (blanks) => {
    const rows = await importedRows(file, blanks);
    expect(rows).toHaveLength(ROWS.length);
    const query = `?mode=upsert&blanks=${blanks}`;
    const preview = await upload(clientId, rows, `${query}&dryRun=true`);
    expect(preview.statusCode, preview.body).toBe(200);
    const { totals, rows: previewRows } = preview.json<{
      totals: Record<string, number>;
      rows: { action: string; changes: unknown }[];
    }>();
    expect(previewRows.filter((row) => row.action !== 'unchanged')).toEqual([]);
    expect(totals).toEqual({ created: 0, updated: 0, unchanged: ROWS.length, skipped: 0, errors: 0 });
    const answer = await upload(clientId, rows, query);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ count: 0, created: 0, updated: 0, unchanged: ROWS.length, skipped: 0 });
  });

  it('an edited cell comes back as exactly that one change', async () => {
    const rows = await importedRows(file.replace('Coffee shop', 'Espresso bar'), 'keep');
    const preview = await upload(clientId, rows, '?mode=upsert&dryRun=true');
    const answer = preview.json<{ rows: { action: string; changes: unknown }[] }>();
    expect(answer.rows.map((row) => row.action)).toEqual([
      'updated',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(answer.rows[0]!.changes).toEqual({ primary_category: { from: 'Coffee shop', to: 'Espresso bar' } });
  });
});

describe('export to Excel -> re-import of the .xlsx as upsert', () => {
  it('changes nothing: phones without an apostrophe and escaped names read back as stored', async () => {
    const clientId = await t().createClient(admin(), 'Workbook round trip');
    const rows = [...ROWS, { name: '=HYPERLINK("http://evil.example","Click")', store_code: '-2+3' }];
    expect((await upload(clientId, rows, '')).statusCode).toBe(201);
    const workbook = Buffer.from(await (await locationsXlsx(await exported(clientId))).arrayBuffer());
    const answer = await t().request({
      method: 'POST',
      url: `/api/locations/upload?clientId=${clientId}&mode=upsert`,
      token: admin(),
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      body: workbook,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ created: 0, updated: 0, unchanged: rows.length, skipped: 0 });
  });
});
