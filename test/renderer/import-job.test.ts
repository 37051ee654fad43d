import { DEFAULT_OPTIONS } from '../../renderer/src/import/columns/column-options.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDERS } from '../../server/imports/placeholders.js';
import { errorOf } from '../../renderer/src/api/http.js';
import { ImportJob, type JobPorts } from '../../renderer/src/import/import-job.js';
import { problemWith } from '../../renderer/src/import/steps/preview/flagged-cells.js';
import type { CheckReport, FromWorker, ImportChoice, ImportSummary } from '../../renderer/src/import/protocol.js';
import { appWithAdminPerFile } from '../helpers/users.js';
import { bufferSource, fixtureBytes } from './csv-files.js';

/**
 * The import worker's job over the real server: the mode and blank-cell rule go with every dry run,
 * fix and import request; the report and the summary are the server's answers added up.
 */

const { t, admin } = appWithAdminPerFile();

/** A job whose requests go to the test server; every message it sends and every path it posts are kept. */
function jobOverServer() {
  const messages: FromWorker[] = [];
  const paths: string[] = [];
  const ports: JobPorts = {
    send: (message) => messages.push(message),
    token: async () => admin(),
    post: async <T>(path: string, body: string, token: string) => {
      paths.push(path);
      const response = await t().request({ method: 'POST', url: path, token, body });
      if (response.statusCode >= 300) throw errorOf(response.statusCode, response.body, null);
      return response.json<T>();
    },
  };
  const last = <Type extends FromWorker['type']>(type: Type) =>
    messages.filter((message): message is Extract<FromWorker, { type: Type }> => message.type === type).at(-1);
  return {
    job: new ImportJob(ports),
    paths,
    report: (): CheckReport => last('checked')!.report,
    summary: (): ImportSummary => last('imported')!.summary,
    failure: () => last('failed'),
    grid: () => last('grid')!.window,
    replaceCount: () => last('replace-count')!.count,
    problemsCsv: () => last('problems-csv')!.csv,
    cancelled: () => last('cancelled')!.report,
  };
}

function file(name: string, edit: (text: string) => string = (text) => text) {
  const bytes = new Uint8Array(Buffer.from(edit(Buffer.from(fixtureBytes(name)).toString('utf8')), 'utf8'));
  return { ...bufferSource(bytes), name };
}

const UPSERT: ImportChoice = { mode: 'upsert', blanks: 'keep' };

describe('ImportJob over the real server', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await t().createClient(admin(), 'Northwind Coffee');
    const first = jobOverServer();
    await first.job.read(file('gbp-hours.csv'));
    await first.job.check(clientId);
    expect(first.report().totals).toEqual({ created: 4, updated: 0, unchanged: 0, skipped: 0, error: 0 });
    await first.job.import(clientId, 'skip');
    expect(first.summary()).toMatchObject({
      imported: 4,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      extensions: 0,
      failure: null,
    });
  });

  it("the summary counts the phones whose extension the server's answers say was left out", async () => {
    const { job, summary } = jobOverServer();
    const extended = (text: string) =>
      text.replace('(206) 555-0101', '(206) 555-0101 ext. 4').replace('(206) 555-0102', '(206) 555-0102 x12');
    await job.read(file('gbp-hours.csv', extended));
    const fresh = await t().createClient(admin(), 'Northwind Extensions');
    await job.check(fresh);
    await job.import(fresh, 'skip');
    expect(summary()).toMatchObject({ imported: 4, skipped: 0, extensions: 2 });
  });

  it('upsert: the dry run and the import carry ?mode=upsert&blanks=keep&placeholders=none; the report holds the diff', async () => {
    const { job, paths, report, summary } = jobOverServer();
    await job.read(file('gbp-hours-edited.csv'));
    await job.check(clientId, UPSERT);
    expect(report().totals).toEqual({ created: 1, updated: 1, unchanged: 3, skipped: 0, error: 0 });
    expect(report().choice).toEqual(UPSERT);
    expect(report().updated).toEqual([
      expect.objectContaining({
        line: 3,
        name: 'Northwind Coffee Capitol Hill',
        changes: { phone: { from: '+12065550102', to: '+12065550199' } },
      }),
    ]);
    expect(report().samples.map((sample) => sample.location.name)).toEqual(['Northwind Coffee Alberta']);
    expect(report().unchanged.map((row) => row.line)).toEqual([2, 4, 5]);
    await job.import(clientId, 'skip');
    expect(summary()).toMatchObject({ imported: 1, updated: 1, unchanged: 3, skipped: 0, failure: null });
    expect(paths).toEqual([
      '/api/locations/upload?dryRun=true&duplicates=skip&mode=upsert&blanks=keep&placeholders=none',
      '/api/locations/upload?duplicates=skip&fileName=gbp-hours-edited.csv&mode=upsert&blanks=keep&placeholders=none',
    ]);
  });

  it("rows whose location id is not one of the client's are counted for the preview's warning, in upsert only", async () => {
    const { job, report } = jobOverServer();
    const foreign = '7d3c1a52-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
    // Another client's export: a Location id column, its first row's id one this client does not have.
    const withIds = (text: string) =>
      text
        .split('\n')
        .map((line, at) => (line === '' ? line : `${at === 0 ? 'Location id' : at === 1 ? foreign : ''},${line}`))
        .join('\n');
    await job.read(file('gbp-hours.csv', withIds));
    await job.check(clientId, UPSERT);
    expect(report().totals).toMatchObject({ created: 0, error: 0 });
    expect(report().foreignIds).toEqual({ count: 1, lines: [2] });
    await job.check(clientId, { mode: 'create', blanks: 'keep' });
    expect(report().foreignIds).toEqual({ count: 0, lines: [] });
  });

  it("a file's name with a control character (Linux allows them) is sent with a space instead, and imports", async () => {
    const { job, paths, summary } = jobOverServer();
    await job.read({ ...file('gbp-hours.csv'), name: 'stores\u0007 nov.csv' });
    await job.check(clientId, { mode: 'create', blanks: 'keep' });
    await job.import(clientId, 'skip');
    expect(summary()).toMatchObject({ failure: null });
    expect(paths.at(-1)).toContain('fileName=stores++nov.csv');
  });

  it("rows whose phone carries an extension are counted for the preview's warning: the number is kept, not the extension", async () => {
    const { job, report } = jobOverServer();
    await job.read(file('gbp-hours.csv', (text) => text.replace('(206) 555-0102', '(206) 555-0102 ext. 4')));
    await job.check(clientId, { mode: 'create', blanks: 'keep' });
    expect(report().totals).toMatchObject({ error: 0 });
    expect(report().phoneExtensions).toEqual({ count: 1, lines: [3] });
  });

  it("rows whose store code lost its leading zeros in Excel are counted for the preview's notice, and change nothing", async () => {
    const zeros = await t().createClient(admin(), 'Northwind Coffee with zeros');
    const codes = (text: string) => text.replace('SEA-001', '00101').replace('SEA-002', '0102');
    const first = jobOverServer();
    await first.job.read(file('gbp-hours.csv', codes));
    await first.job.check(zeros, { mode: 'create', blanks: 'keep' });
    await first.job.import(zeros, 'skip');
    expect(first.report().codesWithoutZeros).toEqual({ count: 0, lines: [] });
    // The same sheet saved by Excel: 00101 and 0102 are numbers now.
    const { job, report } = jobOverServer();
    await job.read(file('gbp-hours.csv', (text) => text.replace('SEA-001', '101').replace('SEA-002', '102')));
    await job.check(zeros, UPSERT);
    expect(report().totals).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(report().codesWithoutZeros).toEqual({ count: 2, lines: [2, 3] });
  });

  it('update with blanks=clear: an emptied cell clears the stored value; rows that match nothing are skipped', async () => {
    const { job, report, summary } = jobOverServer();
    const emptied = (text: string) =>
      text.replace('northwind.example/seattle', '').replace('SEA-002,', 'NEW-002,').replace('(206) 555-0102', '');
    await job.read(file('gbp-hours.csv', emptied));
    await job.check(clientId, { mode: 'update', blanks: 'clear' });
    expect(report().totals).toMatchObject({ created: 0, updated: 1, skipped: 1, error: 0 });
    expect(report().updated[0]?.changes).toEqual({ website: { from: 'https://northwind.example/seattle', to: null } });
    expect(report().skipped).toEqual([
      expect.objectContaining({ line: 3, skipReason: expect.stringMatching(/No location/) }),
    ]);
    await job.import(clientId, 'skip');
    expect(summary()).toMatchObject({ imported: 0, updated: 1, skipped: 1 });
  });

  it('a per-day hours cell the server cannot read is a problem of the row; fixing it checks that row again', async () => {
    const { job, report, paths } = jobOverServer();
    await job.read(file('gbp-hours-edited.csv', (text) => text.replace('07:00-21:00', 'seven till late')));
    await job.check(clientId, UPSERT);
    expect(report().totals.error).toBe(1);
    const [problem] = report().problems;
    expect(problem?.line).toBe(2);
    expect(problem?.errors).toEqual([
      expect.objectContaining({ field: 'hours', message: expect.stringMatching(/hours/) }),
    ]);
    await job.fix(problem!.row, 'hours', 'Mon-Thu 07:00-19:00, Fri 07:00-21:00, Sat 08:00-12:00 & 13:00-17:00, Sun x');
    expect(report().totals.error).toBe(0);
    expect(report().problems).toEqual([]);
    // The typed week equals the stored hours: no hours change for that row.
    expect(report().updated.find((row) => row.line === 2)?.changes ?? {}).not.toHaveProperty('hours');
    expect(paths.at(-1)).toBe(
      '/api/locations/upload?dryRun=true&duplicates=skip&mode=upsert&blanks=keep&placeholders=none',
    );
  });
});

/** A file of the given text, as the page hands one to the worker. */
const csv = (text: string, name = 'shops.csv') => ({
  ...bufferSource(new Uint8Array(Buffer.from(text, 'utf8'))),
  name,
});

describe("ImportJob: Yext's Closed column", () => {
  it('the yes and no go to the server as the file says them; a Closed that disagrees flags its cell too; a fix in Closed clears it', async () => {
    const clientId = await t().createClient(admin(), 'Closed shops');
    const run = jobOverServer();
    await run.job.read(
      csv('Entity ID,Name,Status,Closed\nY-1,Pike,open,Yes\nY-2,Alberta,Temporarily closed,No\nY-3,Fremont,,Maybe\n'),
    );
    await run.job.check(clientId);
    expect(run.report().problems.map(({ line, errors }) => ({ line, errors }))).toEqual([
      {
        line: 2,
        errors: [{ field: 'status', message: expect.stringMatching(/^Status "open" and Closed "Yes" disagree/) }],
      },
      { line: 4, errors: [{ field: 'status', message: expect.stringMatching(/^Closed "Maybe" is not a yes or no/) }] },
    ]);
    run.job.grid(1, { show: 'error', text: '' }, 0, 50);
    expect(run.grid().fields).toEqual(['name', 'store_code', 'status', 'closed']);
    expect(run.grid().rows.map((row) => row.values)).toEqual([
      { name: 'Pike', store_code: 'Y-1', status: 'open', closed: 'Yes' },
      { name: 'Fremont', store_code: 'Y-3', closed: 'Maybe' },
    ]);
    const [pike] = run.grid().rows;
    expect(['status', 'closed'].map((field) => problemWith(pike!.errors, field as 'status' | 'closed'))).toEqual([
      pike!.errors[0]!.message,
      pike!.errors[0]!.message,
    ]);

    await run.job.fix(0, 'closed', 'No');
    await run.job.fix(2, 'closed', 'yes');
    expect(run.report().problems).toEqual([]);
    await run.job.import(clientId, 'skip');
    expect(run.summary()).toMatchObject({ imported: 3, failure: null });
    const stored = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
    expect(stored.json<{ name: string; status: string }[]>().map(({ name, status }) => [name, status])).toEqual([
      ['Pike', 'open'],
      ['Alberta', 'temporarily_closed'],
      ['Fremont', 'permanently_closed'],
    ]);
  });
});

describe('ImportJob: the grid that fixes in bulk, and cancel', () => {
  const SHOPS = [
    'Name,City,Postcode,Country',
    'Shop 1,Londn,SW1A 1AA,England',
    'Shop 2,Londn,SW1A 1AA SW1A 1AA SW1A,England',
    '=HYPERLINK("x"),Londn,SW1A 1AA SW1A 1AA SW1A,Wales',
    'Shop 4,Leeds,LS1 1AA,England',
  ].join('\n');

  it('filters rows by status and text, sets a column on the rows shown, replaces with a count first, undoes the last fix', async () => {
    const clientId = await t().createClient(admin(), 'Corner Shops');
    const run = jobOverServer();
    await run.job.read(csv(SHOPS));
    await run.job.check(clientId);
    expect(run.report().totals.error).toBe(2);

    run.job.grid(1, { show: 'error', text: '' }, 0, 50);
    expect(run.grid()).toMatchObject({ id: 1, total: 2, fields: ['name', 'city', 'zip', 'country'] });
    expect(run.grid().rows.map((row) => row.line)).toEqual([3, 4]);
    run.job.grid(2, { show: 'all', text: 'leeds' }, 0, 50);
    expect(run.grid().rows.map((row) => row.line)).toEqual([5]);
    // "1" is any value holding a 1 (and line 1, the header, is no row); "line 3" or "#3" is that line alone.
    run.job.grid(2, { show: 'all', text: '1' }, 0, 50);
    expect(run.grid().rows.map((row) => row.line)).toEqual([2, 3, 4, 5]);
    for (const text of ['line 3', 'Line 3', '#3', 'row 3']) {
      run.job.grid(2, { show: 'all', text }, 0, 50);
      expect(
        run.grid().rows.map((row) => row.line),
        text,
      ).toEqual([3]);
    }

    await run.job.setValues({ filter: { show: 'error', text: '' } }, 'zip', 'EC1A 1BB');
    expect(run.report().totals).toMatchObject({ created: 4, error: 0 });

    await run.job.replace({ filter: { show: 'all', text: '' } }, 'city', 'Londn', 'London', false);
    expect(run.replaceCount()).toBe(3);
    await run.job.replace({ filter: { show: 'all', text: '' } }, 'city', 'Londn', 'London', true);
    run.job.grid(3, { show: 'all', text: 'london' }, 0, 50);
    expect(run.grid()).toMatchObject({ total: 3, canUndo: true });

    await run.job.undoFix();
    run.job.grid(4, { show: 'all', text: 'london' }, 0, 50);
    expect(run.grid().total).toBe(0);
    await run.job.undoFix();
    expect(run.report().totals.error).toBe(2);
  });

  it('a grid window says which selected rows its filter no longer shows: those left out, fixed or filtered away', async () => {
    const clientId = await t().createClient(admin(), 'Hidden Shops');
    const run = jobOverServer();
    await run.job.read(csv(SHOPS));
    await run.job.check(clientId);
    run.job.grid(1, { show: 'error', text: '' }, 0, 50, [1, 2]);
    expect(run.grid()).toMatchObject({ total: 2, hidden: [] });

    await run.job.leave([1], true);
    run.job.grid(2, { show: 'error', text: '' }, 0, 50, [1, 2]);
    expect(run.grid()).toMatchObject({ total: 1, hidden: [1] });
    // Under every row, a row left out is still shown.
    run.job.grid(3, { show: 'all', text: '' }, 0, 50, [1, 2]);
    expect(run.grid().hidden).toEqual([]);
    run.job.grid(4, { show: 'all', text: 'wales' }, 0, 50, [0, 2]);
    expect(run.grid().hidden).toEqual([0]);

    await run.job.setValues({ rows: [2] }, 'zip', 'EC1A 1BB');
    run.job.grid(5, { show: 'error', text: '' }, 0, 50, [2]);
    expect(run.grid()).toMatchObject({ total: 0, hidden: [2] });
    // A scroll sends no selection: nothing to say.
    run.job.grid(6, { show: 'error', text: '' }, 50, 100);
    expect(run.grid().hidden).toEqual([]);
  });

  it('a grid window counts the rows a second table holds, shown and selected: Put back leaves them out', async () => {
    const clientId = await t().createClient(admin(), 'Two Tables');
    const run = jobOverServer();
    const file = [
      'Name,Address,City,Postcode',
      'Laden Berlin,Unter den Linden 1,Berlin,10117',
      'Total,,,',
      'Name,Postcode,City,Address',
      'Laden Wien,1010,Wien,Graben 1',
    ].join('\n');
    await run.job.read(csv(file));
    await run.job.check(clientId);
    const leftOut = { show: 'left-out', text: '' } as const;
    run.job.grid(1, leftOut, 0, 50, [1, 3]);
    expect(run.grid()).toMatchObject({
      total: 3,
      locked: { shown: 2, selected: 1 },
      leftOut: { shown: 3, selected: 2 },
    });
    // Put back, to every row shown, puts back the totals row only.
    await run.job.leave({ filter: leftOut }, false);
    run.job.grid(2, leftOut, 0, 50);
    expect(run.grid()).toMatchObject({
      total: 2,
      locked: { shown: 2, selected: 0 },
      leftOut: { shown: 2, selected: 0 },
    });
    // Every row shown: the Berlin row kept, and the two left out; the Berlin row ticked is none of them.
    const all = { show: 'all', text: '' } as const;
    run.job.grid(3, all, 0, 50, [0]);
    expect(run.grid()).toMatchObject({ total: 4, leftOut: { shown: 2, selected: 0 } });
  });

  it('the rows with problems as a CSV: line, reasons, the file own cells, formulas escaped', async () => {
    const clientId = await t().createClient(admin(), 'Returned Shops');
    const run = jobOverServer();
    await run.job.read(csv(SHOPS));
    await run.job.check(clientId);
    run.job.leave([3], true);
    run.job.problemsCsv();
    const lines = run.problemsCsv().split(/\r?\n/);
    expect(lines[0]).toBe('Line,Problem,Name,City,Postcode,Country');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['3', '4', '5']);
    expect(lines[1]).toContain('Postal code: is longer than 20 characters');
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[3]).toBe('5,Left out,Shop 4,Leeds,LS1 1AA,England');
  });

  it('cancel during the import undoes what was written: nothing stays', async () => {
    const clientId = await t().createClient(admin(), 'Cancelled Shops');
    const run = jobOverServer();
    await run.job.read(csv(SHOPS));
    await run.job.check(clientId);
    run.job.leave('problems', true);
    const importing = run.job.import(clientId, 'skip');
    run.job.cancel();
    await importing;
    expect(run.cancelled()).toEqual({ undone: 1, removed: 2, restored: 0, notUndone: [] });
    expect(run.paths.at(-1)).toMatch(/^\/api\/operations\/[0-9a-f-]+\/undo$/);
    const stored = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
    expect(stored.json()).toEqual([]);
  });
});

describe('ImportJob: rows judged together are checked again together', () => {
  const STORES = [
    'Store code,Business name,Address line 1,Locality,Country/Region',
    'ME-005,Maison Étoile Bordeaux,12 Rue Sainte-Catherine,Bordeaux,FR',
    'ME-005,Maison Étoile Bordeaux,12 Rue Sainte-Catherine,Bordeaux,FR',
    'ME-006,Maison Étoile Lyon,3 Rue de la République,Lyon,FR',
  ].join('\n');
  // The rows with problems that would go (a row left out keeps its problems, shown as left out).
  const errorLines = (report: CheckReport) =>
    report.problems.filter((problem) => !problem.leftOut).map((problem) => problem.line);

  // Found by a new user's walk: with the repeated row left out (or its code changed), the row left of the
  // pair was not checked again and kept "the store code is also on line 3": the import stayed blocked.
  it('a repeated store code: leaving one row out, putting it back, fixing and undoing each clear or restore both', async () => {
    const clientId = await t().createClient(admin(), 'Maison Étoile');
    const { job, report } = jobOverServer();
    await job.read(csv(STORES));
    await job.check(clientId);
    expect(errorLines(report())).toEqual([2, 3]);
    await job.leave([1], true);
    expect(errorLines(report())).toEqual([]);
    expect(report().totals).toMatchObject({ created: 2, error: 0 });
    await job.leave([1], false);
    expect(errorLines(report())).toEqual([2, 3]);
    await job.fix(1, 'store_code', 'ME-005-B');
    // Its name and address still repeat line 2: now a duplicate of it, no longer a problem.
    expect(errorLines(report())).toEqual([]);
    expect(report().totals).toMatchObject({ created: 2, skipped: 1, error: 0 });
    await job.undoFix();
    expect(errorLines(report())).toEqual([2, 3]);
    // A code typed into another row that another row holds refuses both.
    await job.leave([1], true);
    await job.fix(2, 'store_code', 'ME-005');
    expect(errorLines(report())).toEqual([2, 4]);
  });

  it('a row that repeats another: leaving out the first makes the second a new location', async () => {
    const clientId = await t().createClient(admin(), 'Maison Étoile 2');
    const { job, report } = jobOverServer();
    await job.read(csv(STORES.replaceAll('ME-005,', ',')));
    await job.check(clientId);
    expect(report().totals).toMatchObject({ created: 2, skipped: 1, error: 0 });
    await job.leave([0], true);
    expect(report().totals).toMatchObject({ created: 2, skipped: 0, error: 0 });
  });
});

describe('ImportJob: the column step options (issue 12)', () => {
  it('a country for a sheet without one: its national phones and ZIP codes read by it, in the check and the import', async () => {
    const clientId = await t().createClient(admin(), 'Boston bakeries');
    const csv = ['Store,Phone,ZIP', 'Back Bay,(617) 555-0100,2116', 'South End,617-555-0101,2118'].join('\n');
    const { job, report, summary, paths } = jobOverServer();
    await job.read({ ...bufferSource(new Uint8Array(Buffer.from(csv))), name: 'boston.csv' });
    job.map(['name', 'phone', 'zip']);
    await job.check(clientId);
    expect(report().totals.error).toBe(2);

    job.setOptions({ ...DEFAULT_OPTIONS, country: 'US' });
    await job.check(clientId);
    expect(report().totals).toMatchObject({ created: 2, error: 0 });
    expect(report().samples[0]?.location).toMatchObject({ country: 'US', phone: '+16175550100', zip: '02116' });
    await job.import(clientId, 'skip');
    expect(summary()).toMatchObject({ imported: 2, failure: null });
    expect(paths.at(-1)).toContain('country=US');
  });

  it('a separator and an edited placeholder list shape the rows sent and the flags; the saved mapping goes with the import', async () => {
    const clientId = await t().createClient(admin(), 'Pizzerie di Napoli');
    const saved = await t().request({
      method: 'POST',
      url: '/api/mappings',
      token: admin(),
      body: { client_id: clientId, name: 'Sedi', columns: [{ header: 'Sede', field: 'name' }] },
    });
    const csv = [
      'Sede,Via,Civico,Interno,Provincia,Paese',
      'Pizzeria Toledo,Via Toledo,256,Scala B,NA,IT',
      'Pizzeria Sorbillo,Via dei Tribunali,32,N/A,NA,IT',
      'Pizzeria Sola,,,,NA,',
    ].join('\n');
    const { job, report, summary, paths } = jobOverServer();
    await job.read({ ...bufferSource(new Uint8Array(Buffer.from(csv))), name: 'sedi.csv' });
    job.map(['name', 'address', 'street_number', 'address', 'state', 'country']);
    await job.check(clientId);
    // The default list: NA is blank, so the third row is only a name.
    expect(report().flagged).toBe(1);
    expect(report().samples[0]?.location).toMatchObject({ address: 'Via Toledo 256, Scala B', state: null });

    job.setOptions({ separator: ' / ', placeholders: PLACEHOLDERS.filter((word) => word !== 'NA'), country: null });
    await job.check(clientId);
    expect(report().flagged).toBe(0);
    expect(report().samples.map((sample) => sample.location)).toEqual([
      expect.objectContaining({ address: 'Via Toledo 256 / Scala B', state: 'NA', country: 'IT' }),
      expect.objectContaining({ address: 'Via dei Tribunali 32', state: 'NA' }),
      expect.objectContaining({ name: 'Pizzeria Sola', state: 'NA' }),
    ]);
    await job.import(clientId, 'skip', undefined, saved.json().id);
    expect(summary()).toMatchObject({ imported: 3, failure: null });
    expect(paths.at(-1)).toContain(`mapping=${saved.json().id}`);
    const mappings = await t().request({ method: 'GET', url: `/api/mappings?clientId=${clientId}`, token: admin() });
    expect(mappings.json()[0].last_used_at).not.toBeNull();
  });
});

describe('ImportJob: rows with more values than the header (a walk, then a review)', () => {
  /** A job over a new client's file, read and checked in create mode. */
  async function checkedFor(client: string, text: string) {
    const clientId = await t().createClient(admin(), client);
    const run = jobOverServer();
    await run.job.read(csv(text));
    await run.job.check(clientId);
    return run;
  }

  const overfullFile = [
    'Name;City;Hours',
    'Corner Shop;Leeds;Mon-Fri 9-17',
    'Bakery;York;Mo-Fr 7-18 Uhr; Sa 7-12',
    // Its cell past the header is blank, but it is wider than the file's usual rows: a value moved.
    'Florist;Hull;Mon-Fri 8-16; Sat 9-12;',
    'Kiosk;Bath;Mon-Sun 6-22',
  ].join('\n');

  it('is an error on its last field, in no list of rows to write, until typed whole in its cell; undo brings it back', async () => {
    const { job, report } = await checkedFor('Overfull', overfullFile);
    expect(report().totals).toMatchObject({ created: 2, error: 2 });
    const problems = report().problems;
    expect(problems.map((problem) => problem.line)).toEqual([3, 4]);
    expect(problems[0]!.errors).toEqual([
      { field: 'hours', message: expect.stringContaining('and "Sa 7-12" would be lost') },
    ]);
    expect(problems[1]!.errors).toEqual([{ field: 'hours', message: expect.stringContaining('moves every value') }]);
    // Not among the rows to create: the samples hold the two ready rows alone.
    expect(
      report()
        .samples.map((sample) => sample.line)
        .sort(),
    ).toEqual([2, 5]);

    // A bulk change of the column does not clear it: the row was not read.
    await job.setValues({ rows: [problems[0]!.row] }, 'hours', 'Mo-Fr 7-18');
    expect(report().totals.error).toBe(2);
    // Typed in its cell, it is ready; undone, the problem is back.
    await job.fix(problems[0]!.row, 'hours', 'Mo-Fr 7-18 Uhr; Sa 7-12');
    expect(report().totals).toMatchObject({ created: 3, error: 1 });
    await job.undoFix();
    expect(report().totals).toMatchObject({ created: 2, error: 2 });
  });

  it('rows that all end in separators are the usual width: none is overfull', async () => {
    const { report } = await checkedFor(
      'Trailing separators',
      'Name;City\nCorner Shop;Leeds;;\nBakery;York;;\nKiosk;Bath;;',
    );
    expect(report().totals).toMatchObject({ created: 3, error: 0 });
  });
});
