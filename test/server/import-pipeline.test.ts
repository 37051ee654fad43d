import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { databaseFileIn } from '../../server/start.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot } from '../helpers/data.js';
import { appWithAdminPerFile } from '../helpers/users.js';
import { MAX_STRING_BYTES } from '../../server/locations/import-body.js';

/**
 * An import is one request to the writer thread and one synchronous transaction there, its rows decided
 * and written a piece of PIECE_ROWS at a time (server/locations/import.ts). These tests make imports
 * span several pieces and check that the whole still behaves as one: all or nothing, duplicates seen
 * across pieces and across imports, the answer in import order, other writes never inside it.
 */
const PIECE_ROWS = 1_000;

interface Answer {
  success: true;
  count: number;
  locations: { id: string; name: string; city: string | null; state: string | null }[];
}

const SPAN = 2 * PIECE_ROWS + 500;

function rows(count: number, prefix = 'Branch', from = 0) {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix} ${from + i}`,
    address: `${from + i} High Street`,
    city: i % 3 === 0 ? null : 'Leeds',
    state: i % 2 === 0 ? 'West Yorkshire' : '',
    country: 'GB',
    google_place_id: `place-${prefix}-${from + i}`,
  }));
}

const { t, admin } = appWithAdminPerFile();

const upload = (body: unknown, query = '') =>
  t().request({ method: 'POST', url: `/api/locations/upload${query}`, token: admin(), body });

/** A body sent as written, for bodies JSON.stringify would not write. */
const uploadText = (text: string) =>
  t().request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin(),
    headers: { 'content-type': 'application/json' },
    body: text,
  });

async function listNames(clientId: string): Promise<string[]> {
  const response = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
  expect(response.statusCode).toBe(200);
  return response.json<{ name: string }[]>().map((location) => location.name);
}

function locationsCount(clientId: string): number {
  return t().store.db.prepare('SELECT locations_count FROM clients WHERE id = ?').pluck().get(clientId) as number;
}

describe('an import of several pieces', () => {
  it('-> 201; the answer lists every row in import order, with the ids and names stored', async () => {
    const clientId = await t().createClient(admin());
    const sent = rows(SPAN);
    const response = await upload({ clientId, rows: sent });
    expect(response.statusCode).toBe(201);
    const answer = response.json<Answer>();
    expect(answer.success).toBe(true);
    expect(answer.count).toBe(SPAN);
    expect(Object.keys(answer)).toEqual([
      'success',
      'count',
      'locations',
      'created',
      'updated',
      'unchanged',
      'skipped',
      'phone_extensions',
      'operation_id',
    ]);
    expect(answer.locations.map((location) => location.name)).toEqual(sent.map((row) => row.name));
    expect(answer.locations[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Branch 0',
      city: null,
      state: 'West Yorkshire',
    });
    // An empty state is stored as null, and said so.
    expect(answer.locations[1]!.state).toBeNull();
    const stored = t()
      .store.db.prepare('SELECT id, name FROM locations WHERE client_id = ? ORDER BY rowid')
      .all(clientId) as { id: string; name: string }[];
    expect(stored).toEqual(answer.locations.map(({ id, name }) => ({ id, name })));
    expect(locationsCount(clientId)).toBe(SPAN);
  });

  it('an invalid row in a later piece -> 400 naming it, and none of the pieces already inserted stays', async () => {
    const clientId = await t().createClient(admin());
    const sent: unknown[] = rows(SPAN);
    const bad = PIECE_ROWS + 250;
    sent[bad] = { name: 'Bad', country: 'Atlantis' };
    sent[SPAN - 1] = { name: 42 };
    const before = dataSnapshot(t().store.db);
    const response = await upload({ clientId, rows: sent });
    expectErrorBody(response, 400);
    const { details } = response.json<{ details: { row: number; field: string }[] }>();
    expect(details.map(({ row, field }) => [row, field])).toEqual([
      [bad, 'country'],
      [SPAN - 1, 'name'],
    ]);
    expect(dataSnapshot(t().store.db)).toEqual(before);
    expect(await listNames(clientId)).toEqual([]);
  });

  it('a row that is not JSON in a later piece -> 400 with the parser message, nothing written', async () => {
    const clientId = await t().createClient(admin());
    const text = JSON.stringify({ clientId, rows: rows(SPAN) });
    const broken = text.replace(`"Branch ${PIECE_ROWS + 10}"`, `"Branch ${PIECE_ROWS + 10}" "oops"`);
    const before = dataSnapshot(t().store.db);
    const response = await uploadText(broken);
    expectErrorBody(response, 400);
    let parseError = '';
    try {
      JSON.parse(broken);
    } catch (error) {
      parseError = (error as Error).message;
    }
    expect(response.json<{ message: string }>().message).toBe(`The body is not valid JSON: ${parseError}`);
    expect(dataSnapshot(t().store.db)).toEqual(before);
  });

  it('duplicates are seen across pieces: the same place id a piece later is skipped, or kept on request', async () => {
    const sent = rows(SPAN);
    sent[PIECE_ROWS + 7] = { ...sent[PIECE_ROWS + 7]!, google_place_id: sent[3]!.google_place_id };
    sent[2 * PIECE_ROWS + 1] = { ...sent[2 * PIECE_ROWS + 1]!, name: ' BRANCH  5 ', address: '5 high street' };

    const skipping = await t().createClient(admin());
    const skipped = await upload({ clientId: skipping, rows: sent });
    expect(skipped.statusCode).toBe(201);
    expect(skipped.json<Answer>().count).toBe(SPAN - 2);
    expect(await listNames(skipping)).not.toContain(sent[PIECE_ROWS + 7]!.name);

    const keeping = await t().createClient(admin());
    const kept = await upload({ clientId: keeping, rows: sent }, '?duplicates=keep');
    expect(kept.json<Answer>().count).toBe(SPAN);
  });

  it('a body whose rows come before clientId, spaced and broken oddly, reads as JSON.parse reads it', async () => {
    const clientId = await t().createClient(admin());
    // (A repeated "rows" key is refused: "a JSON import whose body gives a key twice" below.)
    const text = `{"rows" : [ ${JSON.stringify(rows(3))
      .slice(1, -1)
      .replace(/,/g, ' ,\n')} ] , "clientId":"${clientId.toUpperCase()}"}`;
    const response = await uploadText(text);
    expect(response.statusCode).toBe(201);
    expect(await listNames(clientId)).toEqual(['Branch 0', 'Branch 1', 'Branch 2']);
  });
});

describe('imports and other writes at the same time', () => {
  it('two imports into one client at once: each all or nothing, the second skips what the first wrote', async () => {
    const clientId = await t().createClient(admin());
    const first = rows(SPAN, 'Shop');
    // Half of the second import repeats the first (same place ids), half is new.
    const second = [...rows(PIECE_ROWS, 'Shop', SPAN - PIECE_ROWS), ...rows(PIECE_ROWS, 'Shop', SPAN)];
    const [a, b] = await Promise.all([upload({ clientId, rows: first }), upload({ clientId, rows: second })]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const counts = [a.json<Answer>().count, b.json<Answer>().count];
    // Whichever ran first wrote all its rows; the other skipped the PIECE_ROWS rows they share.
    expect(counts[0]! + counts[1]!).toBe(SPAN + PIECE_ROWS);
    const names = await listNames(clientId);
    expect(names).toHaveLength(SPAN + PIECE_ROWS);
    expect(new Set(names).size).toBe(names.length);
    expect(locationsCount(clientId)).toBe(SPAN + PIECE_ROWS);
  });

  it('deleting the client while its import runs: one waits for the other, and no location is left behind', async () => {
    const clientId = await t().createClient(admin());
    const importing = upload({ clientId, rows: rows(SPAN) });
    const deleting = t().request({ method: 'DELETE', url: `/api/clients/${clientId}`, token: admin() });
    const [imported, deleted] = await Promise.all([importing, deleting]);
    expect(deleted.statusCode).toBe(200);
    // The import either ran first (and its rows went with the client) or found the client gone.
    expect([201, 404]).toContain(imported.statusCode);
    expect(t().store.db.prepare('SELECT count(*) FROM locations WHERE client_id = ?').pluck().get(clientId)).toBe(0);
  });

  it('a dry run while an import runs answers from one snapshot and writes nothing', async () => {
    const clientId = await t().createClient(admin());
    const [imported, preview] = await Promise.all([
      upload({ clientId, rows: rows(SPAN) }),
      upload({ clientId, rows: rows(10) }, '?dryRun=true'),
    ]);
    expect(imported.statusCode).toBe(201);
    expect(preview.statusCode).toBe(200);
    const { count, duplicates } = preview.json<{ count: number; duplicates: number }>();
    // Before the import: 10 new rows; after it: 10 duplicates. Never a mix.
    expect([
      [10, 0],
      [0, 10],
    ]).toContainEqual([count, duplicates]);
    expect(await listNames(clientId)).toHaveLength(SPAN);
  });

  it('an outsized import lets the writer thread go once idle: writes right after it and beside it are answered', async () => {
    const clientId = await t().createClient(admin());
    // Over 8 MiB of body (JSON white space), so that the writer thread is replaced once idle after it.
    const outsized = (prefix: string) => {
      const text = JSON.stringify({ clientId, rows: rows(10, prefix) });
      return uploadText(`${text.slice(0, -1)}${' '.repeat(9 * 1048576)}}`);
    };
    for (let round = 0; round < 2; round++) {
      // Right after: the next write goes to the same thread, which stays while writes come.
      expect((await outsized(`Big ${round}`)).statusCode).toBe(201);
      expect((await upload({ clientId, rows: rows(10, `After ${round}`) })).statusCode).toBe(201);
      // Beside it: the thread is kept while another write waits for it.
      const [big, small] = await Promise.all([
        outsized(`Beside ${round}`),
        upload({ clientId, rows: rows(10, `Small ${round}`) }),
      ]);
      expect([big.statusCode, small.statusCode]).toEqual([201, 201]);
    }
    expect(locationsCount(clientId)).toBe(80);
  });
});

describe('checkpoints', () => {
  it("the server's connection never checkpoints; the writer thread copies an import into the database file", async () => {
    expect(t().store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const file = databaseFileIn(t().dataDir);
    const before = fs.statSync(file).size;
    const clientId = await t().createClient(admin());
    expect((await upload({ clientId, rows: rows(SPAN) })).statusCode).toBe(201);
    // The writer checkpoints right after answering: the file grows without anyone else's help.
    let size = before;
    for (let waited = 0; waited < 5_000 && size <= before; waited += 20) {
      await sleep(20);
      size = fs.statSync(file).size;
    }
    expect(size).toBeGreaterThan(before);
  });
});

describe('bodies of legal size that would cost too much to parse', () => {
  const MIB = 1024 * 1024;
  const before = () => dataSnapshot(t().store.db);

  it('16 million numbers as rows -> 413 after one scan of the bytes, never parsed; then an import works', async () => {
    const clientId = await t().createClient(admin());
    const head = `{"clientId":"${clientId}","rows":[`;
    const text = `${head}${'1,'.repeat((30 * MIB) / 2)}1]}`;
    const snapshot = before();
    const response = await uploadText(text);
    expectErrorBody(response, 413);
    expect(response.json<{ message: string }>().message).toMatch(/more values than an import can/);
    expect(dataSnapshot(t().store.db)).toEqual(snapshot);
    expect((await upload({ clientId, rows: rows(3) })).statusCode).toBe(201);
  });

  it('one row holding millions of values -> 413 before it is parsed', async () => {
    const clientId = await t().createClient(admin());
    const text = `{"clientId":"${clientId}","rows":[{"name":"x","address":[${'[],'.repeat(10 * MIB)}[]]}]}`;
    const snapshot = before();
    const response = await uploadText(text);
    expectErrorBody(response, 413);
    expect(response.json<{ message: string }>().message).toMatch(/more values than an import can/);
    expect(dataSnapshot(t().store.db)).toEqual(snapshot);
  });

  it('millions of containers beside the rows, or in an earlier rows key, -> 413 before anything is parsed', async () => {
    const clientId = await t().createClient(admin());
    const snapshot = before();
    for (const text of [
      `{"clientId":"${clientId}","rows":[],"x":[${'[],'.repeat(3_000_000)}[]]}`,
      `{"clientId":"${clientId}","rows":[${'{},'.repeat(3_000_000)}{}],"rows":[{"name":"a"}]}`,
    ]) {
      const response = await uploadText(text);
      expectErrorBody(response, 413);
      expect(response.json<{ message: string }>().message).toMatch(/more values than an import can/);
    }
    expect(dataSnapshot(t().store.db)).toEqual(snapshot);
  });

  it('a top-level array of millions of objects -> 413; a small one -> 400, not an import', async () => {
    const huge = await uploadText(`[${'{},'.repeat(10 * MIB)}{}]`);
    expectErrorBody(huge, 413);
    const small = await uploadText('[{}, {}]');
    expectErrorBody(small, 400);
    expect(small.json<{ details: { message: string }[] }>().details[0]!.message).toMatch(/must be an object/);
  });

  it('a row with a 30 MiB name -> 400 naming the field, nothing written', async () => {
    const clientId = await t().createClient(admin());
    const snapshot = before();
    const response = await upload({ clientId, rows: [{ name: 'é'.repeat(15 * MIB) }] });
    expectErrorBody(response, 400);
    expect(response.json<{ details: { row: number; field: string }[] }>().details).toMatchObject([
      { row: 0, field: 'name' },
    ]);
    expect(dataSnapshot(t().store.db)).toEqual(snapshot);
  });

  it('a text longer than any field takes is refused from the bytes, naming its row and its (escaped) key', async () => {
    const clientId = await t().createClient(admin());
    const snapshot = before();
    const long = 's'.repeat(MAX_STRING_BYTES + 1);
    const text = JSON.stringify({ clientId, rows: [{ name: 'A' }, { name: 'B', address: long }] });
    const response = await uploadText(text.replace('"address"', '"addr\\u0065ss"'));
    expectErrorBody(response, 400);
    expect(response.json<{ details: { row: number; field: string; message: string }[] }>().details).toMatchObject([
      { row: 1, field: 'address', message: expect.stringContaining('65,537 bytes') },
    ]);
    // Found before the rows are counted, said as the other refusals of rows are, the first problem named.
    expect(response.json<{ message: string }>().message).toBe(
      'A row is not valid; nothing was imported. The first: row 1, address: is 65,537 bytes long, far longer than any field of a location takes',
    );
    const outside = await upload({ clientId: long, rows: [{ name: 'A' }] });
    expectErrorBody(outside, 400);
    expect(outside.json<{ message: string }>().message).toMatch(/A value of the body is 65,537 bytes long/);
    // At the limit, the text is read as usual: the field's own rule answers.
    const atLimit = await upload({ clientId, rows: [{ name: 's'.repeat(MAX_STRING_BYTES) }] });
    expect(atLimit.json<{ details: { message: string }[] }>().details[0]!.message).toMatch(/longer than 200/);
    expect(dataSnapshot(t().store.db)).toEqual(snapshot);
  });

  it('an escaped "rows" key is read as JSON.parse reads it: the rows are imported', async () => {
    const clientId = await t().createClient(admin());
    const text = JSON.stringify({ clientId, rows: rows(PIECE_ROWS + 1) }).replace('"rows"', '"r\\u006fws"');
    const response = await uploadText(text);
    expect(response.statusCode).toBe(201);
    expect(response.json<Answer>().count).toBe(PIECE_ROWS + 1);
  });
});

describe("a JSON import's query", () => {
  it('?clientId= beside the body names the same client (in any case) or the import is refused, nothing written', async () => {
    const clientId = await t().createClient(admin(), 'Query and body');
    const other = await t().createClient(admin(), 'Another client');
    const before = dataSnapshot(t().store.db);
    const refused = await upload({ clientId, rows: rows(2) }, `?clientId=${other}`);
    expect(expectErrorBody(refused, 400).message).toBe(
      `The URL's ?clientId=${other} is not the body's clientId ${clientId}: name one client, in the body (or in both alike). Nothing was imported.`,
    );
    expect(dataSnapshot(t().store.db)).toEqual(before);
    const same = await upload({ clientId, rows: rows(2) }, `?clientId=${clientId.toUpperCase()}`);
    expect(same.statusCode, same.body).toBe(201);
    expect(await listNames(clientId)).toHaveLength(2);
  });

  it.each(['?sheet=Locations', '?keep_flagged=true'])(
    '%s on JSON rows -> 400: a CSV or workbook option',
    async (query) => {
      const clientId = await t().createClient(admin(), `JSON with ${query}`);
      const refused = await upload({ clientId, rows: rows(1) }, query);
      expect(expectErrorBody(refused, 400).message).toBe(
        '?sheet= and ?keep_flagged= are for a CSV or .xlsx upload; JSON rows are imported as sent',
      );
      expect(await listNames(clientId)).toEqual([]);
    },
  );
});

describe('a JSON import whose body gives a key twice', () => {
  it.each([
    ['rows', (clientId: string) => `{"clientId":"${clientId}","rows":[{"name":"Kept"}],"rows":[]}`],
    [
      'clientId',
      (clientId: string) =>
        `{"clientId":"00000000-0000-4000-8000-000000000000","rows":[{"name":"A"}],"clientId":"${clientId}"}`,
    ],
    ['rows', (clientId: string) => `{"clientId":"${clientId}","rows":[],"\\u0072ows":[{"name":"Escaped"}]}`],
  ])('"%s" twice -> 400 naming it, nothing written (JSON.parse would keep the last)', async (key, body) => {
    const clientId = await t().createClient(admin(), `Twice ${key} ${Math.random()}`);
    const before = dataSnapshot(t().store.db);
    const refused = await uploadText(body(clientId));
    expect(expectErrorBody(refused, 400).message).toBe(
      `The body gives "${key}" more than once (JSON would keep only the last): give it once. Nothing was imported.`,
    );
    expect(dataSnapshot(t().store.db)).toEqual(before);
  });

  it('a key given twice inside a row is not the body’s: the row is read as JSON.parse reads it', async () => {
    const clientId = await t().createClient(admin(), 'Twice in a row');
    const response = await uploadText(`{"clientId":"${clientId}","rows":[{"name":"First","name":"Last"}]}`);
    expect(response.statusCode, response.body).toBe(201);
    expect(await listNames(clientId)).toEqual(['Last']);
  });
});
