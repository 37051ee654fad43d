import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/** Issue 12: saved column mappings, and an upload read with one (?mapping=). */
let t: TestApp;
let admin: string;
let clientId: string;
let otherClientId: string;

beforeAll(async () => {
  const built = await buildSignedInApp({ admin: 'admin' }, { clock: new TestClock() });
  t = built.t;
  admin = built.tokens.admin;
  clientId = await t.createClient(admin, 'Mapped client');
  otherClientId = await t.createClient(admin, 'Other client');
});
afterAll(() => t.close());

const SHEET_HEADERS = ['Filiale', 'Strasse', 'Nr.', 'Kennung', 'Telefon'];
const COLUMNS = [
  { header: 'Filiale', field: 'name' },
  { header: 'Strasse', field: 'address' },
  { header: 'Nr.', field: 'street_number' },
  { header: 'Kennung', field: 'store_code' },
  { header: 'Telefon', field: null },
];

async function create(body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/mappings', token: admin, body });
}

function upload(csv: string, query: string) {
  const url = `/api/locations/upload?clientId=${clientId}${query}`;
  return t.request({ method: 'POST', url, token: admin, headers: { 'content-type': 'text/csv' }, body: csv });
}

describe('/api/mappings', () => {
  it('POST saves a mapping keyed by its header set; GET ?headers= finds it whatever the order and case', async () => {
    const response = await create({ client_id: clientId, name: 'Client sheet', columns: COLUMNS });
    expect(response.statusCode, response.body).toBe(201);
    const saved = response.json();
    expect(saved).toMatchObject({ client_id: clientId, name: 'Client sheet', options: {}, last_used_at: null });
    const headers = encodeURIComponent(['TELEFON', ...SHEET_HEADERS.slice(0, 4).reverse()].join('|'));
    const found = await t.request({
      method: 'GET',
      url: `/api/mappings?clientId=${clientId}&headers=${headers}`,
      token: admin,
    });
    expect(found.json().map((mapping: { id: string }) => mapping.id)).toEqual([saved.id]);
    const none = await t.request({
      method: 'GET',
      url: `/api/mappings?clientId=${clientId}&headers=Name`,
      token: admin,
    });
    expect(none.json()).toEqual([]);
    const other = await t.request({ method: 'GET', url: `/api/mappings?clientId=${otherClientId}`, token: admin });
    expect(other.json()).toEqual([]);
  });

  it('a shared mapping is listed for every client; PATCH renames it; DELETE removes it; each is in the audit trail', async () => {
    const shared = (
      await create({ client_id: null, name: 'Yext', columns: [{ header: 'Name', field: 'name' }] })
    ).json();
    const listed = await t.request({ method: 'GET', url: `/api/mappings?clientId=${otherClientId}`, token: admin });
    expect(listed.json().map((mapping: { id: string }) => mapping.id)).toContain(shared.id);
    t.clock.advance(1000);
    const renamed = await t.request({
      method: 'PATCH',
      url: `/api/mappings/${shared.id}`,
      token: admin,
      body: { name: ' Yext v2 ' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Yext v2', header_key: 'name' });
    expect(renamed.json().updated_at).not.toBe(shared.updated_at);
    const deleted = await t.request({ method: 'DELETE', url: `/api/mappings/${shared.id}`, token: admin });
    expect(deleted.json()).toEqual({ success: true });
    expectErrorBody(await t.request({ method: 'DELETE', url: `/api/mappings/${shared.id}`, token: admin }), 404);
    const trail = await t.request({ method: 'GET', url: '/api/audit', token: admin });
    const actions = trail
      .json()
      .entries.filter((entry: { target: { id: string } }) => entry.target.id === shared.id)
      .map((entry: { action: string }) => entry.action);
    expect(actions.sort()).toEqual(['mapping.created', 'mapping.deleted', 'mapping.updated']);
  });

  it('refuses bad bodies and unknown ids with a clear JSON error', async () => {
    expectErrorBody(await create({ client_id: clientId, name: 'x', columns: [] }), 400);
    expectErrorBody(await create({ client_id: clientId, name: 'x', columns: [{ header: 'A', field: 'nope' }] }), 400);
    expectErrorBody(await create({ client_id: crypto.randomUUID(), name: 'x', columns: COLUMNS }), 404);
    expectErrorBody(
      await create({ client_id: clientId, name: 'x', columns: COLUMNS, options: { separator: '' } }),
      400,
    );
    const unknown = crypto.randomUUID();
    expectErrorBody(
      await t.request({ method: 'PATCH', url: `/api/mappings/${unknown}`, token: admin, body: { name: 'y' } }),
      404,
    );
    expectErrorBody(await t.request({ method: 'PATCH', url: `/api/mappings/${unknown}`, token: admin, body: {} }), 400);
    expectErrorBody(await t.request({ method: 'GET', url: `/api/mappings?clientId=${unknown}`, token: admin }), 404);
  });

  it('refuses columns no import could apply, words from the schema for a field it does not know', async () => {
    const named = (columns: { header: string; field: string | null }[]) =>
      create({ client_id: clientId, name: 'Contradiction', columns });
    const refusal = async (columns: { header: string; field: string }[]) =>
      expectErrorBody(await named(columns), 400).message;
    expect(
      await refusal([
        { header: 'A', field: 'name' },
        { header: 'B', field: 'name' },
      ]),
    ).toBe('The columns "A" and "B" are both sent to name; only address joins several columns');
    expect(
      await refusal([
        { header: 'Nom', field: 'name' },
        { header: 'nom', field: 'city' },
      ]),
    ).toBe('The column "nom" is sent to both name and city');
    const bogus = expectErrorBody(await named([{ header: 'A', field: 'bogus' }]), 400);
    expect(bogus.details![0]!.message).toMatch(/^must be one of "id", .*"hours_sun".*, or null$/);
    // Address joins several columns; a header listed twice, once left out, keeps its field.
    for (const columns of [
      [
        { header: 'Street', field: 'address' },
        { header: 'Suite', field: 'address' },
        { header: 'Name', field: 'name' },
      ],
      [
        { header: 'Name', field: 'name' },
        { header: 'Name', field: null },
      ],
    ])
      expect((await named(columns)).statusCode).toBe(201);
    const existing = (await named([{ header: 'Name', field: 'name' }])).json<{ id: string }>();
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/mappings/${existing.id}`,
      token: admin,
      body: {
        columns: [
          { header: 'Name', field: 'name' },
          { header: 'Nome', field: 'name' },
        ],
      },
    });
    expectErrorBody(patched, 400);
  });
});

describe('POST /api/locations/upload?mapping=', () => {
  it('reads the file with the saved columns and options, and marks the mapping used', async () => {
    const mapping = (
      await create({
        client_id: clientId,
        name: 'Own sheet',
        columns: COLUMNS,
        options: { separator: ' / ', placeholders: ['fehlt'] },
      })
    ).json();
    const csv = `${SHEET_HEADERS.join(',')}\nBäckerei Süd,Hauptstraße,5,FEHLT,030 1234567\n`;
    const response = await upload(csv, `&mapping=${mapping.id}`);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().columns.map((column: { matched_by: string | null }) => column.matched_by)).toEqual([
      'mapping',
      'mapping',
      'mapping',
      'mapping',
      null,
    ]);
    const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(list.json()).toEqual([
      expect.objectContaining({ name: 'Bäckerei Süd', address: 'Hauptstraße 5', store_code: null }),
    ]);
    const used = await t.request({ method: 'GET', url: `/api/mappings?clientId=${clientId}`, token: admin });
    expect(used.json().find((each: { id: string }) => each.id === mapping.id).last_used_at).not.toBeNull();
  });

  it('a mapping that keeps a country gives it to rows without one; ?country= comes first', async () => {
    const columns = [
      { header: 'Store', field: 'name' },
      { header: 'Phone', field: 'phone' },
      { header: 'ZIP', field: 'zip' },
    ];
    const own = await t.createClient(admin, 'Country kept by its mapping');
    const saved = await create({ client_id: own, name: 'US sheet', columns, options: { country: 'US' } });
    expect(saved.statusCode, saved.body).toBe(201);
    const csv = 'Store,Phone,ZIP\nBack Bay,(617) 555-0100,2116\n';
    const send = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/locations/upload?clientId=${own}&mapping=${saved.json().id}${query}`,
        headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
        payload: csv,
      });
    const dry = await send('&dryRun=true&country=CA');
    expect(dry.json().rows[0]).toMatchObject({ country: 'CA', phone: '+16175550100', zip: '2116' });
    expect((await send('')).statusCode).toBe(201);
    const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${own}`, token: admin });
    expect(list.json()).toEqual([expect.objectContaining({ country: 'US', phone: '+16175550100', zip: '02116' })]);
    for (const country of ['us', 'USA', 'United States']) {
      const refused = await create({ client_id: own, name: 'x', columns, options: { country } });
      expectErrorBody(refused, 400);
    }
  });

  it("a mapping sending a column to closed (Yext's Closed) saves, loads, and reads the column into the status", async () => {
    const columns = [
      { header: 'Filiale', field: 'name' },
      { header: 'Kennung', field: 'store_code' },
      { header: 'Dauerhaft geschlossen', field: 'closed' },
    ];
    const created = await create({ client_id: clientId, name: 'Closed sheet', columns });
    expect(created.statusCode, created.body).toBe(201);
    const headers = encodeURIComponent('Kennung|dauerhaft geschlossen|Filiale');
    const found = await t.request({
      method: 'GET',
      url: `/api/mappings?clientId=${clientId}&headers=${headers}`,
      token: admin,
    });
    expect(found.json()).toEqual([expect.objectContaining({ id: created.json().id, columns })]);

    const csv = 'Filiale,Kennung,Dauerhaft geschlossen\nBäckerei Alt,G-1,ja\nBäckerei Neu,G-2,nein\n';
    // A word neither yes nor no is named back with the words it takes (German ones among them).
    const refused = expectErrorBody(
      await upload(csv.replace(',ja', ',vielleicht'), `&mapping=${created.json().id}`),
      400,
    );
    expect(refused.details).toEqual([
      expect.objectContaining({
        line: 2,
        field: 'status',
        message: expect.stringMatching(/^Closed "vielleicht" is not a yes or no.*\(ja, oui, sí, sì\)/),
      }),
    ]);
    const dry = await upload(csv, `&mapping=${created.json().id}&dryRun=true`);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().columns[2]).toEqual({
      header: 'Dauerhaft geschlossen',
      field: 'closed',
      matched_by: 'mapping',
      score: 1,
    });
    expect(dry.json().rows.map((row: { status: string }) => row.status)).toEqual(['permanently_closed', 'open']);

    const patched = await t.request({
      method: 'PATCH',
      url: `/api/mappings/${created.json().id}`,
      token: admin,
      body: { columns: [...columns, { header: 'Status', field: 'closed' }] },
    });
    expect(expectErrorBody(patched, 400).message).toBe(
      'The columns "Dauerhaft geschlossen" and "Status" are both sent to closed; only address joins several columns',
    );
  });

  it('a title above the header: the header is the row holding the mapping’s headers', async () => {
    const mapping = (await create({ client_id: clientId, name: 'Titled sheet', columns: COLUMNS })).json();
    const csv = `Filialen Stand 11/2026\n\n${SHEET_HEADERS.join(',')}\nBäckerei Nord,Nordstraße,7,N-7,\n`;
    const response = await upload(csv, `&mapping=${mapping.id}&dryRun=true`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().rows).toEqual([
      expect.objectContaining({ name: 'Bäckerei Nord', address: 'Nordstraße 7', store_code: 'N-7' }),
    ]);
  });

  it("an unknown mapping, or another client's -> 404; one that does not fit the file -> 400", async () => {
    expectErrorBody(await upload('Filiale\nA\n', `&mapping=${crypto.randomUUID()}`), 404);
    const foreign = (await create({ client_id: otherClientId, name: 'Theirs', columns: COLUMNS })).json();
    expectErrorBody(await upload('Filiale\nA\n', `&mapping=${foreign.id}`), 404);
    const own = (await create({ client_id: clientId, name: 'Mine', columns: COLUMNS })).json();
    const misfit = expectErrorBody(await upload('Filiale,Ort\nA,B\n', `&mapping=${own.id}`), 400);
    expect(misfit.message).toContain('"Strasse"');
  });

  it("a mapping whose list leaves out NA keeps Napoli's province code NA, through the whole import", async () => {
    const mapping = (
      await create({
        client_id: clientId,
        name: 'Italian sheet',
        columns: [
          { header: 'Sede', field: 'name' },
          { header: 'Provincia', field: 'state' },
          { header: 'Telefono', field: 'phone' },
        ],
        options: { placeholders: ['N/A', 'TBD'] },
      })
    ).json();
    const response = await upload('Sede,Provincia,Telefono\nPizzeria Toledo,NA,N/A\n', `&mapping=${mapping.id}`);
    expect(response.statusCode, response.body).toBe(201);
    const list = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(list.json()).toContainEqual(expect.objectContaining({ name: 'Pizzeria Toledo', state: 'NA', phone: null }));
  });
});

describe('POST /api/locations/upload?mapping= with JSON rows (mapped by the dashboard)', () => {
  function uploadJson(query: string, rows: Record<string, unknown>[], client = clientId) {
    return t.request({
      method: 'POST',
      url: `/api/locations/upload?mapping=${query}`,
      token: admin,
      body: { clientId: client, rows },
    });
  }
  const lastUsed = async (id: string, client = clientId) =>
    (await t.request({ method: 'GET', url: `/api/mappings?clientId=${client}`, token: admin }))
      .json()
      .find((each: { id: string }) => each.id === id).last_used_at;

  it('marks the mapping used at the import, in its transaction; a dry run does not', async () => {
    const mapping = (await create({ client_id: clientId, name: 'Dashboard', columns: COLUMNS })).json();
    const dry = await uploadJson(`${mapping.id}&dryRun=true`, [{ name: 'JSON mapped' }]);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(await lastUsed(mapping.id)).toBeNull();
    t.clock.advance(60_000);
    const response = await uploadJson(mapping.id, [{ name: 'JSON mapped' }]);
    expect(response.statusCode, response.body).toBe(201);
    expect(await lastUsed(mapping.id)).toBe(new Date(t.clock.now()).toISOString());
  });

  it("another client's mapping, or an unknown one -> 404 and nothing written; a bad id -> 400", async () => {
    const foreign = (await create({ client_id: otherClientId, name: 'Theirs JSON', columns: COLUMNS })).json();
    const before = (
      await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin })
    ).json();
    expectErrorBody(await uploadJson(foreign.id, [{ name: 'Not written' }]), 404);
    expectErrorBody(await uploadJson(`${foreign.id}&dryRun=true`, [{ name: 'Not written' }]), 404);
    expectErrorBody(await uploadJson(crypto.randomUUID(), [{ name: 'Not written' }]), 404);
    expectErrorBody(await uploadJson('not-a-uuid', [{ name: 'Not written' }]), 400);
    const after = (await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin })).json();
    expect(after).toEqual(before);
    expect(await lastUsed(foreign.id, otherClientId)).toBeNull();
  });
});

describe("the responses' serializers", () => {
  it('know every format of the schemas: no "unknown format" warning on the console among the log lines (a walk)', async () => {
    const warnings: unknown[][] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void warnings.push(args));
    try {
      const fresh = await buildSignedInApp({ admin: 'admin' });
      const token = fresh.tokens.admin;
      const client = await fresh.t.createClient(token, 'Formats');
      await fresh.t.request({
        method: 'POST',
        url: '/api/mappings',
        token,
        body: { client_id: client, name: 'Sheet', columns: COLUMNS },
      });
      await fresh.t.request({ method: 'GET', url: `/api/mappings?clientId=${client}`, token });
      await fresh.t.close();
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
    expect(warnings.map((args) => args.join(' ')).filter((line) => /unknown format/.test(line))).toEqual([]);
  });
});
