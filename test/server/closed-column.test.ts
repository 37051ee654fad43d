import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { expectErrorBody } from '../helpers/assertions.js';
import { appWithAdminPerFile } from '../helpers/users.js';

/**
 * Yext's Closed column (its Knowledge Graph field `closed`: closed for good) read into the location's
 * status (README: "Closed"), from a file shaped like a Yext export, an .xlsx and JSON rows, over the real
 * server and encrypted database: yes, no, blank, disagreements with a Status column, and words it refuses.
 */
const { t, admin } = appWithAdminPerFile();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const YEXT_CLOSED = readFileSync(new URL('../fixtures/csv/yext-closed.csv', import.meta.url));

function upload(clientId: string, body: Buffer | string, query = '', type = 'text/csv') {
  const url = `/api/locations/upload?clientId=${clientId}${query}`;
  return t().request({ method: 'POST', url, token: admin(), headers: { 'content-type': type }, body });
}

interface Stored {
  id: string;
  store_code: string | null;
  name: string;
  status: string;
  health_status: string;
}

/** Each stored location's status, by store code. */
async function statuses(clientId: string): Promise<Record<string, string>> {
  const response = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
  expect(response.statusCode).toBe(200);
  return Object.fromEntries(response.json<Stored[]>().map((location) => [location.store_code, location.status]));
}

interface Detail {
  line?: number;
  field?: string;
  message: string;
}

const DISAGREE_YES = 'Closed yes means closed for good; give Status "permanently closed", or leave one of them blank';
const DISAGREE_NO =
  'Closed no means not closed for good; give Status "open" or "temporarily closed", or leave one of them blank';
const CLOSED_WORDS =
  'Closed takes yes, y, true, 1, x, closed or permanently closed (ja, oui, sí, sì); no, n, false, 0 or open (nein, nee, non, no)';

describe('a Yext export with a Closed column (test/fixtures/csv/yext-closed.csv)', () => {
  it('maps Closed by itself, and stores each row’s yes as permanently_closed and no as open; blank and N/A say nothing', async () => {
    const clientId = await t().createClient(admin(), 'Harbor Books');
    const dry = await upload(clientId, YEXT_CLOSED, '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().columns.at(-1)).toEqual({ header: 'Closed', field: 'closed', matched_by: 'name', score: 1 });
    expect(dry.json().columns.filter((column: { field: string | null }) => column.field === null)).toEqual([]);

    const response = await upload(clientId, YEXT_CLOSED);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      count: 8,
      left_out: [
        { line: 6, reason: 'repeated header row' },
        { line: 11, reason: 'totals or summary row' },
      ],
    });
    expect(await statuses(clientId)).toEqual({
      'Y-101': 'open', // No
      'Y-102': 'permanently_closed', // Yes
      'Y-103': 'open', // blank: a new location's default
      'Y-104': 'permanently_closed', // TRUE
      'Y-105': 'open', // 0
      'Y-106': 'open', // N/A, a placeholder: blank
      'Y-107': 'permanently_closed', // " yes ", quoted with its spaces
      'Y-108': 'open', // false
    });
    const list = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
    const portland = list.json<Stored[]>().find((location) => location.store_code === 'Y-102')!;
    expect(portland.health_status).toBe('closed');
  });

  it('the next export as an upsert: a blank Closed leaves the stored status alone, yes closes, no opens what was closed for good only', async () => {
    const clientId = await t().createClient(admin(), 'Harbor Books again');
    expect((await upload(clientId, YEXT_CLOSED)).statusCode).toBe(201);
    const stored = (
      await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() })
    ).json<Stored[]>();
    // Austin and Tucson closed for now, by hand: Yext writes "No" on every location not closed for good.
    for (const code of ['Y-103', 'Y-107']) {
      const patched = await t().request({
        method: 'PATCH',
        url: `/api/locations/${stored.find((location) => location.store_code === code)!.id}`,
        token: admin(),
        body: { status: 'temporarily_closed' },
      });
      expect(patched.statusCode, patched.body).toBe(200);
    }

    const next = [
      'Entity ID,Name,Closed',
      'Y-101,Harbor Books Seattle,Yes',
      'Y-102,Harbor Books Portland,',
      'Y-103,Harbor Books Austin,',
      'Y-104,Harbor Books Denver,No',
      'Y-105,Harbor Books Boise,N/A',
      'Y-107,Harbor Books Tucson,No',
    ].join('\r\n');
    const dry = await upload(clientId, next, '&mode=upsert&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    const rows = dry.json<{ rows: { action: string; changes: unknown }[] }>().rows;
    expect(rows.map((row) => row.action)).toEqual([
      'updated',
      'unchanged',
      'unchanged',
      'updated',
      'unchanged',
      'unchanged', // No over a temporary closure: not closed for good, and still closed for now
    ]);
    expect(rows[0]!.changes).toEqual({ status: { from: 'open', to: 'permanently_closed' } });
    expect(rows[3]!.changes).toEqual({ status: { from: 'permanently_closed', to: 'open' } });

    const done = await upload(clientId, next, '&mode=upsert');
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ created: 0, updated: 2, unchanged: 4 });
    expect(await statuses(clientId)).toMatchObject({
      'Y-101': 'permanently_closed',
      'Y-102': 'permanently_closed',
      'Y-103': 'temporarily_closed',
      'Y-104': 'open',
      'Y-105': 'open',
      'Y-107': 'temporarily_closed',
    });

    // blanks=clear makes a blank cell clear its field: a blank Closed, with no Status, clears the status to open.
    const cleared = await upload(clientId, next, '&mode=upsert&blanks=clear');
    expect(cleared.statusCode, cleared.body).toBe(201);
    expect(await statuses(clientId)).toMatchObject({
      'Y-102': 'open',
      'Y-103': 'open',
      'Y-101': 'permanently_closed',
      'Y-107': 'temporarily_closed',
    });
  });
});

describe('a Status column beside Closed', () => {
  const csv = [
    'Entity ID,Name,Status,Closed',
    'R-1,Open but closed,open,Yes',
    'R-2,Closed for now,Temporarily closed,Yes',
    'R-3,Shut for repairs,Temporarily closed,No',
    'R-4,Gone,Permanently closed,No',
    'R-5,Gone too,Permanently closed,yes',
    'R-6,Unsure,,Maybe',
    'R-7,Status only,Temporarily closed,',
    'R-8,Closed only,,closed',
    'R-9,Bad status,Shut,Yes',
    'R-10,Said twice,temporarily closed,temporarily closed',
    'R-11,Open twice,OPEN,open',
  ].join('\n');

  it('a row whose Status and Closed disagree is a 400 naming both; a Closed neither yes nor no names its value and the words', async () => {
    const clientId = await t().createClient(admin(), 'Disagreeing client');
    const body = expectErrorBody(await upload(clientId, csv), 400);
    expect(body.details!.map(({ line, field, message }: Detail) => ({ line, field, message }))).toEqual([
      { line: 2, field: 'status', message: `Status "open" and Closed "Yes" disagree: ${DISAGREE_YES}` },
      { line: 3, field: 'status', message: `Status "Temporarily closed" and Closed "Yes" disagree: ${DISAGREE_YES}` },
      { line: 5, field: 'status', message: `Status "Permanently closed" and Closed "No" disagree: ${DISAGREE_NO}` },
      { line: 7, field: 'status', message: `Closed "Maybe" is not a yes or no: ${CLOSED_WORDS}` },
      // A Status refused on its own is refused once, for what it is.
      {
        line: 10,
        field: 'status',
        message:
          '"Shut" is not a status: write open, temporarily_closed or permanently_closed (their words, such as "Temporarily closed" or CLOSED_PERMANENTLY, are read too)',
      },
      {
        line: 11,
        field: 'status',
        message: `Closed "temporarily closed" is not a yes or no (a temporary closure goes in Status): ${CLOSED_WORDS}`,
      },
    ]);
    expect(await statuses(clientId)).toEqual({});
  });

  it('the rows that agree: Closed no keeps temporarily closed, a blank Closed keeps the Status, closed alone is yes', async () => {
    const clientId = await t().createClient(admin(), 'Agreeing client');
    const agreeing = csv
      .split('\n')
      .filter((_, index) => ![1, 2, 4, 6, 9, 10].includes(index))
      .join('\n');
    const response = await upload(clientId, agreeing);
    expect(response.statusCode, response.body).toBe(201);
    expect(await statuses(clientId)).toEqual({
      'R-3': 'temporarily_closed',
      'R-5': 'permanently_closed',
      'R-7': 'temporarily_closed',
      'R-8': 'permanently_closed',
      'R-11': 'open',
    });
  });

  it('the dry run shows the refused rows as errors and the others with their status', async () => {
    const clientId = await t().createClient(admin(), 'Dry run client');
    const dry = await upload(clientId, csv, '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    const rows = dry.json<{ rows: { action: string; status: string }[] }>().rows;
    expect(rows.map((row) => (row.action === 'error' ? 'error' : row.status))).toEqual([
      'error',
      'error',
      'temporarily_closed',
      'error',
      'permanently_closed',
      'error',
      'temporarily_closed',
      'permanently_closed',
      'error',
      'error',
      'open',
    ]);
  });
});

describe('other headers and other files', () => {
  it('"Is closed" and "Permanently closed" are Closed; "Temporarily closed" is not (its yes is not closed for good)', async () => {
    const clientId = await t().createClient(admin(), 'Headers client');
    for (const [header, matchedBy] of [
      ['Is closed', 'synonym'],
      ['Permanently Closed', 'synonym'],
      ['CLOSED?', 'name'],
      ['CLOSED (Y/N)', 'synonym'],
    ] as const) {
      const dry = await upload(clientId, `Name,${header}\nA,yes\n`, '&dryRun=true');
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json().columns[1]).toEqual({ header, field: 'closed', matched_by: matchedBy, score: 1 });
      expect(dry.json().rows[0].status).toBe('permanently_closed');
    }
    const temporarily = await upload(clientId, 'Name,City,Temporarily closed\nA,Austin,yes\n', '&dryRun=true');
    expect(temporarily.json().columns[2]).toEqual({
      header: 'Temporarily closed',
      field: null,
      matched_by: null,
      score: 0,
    });
    expect(temporarily.json().rows[0].status).toBe('open');
  });

  it('a German, French, Spanish or Italian Closed column and its words (a walk\'s "Geschlossen: ja" shop was stored open)', async () => {
    const clientId = await t().createClient(admin(), 'Closed in other languages');
    for (const [header, yes, no] of [
      ['Geschlossen', 'ja', 'nein'],
      ['Fermé', 'oui', 'non'],
      ['Cerrado', 'sí', 'no'],
      ['Chiuso', 'sì', 'no'],
      ['Gesloten', 'ja', 'nee'],
    ] as const) {
      const dry = await upload(clientId, `Name,${header}\nA,${yes}\nB,${no}\n`, '&dryRun=true');
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json().columns[1]).toMatchObject({ header, field: 'closed' });
      expect(dry.json().rows.map((row: { status: string }) => row.status)).toEqual(['permanently_closed', 'open']);
    }
  });

  it('an .xlsx: TRUE and FALSE cells, the numbers 1 and 0, and text', async () => {
    const clientId = await t().createClient(admin(), 'Workbook client');
    const file = (await writeXlsxFile([
      ['Entity ID', 'Name', 'Permanently closed'],
      ['X-1', 'True cell', true],
      ['X-2', 'False cell', false],
      ['X-3', 'One', 1],
      ['X-4', 'Zero', 0],
      ['X-5', 'Text', 'No'],
      ['X-6', 'Empty', null],
    ]).toBuffer()) as Buffer;
    const response = await upload(clientId, file, '', XLSX);
    expect(response.statusCode, response.body).toBe(201);
    expect(await statuses(clientId)).toEqual({
      'X-1': 'permanently_closed',
      'X-2': 'open',
      'X-3': 'permanently_closed',
      'X-4': 'open',
      'X-5': 'open',
      'X-6': 'open',
    });
  });

  it('JSON rows carry closed as text or true/false; another type is a 400 on closed; PATCH takes status, not closed', async () => {
    const clientId = await t().createClient(admin(), 'JSON client');
    const rows = [
      { name: 'A', store_code: 'J-1', closed: true },
      { name: 'B', store_code: 'J-2', closed: false },
      { name: 'C', store_code: 'J-3', closed: 'Yes', status: 'CLOSED_PERMANENTLY' },
      { name: 'D', store_code: 'J-4', closed: null },
    ];
    const response = await t().request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin(),
      body: { clientId, rows },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(await statuses(clientId)).toEqual({
      'J-1': 'permanently_closed',
      'J-2': 'open',
      'J-3': 'permanently_closed',
      'J-4': 'open',
    });

    const wrong = await t().request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin(),
      body: {
        clientId,
        rows: [
          { name: 'E', closed: 1 },
          { name: 'F', closed: true, status: 'open' },
        ],
      },
    });
    const body = expectErrorBody(wrong, 400);
    expect(body.details!.map(({ row, field, message }) => ({ row, field, message }))).toEqual([
      { row: 0, field: 'closed', message: 'must be yes or no: text such as "Yes" or "No", true or false, or blank' },
      { row: 1, field: 'status', message: `Status "open" and Closed true disagree: ${DISAGREE_YES}` },
    ]);

    const stored = (
      await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() })
    ).json<Stored[]>();
    const patch = await t().request({
      method: 'PATCH',
      url: `/api/locations/${stored[0]!.id}`,
      token: admin(),
      body: { closed: 'no' },
    });
    expect(expectErrorBody(patch, 400).details).toEqual([{ path: '/body/closed', message: 'is not a known field' }]);
  });
});
