import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { mixedEncodingWords } from '../../server/imports/mixed-encoding.js';
import { TestClock, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import {
  clientWorkbook,
  editedWorkbook,
  inline,
  templateWorkbook,
  workbookWithChartSheet,
  YEXT_CSV,
} from '../helpers/real-world-files.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * Issue 12: POST /api/locations/upload with a CSV or .xlsx body, with files shaped like the exports
 * agencies are sent (Yext, BrightLocal, Uberall, a German "Unicode Text" file, a French Excel CSV),
 * warts included, each checked through the answer and GET /api/locations.
 */
let t: TestApp;
let admin: string;
let viewer: string;

beforeAll(async () => {
  const built = await buildSignedInApp({ admin: 'admin', viewer: 'viewer' }, { clock: new TestClock() });
  t = built.t;
  admin = built.tokens.admin;
  viewer = built.tokens.viewer;
});
afterAll(() => t.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function upload(clientId: string, body: Buffer | string, type: string, query = '', token = admin) {
  const url = `/api/locations/upload?clientId=${clientId}${query}`;
  return t.request({ method: 'POST', url, token, headers: { 'content-type': type }, body });
}

type Stored = Record<string, unknown> & { name: string };

async function locationsOf(clientId: string): Promise<Stored[]> {
  const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Uploads a one-location file that must import, and answers the location as stored. */
async function importedAs(name: string, body: Buffer | string, type = 'text/csv'): Promise<Stored> {
  const clientId = await t.createClient(admin, name);
  const response = await upload(clientId, body, type);
  expect(response.statusCode, response.body).toBe(201);
  const [location] = await locationsOf(clientId);
  return location!;
}

function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** The characters Windows-1252 puts at the bytes 0x80 to 0x9F (Microsoft's code page table). */
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  '„': 0x84,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
  Œ: 0x8c,
  œ: 0x9c,
  Ÿ: 0x9f,
};

/** The text as Excel's Windows-1252 "CSV" writes it. */
function windows1252(text: string): Buffer {
  return Buffer.from([...text].map((c) => CP1252_HIGH[c] ?? c.charCodeAt(0)));
}

const YEXT = YEXT_CSV;

describe('POST /api/locations/upload with Content-Type: text/csv', () => {
  it('a Yext export: every column mapped, placeholders blank, junk rows left out with their sheet row numbers', async () => {
    const clientId = await t.createClient(admin, 'Yext client');
    const response = await upload(clientId, `\uFEFF${YEXT}`, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json();
    expect(answer.count).toBe(3);
    expect(answer.columns.filter((column: { field: string | null }) => column.field === null)).toEqual([]);
    expect(answer.columns[7]).toEqual({
      header: 'Address > Country Code',
      field: 'country',
      matched_by: 'synonym',
      score: 1,
    });
    expect(answer.columns[0]).toEqual({ header: 'Entity ID', field: 'store_code', matched_by: 'synonym', score: 1 });
    // Row 2 holds a quoted line break: the rows after it keep the sheet's numbers (not the text's lines).
    expect(answer.left_out).toEqual([
      { line: 4, reason: 'repeated header row' },
      { line: 6, reason: 'totals or summary row' },
      { line: 7, reason: 'totals or summary row' },
    ]);
    const stored = await locationsOf(clientId);
    const soho = stored.find((location) => location.name === 'Bluebird Soho')!;
    expect(soho).toMatchObject({ address: '12 Old Compton St, Unit 2\nback entrance', country: 'GB', state: null });
    const camden = stored.find((location) => location.name === 'Bluebird Camden')!;
    expect(camden).toMatchObject({ website: null, phone: '+442079460002' });
    const brixton = stored.find((location) => location.name === 'Bluebird Brixton')!;
    expect(brixton).toMatchObject({ phone: null, website: null, address: null });
  });

  it("an older Yext sheet's hours in its legacy form (2:9:00:17:00,…): read, the days it leaves out closed", async () => {
    const clientId = await t.createClient(admin, 'Yext legacy client');
    const csv =
      'Store ID,Location Name,Hours\nEB-1,Eastern Bank Dedham,"2:09:00:17:00,3:09:00:17:00,6:09:00:19:00,7:09:00:13:00,1:closed"\n';
    const response = await upload(clientId, csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    const [bank] = await locationsOf(clientId);
    expect(bank!.hours).toEqual({
      mon: [['09:00', '17:00']],
      tue: [['09:00', '17:00']],
      wed: [],
      thu: [],
      fri: [['09:00', '19:00']],
      sat: [['09:00', '13:00']],
      sun: [],
    });
  });

  it('a CSV whose header ends with \\r\\n and whose rows with \\n, quoted cells at their ends: every row read (a walk lost three)', async () => {
    const clientId = await t.createClient(admin, 'Mixed line endings');
    const csv =
      'Name,Description,City\r\nPeoria,"The ""flagship""","Peoria"\nO\'Hare,Terminal 3,"Chicago"\nChicago Loop,plain,Chicago\r\nLA,"y","Los Angeles"\r\n';
    const response = await upload(clientId, csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    expect((await locationsOf(clientId)).map((location) => location.city)).toEqual([
      'Peoria',
      'Chicago',
      'Chicago',
      'Los Angeles',
    ]);
    expect((await locationsOf(clientId)).map((location) => location.name)).toEqual([
      'Peoria',
      "O'Hare",
      'Chicago Loop',
      'LA',
    ]);
  });

  it('?keep_flagged=true imports the flagged rows too; a dry run writes nothing and still answers columns', async () => {
    const clientId = await t.createClient(admin, 'Flagged client');
    const csv = 'Name,City\nAcme Berlin,Berlin\nAcme Solo,\n';
    const dry = await upload(clientId, csv, 'text/csv', '&dryRun=true');
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toMatchObject({
      dry_run: true,
      count: 1,
      left_out: [{ line: 3, reason: 'only a name, nothing else' }],
    });
    expect(dry.json().columns).toHaveLength(2);
    expect(await locationsOf(clientId)).toEqual([]);
    const kept = await upload(clientId, csv, 'text/csv', '&keep_flagged=true');
    expect(kept.json()).toMatchObject({ count: 2, left_out: [] });
  });

  it('the Template CSV filled in below its example row: the example is left out, the rows are imported', async () => {
    const clientId = await t.createClient(admin, 'Template client');
    const template = readFileSync(new URL('../../renderer/public/locations-template.csv', import.meta.url), 'utf8');
    const filled = `${template.trimEnd()}\nBB-1,Bluebird Downtown,1 Main St,Austin,TX,78701,US,,,,,,,,,\n`;
    const response = await upload(clientId, filled, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ count: 1, left_out: [{ line: 2, reason: 'the template’s example row' }] });
    expect((await locationsOf(clientId)).map((location) => location.name)).toEqual(['Bluebird Downtown']);
    // The template alone imports nothing, and says why.
    const alone = await upload(await t.createClient(admin, 'Template only'), template, 'text/csv', '&dryRun=true');
    expect(alone.json()).toMatchObject({ count: 0, left_out: [{ line: 2, reason: 'the template’s example row' }] });
  });
});

describe('POST /api/locations/upload with Content-Type: text/csv, encodings', () => {
  it('a German "Unicode Text" export (UTF-16LE, tabs): Straße and Hausnummer joined as Germans write it', async () => {
    const text =
      'Filiale\tStraße\tHausnummer\tPLZ\tOrt\tBundesland\tLand\r\nBäckerei Prag\tPrager Straße\t90a\t01069\tDresden\tSachsen\tDeutschland\r\n';
    expect(await importedAs('German client', utf16le(text))).toMatchObject({
      name: 'Bäckerei Prag',
      address: 'Prager Straße 90a',
      zip: '01069',
      city: 'Dresden',
      state: 'Sachsen',
      country: 'DE',
    });
  });

  it('UTF-8 with one stray Windows-1252 byte beside one UTF-8 letter is a 400 naming the line, never stored garbled (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'One stray byte');
    const utf8 = (text: string) => Buffer.from(text, 'utf8');
    // As many valid sequences as stray bytes: stored as "BÃ¤ckerei" and "Joe’s", or read as Mac Roman,
    // "Joeís Diner" in "Stra√üburg".
    const bodies = [
      Buffer.concat([utf8('Name,City\nBäckerei,Joe'), Buffer.from([0x92]), utf8('s\n')]),
      Buffer.concat([utf8('Name,City\nJoe'), Buffer.from([0x92]), utf8('s Diner,Straßburg\n')]),
    ];
    for (const body of bodies) {
      expect(expectErrorBody(await upload(clientId, body, 'text/csv'), 400).message).toBe(mixedEncodingWords(2));
    }
    expect(await locationsOf(clientId)).toEqual([]);
    // A Windows-1252 file whose own letters happen to form UTF-8 ("é »" with its no-break space is E9 A0
    // BB, a CJK letter) is no mix: it is read as Windows-1252.
    const french = await importedAs('Guillemets', windows1252('Nom,Ville\n« Le Café »,Lyon\n'));
    expect(french).toMatchObject({ name: '« Le Café »', city: 'Lyon' });
  });

  it('Excel’s "Unicode Text" sent as text/tab-separated-values or text/plain is read as the CSV it is', async () => {
    const text = 'Name\tAddress\tCity\tCountry\r\nKöln Café\tHohe Straße 1\tKöln\tDeutschland\r\n';
    for (const type of ['text/tab-separated-values', 'text/plain', 'text/plain; charset=utf-16le']) {
      expect(await importedAs(`Unicode Text as ${type}`, utf16le(text), type)).toMatchObject({
        name: 'Köln Café',
        address: 'Hohe Straße 1',
        city: 'Köln',
        country: 'DE',
      });
    }
    // A script's tab-separated UTF-8, no byte order mark.
    expect(await importedAs('Plain TSV', 'Name\tCity\nOslo Kafé\tOslo\n', 'text/tab-separated-values')).toMatchObject({
      name: 'Oslo Kafé',
      city: 'Oslo',
    });
  });

  it('JSON rows sent as text/plain, text/csv or tab-separated -> 415 saying to send application/json, nothing imported', async () => {
    const clientId = await t.createClient(admin, 'JSON as text');
    const json = JSON.stringify({ clientId, rows: [{ name: 'A' }] });
    const bodies = [json, '\n  [{"name": "A"}]', `\ufeff${json}`, utf16le(json)];
    for (const type of ['text/plain', 'text/csv', 'text/tab-separated-values; charset=utf-8']) {
      for (const body of bodies) {
        const response = await upload(clientId, body, type);
        expect(expectErrorBody(response, 415).message).toBe(
          `This body is JSON sent as ${type.split(';')[0]}: send JSON rows with Content-Type: application/json (a CSV or tab-separated file is sent as it is).`,
        );
      }
    }
    expect(await locationsOf(clientId)).toEqual([]);
  });

  it('a French Excel CSV (Windows-1252, semicolons): Complément joined, decimal commas read', async () => {
    const clientId = await t.createClient(admin, 'French client');
    const text =
      'Nom;Adresse;Complément;Code postal;Ville;Pays;Latitude;Longitude\r\n' +
      'Café Rivoli;12 rue de Rivoli;Bâtiment B;75004;Paris;France;48,8556;2,3522\r\n';
    const response = await upload(clientId, windows1252(text), 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().columns[2]).toMatchObject({ header: 'Complément', field: 'address' });
    const [location] = await locationsOf(clientId);
    expect(location).toMatchObject({
      name: 'Café Rivoli',
      address: '12 rue de Rivoli, Bâtiment B',
      zip: '75004',
      country: 'FR',
      latitude: 48.8556,
      longitude: 2.3522,
    });
  });

  it('a GBP bulk sheet from Excel’s "CSV (semicolon)": a title above the header, decimal commas in every row', async () => {
    // test/fixtures/csv/gbp-bulk-upload-eu.csv: Windows-1252, 20 locations; read as commas, it had no name column.
    const body = readFileSync(new URL('../fixtures/csv/gbp-bulk-upload-eu.csv', import.meta.url));
    const clientId = await t.createClient(admin, 'GBP Europe client');
    const dry = await upload(clientId, body, 'text/csv', '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ valid: true, totals: { created: 20, errors: 0 }, left_out: [] });
    expect(dry.json().columns[1]).toEqual({ header: 'Business name', field: 'name', matched_by: 'synonym', score: 1 });
    const response = await upload(clientId, body, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    const stored = await locationsOf(clientId);
    expect(stored).toHaveLength(20);
    const byCode = (code: string) => stored.find((location) => location.store_code === code)!;
    expect(byCode('EU-001')).toMatchObject({
      name: 'Maison Lumière Lyon Bellecour',
      latitude: 45.7578,
      longitude: 4.832,
      hours: {
        sun: [],
        wed: [
          ['09:00', '12:00'],
          ['14:00', '18:00'],
        ],
      },
    });
    expect(byCode('EU-006')).toMatchObject({ zip: '01069', state: 'Sachsen', country: 'DE' });
    expect(byCode('EU-010')).toMatchObject({ latitude: 38.7107, longitude: -9.1366, zip: '1100-053' });
    // A quoted semicolon stays in the name; a bare comma stays in the address; N/A is blank.
    expect(byCode('EU-011').name).toBe('Maison Lumière; Salon de thé Gent');
    expect(byCode('EU-012').address).toBe('17 Rue du Docteur Bouchut, Bâtiment B, 2e étage');
    expect(byCode('EU-013')).toMatchObject({ latitude: null, longitude: null });
    expect(byCode('EU-014')).toMatchObject({ website: null, hours: { fri: [['09:00', '17:00']] } });
  });
});

describe('POST /api/locations/upload with Content-Type: text/csv, other sources', () => {
  it('rows that end in separators with nothing after them are read as their header says', async () => {
    const location = await importedAs('Trailing separators', 'Name;City;\nA;Köln;;;\nB;Bonn;;;\n', 'text/csv');
    expect(location).toMatchObject({ name: 'A', city: 'Köln' });
  });

  it('honours the charset the Content-Type names', async () => {
    const body = windows1252('Name,City\nZürich Café,Zürich\n');
    const location = await importedAs('Charset client', body, 'text/csv; charset=windows-1252');
    expect(location).toMatchObject({ name: 'Zürich Café', city: 'Zürich' });
  });

  it('a byte order mark wins over the charset named: Excel’s "Unicode Text" sent as charset=utf-8', async () => {
    const unicodeText = utf16le('Name\tCity\r\nZürich Café\tZürich\r\n');
    const location = await importedAs('UTF-16 labelled UTF-8', unicodeText, 'text/csv; charset=utf-8');
    expect(location).toMatchObject({ name: 'Zürich Café', city: 'Zürich' });
    const utf8WithBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name,City\nKöln Café,Köln\n')]);
    const labelledLatin = await importedAs('UTF-8 labelled Latin-1', utf8WithBom, 'text/csv; charset=windows-1252');
    expect(labelledLatin).toMatchObject({ name: 'Köln Café', city: 'Köln' });
  });

  it('Windows-1252 is read by its code page, declared or not: € “ ” – Œ are not control characters', async () => {
    const body = windows1252('Name,City\n“Œuvre” Café – 5 € Deals™,Köln\n');
    for (const type of ['text/csv; charset=windows-1252', 'text/csv; charset=iso-8859-1', 'text/csv']) {
      const location = await importedAs(`Code page ${type}`, body, type);
      expect(location).toMatchObject({ name: '“Œuvre” Café – 5 € Deals™', city: 'Köln' });
    }
  });

  it('a BrightLocal and an Uberall export', async () => {
    const brightCsv =
      'Location Name,Location Reference,Address 1,Address 2,City,State/County,Postcode/ZIP,Country,Telephone,Website URL\n' +
      'Acme Leeds,AC-7,1 Briggate,Floor 2,Leeds,West Yorkshire,LS1 6HD,United Kingdom,0113 496 0000,acme.example\n';
    expect(await importedAs('BrightLocal client', brightCsv)).toMatchObject({
      store_code: 'AC-7',
      address: '1 Briggate, Floor 2',
      state: 'West Yorkshire',
      zip: 'LS1 6HD',
      country: 'GB',
    });
    const uberallCsv =
      'identifier;name;street;streetNo;addressExtra;zip;city;province;country;phone;openingHours;status\n' +
      'U-1;Acme Wien;Mariahilfer Straße;12;Top 3;1070;Wien;Wien;AT;+43 1 5350000;"MONDAY=08:00-16:00;SATURDAY";INACTIVE\n';
    expect(await importedAs('Uberall client', uberallCsv)).toMatchObject({
      store_code: 'U-1',
      address: 'Mariahilfer Straße 12, Top 3',
      zip: '1070',
      country: 'AT',
      hours: { mon: [['08:00', '16:00']], sat: [] },
      status: 'temporarily_closed',
    });
  });

  it('a US sheet’s hours: "M-F 9-5" and "Weekdays … Weekends closed" are read, not refused', async () => {
    const csv =
      'Store Code,Location Name,Hours\nNY 001,Bluebird SoHo,M-F 9-5\nNY 003,Bluebird Tribeca,Weekdays 8-6; Weekends closed\n';
    const clientId = await t.createClient(admin, 'US hours client');
    const response = await upload(clientId, csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    const [soho, tribeca] = await locationsOf(clientId);
    expect(soho!.hours).toEqual(
      Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
    );
    expect(tribeca!.hours).toMatchObject({ fri: [['08:00', '18:00']], sat: [], sun: [] });
  });

  it('a second table below the first, its columns in another order, is a 400 naming its header line (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Two tables in one sheet');
    const csv =
      'Deutschland\nFilialnummer,Name,Straße,PLZ,Ort,Land\n1,Berlin Mitte,Unter den Linden 1,10117,Berlin,DE\n\n' +
      'Österreich\nFilialnummer,Name,PLZ,Ort,Straße,Land\n3,Wien Graben,1010,Wien,Graben 1,AT\n';
    const refused = expectErrorBody(await upload(clientId, csv, 'text/csv', '&dryRun=true'), 400);
    expect(refused.message).toMatch(/^Line 6 repeats the header with its columns in another order/);
    // The same header again, in its own order (files glued together), is only left out.
    const glued = 'Name,City\nA,Berlin\nName,City\nB,Wien\n';
    expect((await upload(clientId, glued, 'text/csv', '&dryRun=true')).json()).toMatchObject({
      count: 2,
      left_out: [{ line: 3, reason: 'repeated header row' }],
    });
  });

  it('a second table or an overfull line far below, after pieces of rows were written, is refused and nothing stays', async () => {
    // The rows are made from the file's lines a piece at a time while the writer writes the earlier ones:
    // a refusal found at line 2,503 rolls back the 2,500 rows before it.
    const clientId = await t.createClient(admin, 'Refused far below');
    const good = Array.from({ length: 2_500 }, (_, i) => `Shop ${i + 1},${i + 1} Main St,Berlin,DE`).join('\n');
    const second = `Name,Street,City,Country\n${good}\n\nCountry,Name,City,Street\nAT,Wien,Wien,Graben 1\n`;
    expect(expectErrorBody(await upload(clientId, second, 'text/csv'), 400).message).toMatch(
      /^Line 2503 repeats the header with its columns in another order/,
    );
    // An overfull line stands over an invalid row above it, as when the whole file was read first.
    const overfull = `Name,Street,City,Country,Phone\nBad phone,1 Main St,Berlin,DE,12\n${good.replace(/DE/g, 'DE,')}\nX,2 Main St,Bonn,DE,,extra\n`;
    expect(expectErrorBody(await upload(clientId, overfull, 'text/csv'), 400).message).toMatch(
      /^Line 2503 of the file has more values than the header has columns \(5\)/,
    );
    expect(await locationsOf(clientId)).toEqual([]);
    // The same files' rows without the line that refuses them import whole.
    const fine = await upload(clientId, `Name,Street,City,Country\n${good}\n`, 'text/csv');
    expect(fine.statusCode, fine.body).toBe(201);
    expect(fine.json()).toMatchObject({ count: 2_500 });
  });

  it('an invalid row answers 400 naming its sheet row', async () => {
    const clientId = await t.createClient(admin, 'Bad row client');
    const csv = 'Name,Latitude,Longitude\nGood,10,20\nBad,"91\n",20\nAlso bad,200,20\n';
    const body = expectErrorBody(await upload(clientId, csv, 'text/csv'), 400);
    expect(body.details!.map((detail) => (detail as { line?: number }).line)).toEqual([3, 4]);
    expect(await locationsOf(clientId)).toEqual([]);
  });
});

describe("Excel's leading zeros on store codes", () => {
  /** A client whose locations have these codes, as a first import stored them. */
  async function clientWithCodes(name: string, codes: string[]): Promise<string> {
    const clientId = await t.createClient(admin, name);
    const rows = codes.map((code) => `${code},Shop ${code},1 Main St,Springfield,IL,62701,US`).join('\n');
    const csv = `Store code,Name,Address,City,State,Postal code,Country\n${rows}\n`;
    expect((await upload(clientId, csv, 'text/csv')).statusCode).toBe(201);
    return clientId;
  }
  const upsertDryRun = async (clientId: string, csv: string) =>
    (await upload(clientId, csv, 'text/csv', '&mode=upsert&dryRun=true')).json<{
      totals: Record<string, number>;
      rows: { action: string; store_code: string; store_code_given: string | null }[];
    }>();
  /** The same sheet after Excel: each code a number, its zeros gone. */
  const fromExcel = (codes: [stripped: string, name: string][]) =>
    'Store code,Name,Address,City,State,Postal code,Country\n' +
    codes.map(([code, name]) => `${code},Shop ${name},1 Main St,Springfield,IL,62701,US`).join('\n');

  it('a re-import whose codes lost their zeros matches the stored codes and changes nothing; the dry run gives the code read', async () => {
    const clientId = await clientWithCodes('Zeros', ['00123', '0042', 'B-7']);
    const csv = fromExcel([
      ['123', '00123'],
      ['42', '0042'],
      ['B-7', 'B-7'],
    ]);
    const dry = await upsertDryRun(clientId, csv);
    expect(dry.totals).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(dry.rows.map((row) => [row.action, row.store_code])).toEqual([
      ['unchanged', '00123'],
      ['unchanged', '0042'],
      ['unchanged', 'B-7'],
    ]);
    expect(dry.rows.map((row) => row.store_code_given)).toEqual(['123', '42', null]);
    const done = await upload(clientId, csv, 'text/csv', '&mode=update');
    expect(done.json()).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect((await locationsOf(clientId)).map((location) => location.store_code)).toEqual(['00123', '0042', 'B-7']);
  });

  it('a changed field beside a stripped code is updated, the code kept; create mode skips it as a duplicate', async () => {
    const clientId = await clientWithCodes('Zeros and a change', ['000951']);
    const csv = fromExcel([['951', 'renamed']]);
    expect((await upload(clientId, csv, 'text/csv', '&mode=upsert')).json()).toMatchObject({ created: 0, updated: 1 });
    expect(await locationsOf(clientId)).toMatchObject([{ name: 'Shop renamed', store_code: '000951' }]);
    const again = await upload(clientId, fromExcel([['951', 'again']]), 'text/csv', '&dryRun=true');
    expect(again.json()).toMatchObject({
      totals: { created: 0, skipped: 1 },
      rows: [{ action: 'skipped', duplicate_of: { reason: 'store_code' } }],
    });
  });

  it('two stored codes Excel would both save as 123 (0123, 00123): the row is a 400 naming both, nothing written (found by a probe)', async () => {
    const clientId = await clientWithCodes('Two codes, one number', ['00123', '0123']);
    const refused = expectErrorBody(await upload(clientId, fromExcel([['123', 'B']]), 'text/csv', '&mode=upsert'), 400);
    expect(refused.details).toEqual([
      expect.objectContaining({
        line: 2,
        field: 'store_code',
        message:
          'the store code "123" may be 00123 and 0123, which Excel would both save as 123: write the code with its zeros',
      }),
    ]);
    expect((await locationsOf(clientId)).map((location) => location.name)).toEqual(['Shop 00123', 'Shop 0123']);
  });

  it("a row of 123 and a row of 0123 both taking the stored 0123: a 400 naming both rows, not one's data on the other", async () => {
    const clientId = await clientWithCodes('Both rows claim it', ['0123']);
    for (const rows of [
      [
        ['123', 'A'],
        ['0123', 'B'],
      ],
      [
        ['0123', 'B'],
        ['123', 'A'],
      ],
    ] as [string, string][][]) {
      const refused = expectErrorBody(await upload(clientId, fromExcel(rows), 'text/csv', '&mode=upsert'), 400);
      expect(refused.details!.map((detail) => [(detail as { line?: number }).line, detail.field])).toEqual(
        expect.arrayContaining([
          [2, 'store_code'],
          [3, 'store_code'],
        ]),
      );
    }
    expect(await locationsOf(clientId)).toMatchObject([{ name: 'Shop 0123', store_code: '0123' }]);
  });

  it('a code without zeros never takes a location the same import created a piece earlier (found by a review)', async () => {
    const clientId = await clientWithCodes('Pieces', ['B-1']);
    // Row 1 creates 0123; row 1001, in the next piece of 1,000 rows, says 123: a location of its own.
    const rows = [
      ['0123', 'zero'],
      ...Array.from({ length: 999 }, (_, n) => [`F-${n}`, `filler ${n}`]),
      ['123', 'other'],
    ];
    const csv = fromExcel(rows as [string, string][]);
    const dry = await upsertDryRun(clientId, csv);
    expect(dry.totals).toMatchObject({ created: 1001, updated: 0 });
    const done = await upload(clientId, csv, 'text/csv', '&mode=upsert');
    expect(done.json()).toMatchObject({ created: 1001, updated: 0 });
    const stored = await locationsOf(clientId);
    expect(
      stored
        .filter((location) => ['0123', '123'].includes(location.store_code as string))
        .map((location) => [location.store_code, location.name]),
    ).toEqual([
      ['0123', 'Shop zero'],
      ['123', 'Shop other'],
    ]);
  });

  it('create with duplicates=keep names the stored code a stripped one is (the refusal said "123 is already used")', async () => {
    const clientId = await clientWithCodes('Keep duplicates', ['00123']);
    const refused = expectErrorBody(
      await upload(clientId, fromExcel([['123', 'again']]), 'text/csv', '&duplicates=keep'),
      400,
    );
    expect(refused.details![0]!.message).toMatch(
      /^the store code "123" is location [0-9a-f-]{36}'s 00123 without its zeros \(Excel drops them\): import with mode=upsert to update it$/,
    );
  });

  it('only zeros in front make one code: 1230, 01234, A12 and 0123 name no location of 0123 or 0A12 but their own', async () => {
    const clientId = await clientWithCodes('Not the same code', ['0123', '0A12', '1230']);
    const csv = fromExcel([
      ['1230', 'ten times'],
      ['01234', 'longer'],
      ['A12', 'letters'],
      ['12', 'shorter'],
    ]);
    const dry = await upsertDryRun(clientId, csv);
    expect(dry.rows.map((row) => [row.action, row.store_code])).toEqual([
      ['updated', '1230'],
      ['created', '01234'],
      ['created', 'A12'],
      ['created', '12'],
    ]);
  });
});

describe('POST /api/locations/upload with an .xlsx workbook', () => {
  async function workbook(): Promise<Buffer> {
    return (await writeXlsxFile([
      { sheet: 'Summary', data: [['Report'], ['made by hand']] },
      {
        sheet: 'Locations',
        data: [
          ['Store code', 'Business name', 'Postal code', 'Labels', 'Opening date'],
          [
            '00042',
            'Acme Boston',
            '02108',
            '12345678901234567890',
            { value: new Date('2024-03-01T00:00:00Z'), format: 'yyyy-mm-dd' },
          ],
          ['00043', 'Acme Salem', '01970', null, null],
        ],
      },
    ]).toBuffer()) as Buffer;
  }

  it("reads a client's workbook as Excel shows it: the first shown sheet, a merged city in each row, a broken formula refused", async () => {
    const clientId = await t.createClient(admin, 'Excel as shown');
    const dry = await upload(clientId, await clientWorkbook('+1 617 555 0100'), XLSX, '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    const preview = dry.json<{
      rows: { name: string; city: string | null }[];
      errors: { line: number; field: string; message: string }[];
    }>();
    expect(preview.rows.map((row) => [row.name, row.city])).toEqual([
      ['Back Bay', 'Boston'],
      ['Beacon Hill', 'Boston'],
    ]);
    expect(preview.errors).toEqual([
      expect.objectContaining({
        line: 3,
        field: 'phone',
        message: '"#REF!" is an Excel formula\'s error: fix the formula in the sheet, or clear the cell',
      }),
    ]);
    // The hidden sheet is still there to name.
    const stale = await upload(clientId, await clientWorkbook('+1 617 555 0100'), XLSX, '&dryRun=true&sheet=Old');
    expect(stale.json<{ rows: { name: string }[] }>().rows.map((row) => row.name)).toEqual(['Stale Shop']);
  });

  it("an upload template's instructions sheet is passed over for its Locations sheet; a hidden column loses to a shown one", async () => {
    const clientId = await t.createClient(admin, 'Template workbook');
    const dry = await upload(clientId, await templateWorkbook(), XLSX, '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    const preview = dry.json<{
      columns: { header: string; field: string | null }[];
      rows: { name: string; store_code: string; phone: string | null }[];
    }>();
    expect(preview.rows.map((row) => [row.store_code, row.name, row.phone])).toEqual([
      ['1001', 'Harbor Books', '+16175550199'],
      ['1002', 'Harbor Books Cambridge', '+16175550288'],
    ]);
    expect(preview.columns.filter((column) => column.field === 'phone').map((column) => column.header)).toEqual([
      'Main Phone',
    ]);
    expect(dry.json()).toMatchObject({ sheet: 'Locations' });
    // Named, the instructions are read as asked: a table without a column that can be a location's name.
    const named = await upload(clientId, await templateWorkbook(), XLSX, '&dryRun=true&sheet=Instructions');
    expect(expectErrorBody(named, 400).message).toMatch(
      /^No column can be the name of a location \(its headers: "Bulk location upload template"/,
    );
  });

  it('two sheets of locations (a sheet a country) are a 400 naming both; named, one is read and the answer says which', async () => {
    const clientId = await t.createClient(admin, 'Two countries');
    const table = (rows: string[][]) => [['Filialnummer', 'Name', 'Ort', 'Land'], ...rows];
    const file = (await writeXlsxFile([
      { sheet: 'Hinweise', data: [['Bitte nicht ändern']] },
      {
        sheet: 'DE',
        // A title above the header is no row of the table.
        data: [
          ['Filialen Deutschland', null, null, null],
          ...table([
            ['1', 'Berlin Mitte', 'Berlin', 'DE'],
            ['2', 'Köln Dom', 'Köln', 'DE'],
          ]),
        ],
      },
      { sheet: 'AT', data: table([['3', 'Wien Graben', 'Wien', 'AT']]) },
    ]).toBuffer()) as Buffer;
    const refused = expectErrorBody(await upload(clientId, file, XLSX), 400);
    expect(refused.message).toBe(
      'The workbook has 2 sheets of locations, "DE" (2 rows), "AT" (1 row): name the one to import with ?sheet=',
    );
    expect(await locationsOf(clientId)).toEqual([]);
    // Excel's sheet names are one in any case.
    const austria = await upload(clientId, file, XLSX, '&sheet=at');
    expect(austria.statusCode, austria.body).toBe(201);
    expect(austria.json()).toMatchObject({ sheet: 'AT', count: 1 });
  });

  it('a number in a zero-padding format is read as Excel shows it: 123 in "00000" is 00123 (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Zero formats');
    const padded = (value: number, format: string) => ({ value, type: Number, format });
    const file = (await writeXlsxFile([
      [
        { value: 'Store code' },
        { value: 'Name' },
        { value: 'Postal code' },
        { value: 'Country' },
        { value: 'Latitude' },
      ],
      [padded(123, '00000'), { value: 'Harbor Books' }, padded(2116, '00000'), { value: 'US' }, padded(42.5, '0.00')],
      [padded(7, '000'), { value: 'Harbor Annex' }, padded(2116, '00000'), { value: 'US' }, padded(42, '0')],
    ]).toBuffer()) as Buffer;
    const dry = await upload(clientId, file, XLSX, '&dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(
      dry
        .json<{ rows: { store_code: string; zip: string; latitude: number }[] }>()
        .rows.map((row) => [row.store_code, row.zip, row.latitude]),
    ).toEqual([
      ['00123', '02116', 42.5],
      ['007', '02116', 42],
    ]);
  });

  it('a chart sheet (no cells) is passed over; named, it is an empty sheet: a 400, never a 500 (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Chart sheet');
    const file = await workbookWithChartSheet();
    const read = await upload(clientId, file, XLSX, '&dryRun=true');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ count: 1, rows: [{ name: 'Harbor Books' }] });
    const chart = expectErrorBody(await upload(clientId, file, XLSX, '&sheet=Chart1'), 400);
    expect(chart.message).toMatch(/empty/);
  });

  it('reads the sheet named, text kept as text (leading zeros); by default the first table of locations', async () => {
    const clientId = await t.createClient(admin, 'Excel client');
    const file = await workbook();
    const named = await upload(clientId, file, XLSX, '&sheet=Summary');
    expect(named.statusCode).toBe(400);
    expect(named.json().message).toMatch(/No column can be the name/);
    expect((await upload(clientId, file, XLSX, '&dryRun=true')).json()).toMatchObject({ count: 2 });
    const response = await upload(clientId, file, XLSX, '&sheet=Locations');
    expect(response.statusCode, response.body).toBe(201);
    const stored = await locationsOf(clientId);
    expect(stored.map((location) => [location.store_code, location.zip])).toEqual([
      ['00042', '02108'],
      ['00043', '01970'],
    ]);
    // A 20-digit text cell stays as it is, never rounded to a double.
    expect(stored[0]!.labels).toEqual(['12345678901234567890']);
    expect(response.json().columns[4]).toEqual({ header: 'Opening date', field: null, matched_by: null, score: 0 });
  });

  it('a title above a header with no name column the rules know is passed over too: the 400 says which column to name', async () => {
    const clientId = await t.createClient(admin, 'Title over Bakery');
    const csv =
      'Bluebird bakeries – March 2026\nBakery,Street,City,State,ZIP\nBack Bay,120 Newbury St,Boston,MA,02116\n';
    const response = await upload(clientId, csv, 'text/csv', '&dryRun=true');
    const body = expectErrorBody(response, 400);
    expect(body.message).toMatch(/name/i);
    expect(body.message).toMatch(/Bakery/);
  });

  it('a title (a merged cell) and a blank row above the header are left out; lines stay the sheet rows', async () => {
    const clientId = await t.createClient(admin, 'Titled workbook client');
    const file = (await writeXlsxFile([
      [{ value: 'Bluebird Coffee: store list (Q4 2026)', columnSpan: 3 }, null, null],
      [null, null, null],
      ['Store code', 'Business name', 'Phone'],
      ['B-1', 'Bluebird Back Bay', '+1 617 555 0101'],
      ['B-2', 'Bluebird Cambridge', '+1 617'],
    ]).toBuffer()) as Buffer;
    const body = expectErrorBody(await upload(clientId, file, XLSX), 400);
    expect(body.details).toEqual([expect.objectContaining({ line: 5, field: 'phone' })]);
    const csv = 'Store list\n\nStore code,Business name\nB-1,Bluebird Back Bay\n';
    const response = await upload(clientId, csv, 'text/csv', '&dryRun=true');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().columns.map((column: { field: string }) => column.field)).toEqual(['store_code', 'name']);
  });

  it('a group row over the header (merged Location | Address | Contact) is left out, never imported (found by a probe)', async () => {
    const clientId = await t.createClient(admin, 'Grouped header client');
    const file = (await writeXlsxFile([
      ['Location', null, 'Address', null, 'Contact'],
      ['Store code', 'Name', 'Street', 'City', 'Phone'],
      ['LON-1', 'Bluebird Soho', '1 Dean St', 'London', '020 7946 0000'],
    ]).toBuffer()) as Buffer;
    const response = await upload(clientId, file, XLSX, '&dryRun=true');
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<{ rows: { name: string; line: number }[]; columns: { field: string | null }[] }>();
    expect(preview.columns.map((column) => column.field)).toEqual(['store_code', 'name', 'address', 'city', 'phone']);
    expect(preview.rows.map((row) => row.name)).toEqual(['Bluebird Soho']);
  });

  it('postal codes Excel stored as numbers get their leading zeros back, by the country’s format', async () => {
    const clientId = await t.createClient(admin, 'Number zips client');
    const file = (await writeXlsxFile([
      ['Business name', 'Postal code', 'Country'],
      ['Bluebird Back Bay', 2116, 'US'],
      ['Bluebird San Juan', 901, 'US'],
      ['Bäckerei Prag', 1069, 'DE'],
      ['Acme Wien', 1070, 'AT'],
      ['Acme Leeds', 'LS1 6HD', 'GB'],
      ['Bluebird Typo', 21, 'US'],
      ['Bluebird Nowhere', 2116, null],
    ]).toBuffer()) as Buffer;
    const response = await upload(clientId, file, XLSX);
    expect(response.statusCode, response.body).toBe(201);
    expect((await locationsOf(clientId)).map((location) => location.zip)).toEqual([
      '02116',
      '00901',
      '01069',
      '1070',
      'LS1 6HD',
      '21',
      '2116',
    ]);
  });

  it('a wrong sheet is a 400 naming the sheets; an .xls is a 415 saying what to do', async () => {
    const clientId = await t.createClient(admin, 'Excel client 2');
    const wrong = expectErrorBody(await upload(clientId, await workbook(), XLSX, '&sheet=Nope'), 400);
    expect(wrong.message).toContain('"Summary", "Locations"');
    const xls = expectErrorBody(
      await upload(
        clientId,
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
        'application/vnd.ms-excel',
      ),
      415,
    );
    expect(xls.message).toMatch(/\.xlsx/);
    // Windows names a .csv file's type application/vnd.ms-excel (a probe's script sent it so): a CSV is read.
    const csv = await upload(clientId, 'Name,City\nWindows Shop,Austin\n', 'application/vnd.ms-excel; charset=utf-8');
    expect(csv.statusCode, csv.body).toBe(201);
    expect(csv.json()).toMatchObject({ count: 1, locations: [{ name: 'Windows Shop', city: 'Austin' }] });
    const garbage = expectErrorBody(await upload(clientId, Buffer.from('not a zip at all'), XLSX), 400);
    expect(garbage.message).toMatch(/not an \.xlsx workbook/);
  });
});

describe('unhappy CSV uploads get a clear JSON error', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await t.createClient(admin, 'Unhappy client');
  });

  it.each([
    ['an empty body', '', /empty/],
    ['only a header', 'Name,City\n', null],
    ['no column that can be the name', 'Foo,Bar\n1,2\n', /No column can be the name/],
    ['binary garbage', Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10, 0x00]), /not text/],
    ['an .xlsx sent as text/csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]), /Excel workbook/],
    ['an unclosed quote', 'Name,City\n"Acme,Berlin\n', /^Line 2: a quoted value is never closed/],
    // Papaparse reports both of these as an unclosed quote and as text after a closing quote, at one field.
    [
      'text after a closing quote, no quote after it in the file',
      'Name,Address\n"Best" Pizza in Town,2 Main St\nSecond,3 Main St\n',
      /^Line 2: a value has text after its closing quote/,
    ],
    [
      'an unclosed quote, a stray quote on a later line',
      'Name,Address\n"Best Pizza,2 Main St\nSecond "Shop" Street,3 Main St\n',
      /^Line 2: a quoted value is never closed .*; nothing was imported$/,
    ],
    // Found by a probe: the row after it was joined into this one's name, and a location lost.
    [
      'text after a closing quote',
      'Name,Address,City\nJoe\'s 12" Pizza,1 Main St,Austin\n"Best" Pizza in Town,2 Main St,Austin\n"Tony\'s, ""The"" Original",3 Main St,Austin\n',
      /^Line 3: a value has text after its closing quote/,
    ],
    ['an unknown charset', 'Name\nA\n', /character set/],
    [
      'UTF-16 with a lone surrogate',
      Buffer.from([
        0xff,
        0xfe,
        ...Buffer.from('name,city\nShop', 'utf16le'),
        0x00,
        0xd8,
        ...Buffer.from(',Town\n', 'utf16le'),
      ]),
      /not valid UTF-16LE, as its byte order mark says/,
    ],
    [
      'UTF-16 with an odd last byte',
      Buffer.from([0xff, 0xfe, ...Buffer.from('name\nShop\n', 'utf16le'), 0x41]),
      /UTF-16LE/,
    ],
    [
      'a value holding the separator unquoted (every value after it moves)',
      'Name;City;Hours\nBäckerei Kraft;Köln;Mo-Fr 8-16 Uhr; Sa 8-12\nB;C;Mo-Fr 9-17\n',
      /^Line 2 of the file has more values than the header has columns \(3\): a value may hold the separator without quotes/,
    ],
    [
      'a value holding the separator unquoted in a row whose last column is blank',
      'Name;Hours;City;State;Labels\nBäckerei Kraft;Mo-Fr 8-16 Uhr; Sa 8-12;Köln;NRW;\nB;Mo-Fr 9-17;Bonn;NRW;\nC;;Aachen;NRW;\n',
      /^Line 2 of the file has more values than the header has columns \(5\)/,
    ],
    [
      'UTF-8 with a stray byte after its mark',
      Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('name\nB'), 0xff]),
      /^Line 2 holds a byte that is not UTF-8, though the file starts with UTF-8's byte order mark/,
    ],
    // A walk: Excel's "CSV UTF-8" with one line pasted from a Windows-1252 file was refused with no line.
    [
      "Excel's CSV UTF-8 with a Windows-1252 é on line 3",
      Buffer.from([
        0xef,
        0xbb,
        0xbf,
        ...Buffer.from('Name,City\r\nBäckerei,Köln\r\nCaf', 'utf8'),
        0xe9,
        ...Buffer.from(',Paris\r\n'),
      ]),
      /^Line 3 holds a byte that is not UTF-8, .*Type that line's accented letters and signs again/,
    ],
  ])('%s -> 400', async (_, body, words) => {
    const type = words?.source === 'character set' ? 'text/csv; charset=x-klingon' : 'text/csv';
    const response = await upload(clientId, body, type);
    if (words === null) {
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ count: 0, columns: [{ field: 'name' }, { field: 'city' }] });
      return;
    }
    expect(expectErrorBody(response, 400).message).toMatch(words);
  });

  // A probe: "name,city,city" imported Boston and dropped Chicago without a word; "phone,Phone" alike.
  it('two columns of one header that differ are a 400 naming both and the lines; that agree, or a blank twin, import', async () => {
    // A client of its own: the others of this block must stay empty.
    const clientId = await t.createClient(admin, 'Twin columns');
    const refused = await upload(
      clientId,
      'name,city,city\nA,Boston,Chicago\nB,Leeds,\nC,York,York\nD,Bath,Wells\n',
      'text/csv',
    );
    expect(expectErrorBody(refused, 400).message).toBe(
      'Columns 2 and 3 are both "city", and they differ on lines 2, 5 (line 2: "Boston" and "Chicago"): a field takes one column, and the other would be left out. Delete or rename one of them; nothing was imported.',
    );
    const phones = await upload(
      clientId,
      'Name,phone,Phone,Country\nA,+1 206 555 0100,+1 206 555 0199,US\n',
      'text/csv',
    );
    expect(expectErrorBody(phones, 400).message).toMatch(
      /^Columns 2 and 3 are both "phone", and they differ on line 2 /,
    );
    expect(await locationsOf(clientId)).toEqual([]);
    const agreeing = await upload(clientId, 'name,city,City\nA,Boston,Boston\nB,Leeds,\n', 'text/csv');
    expect(agreeing.statusCode, agreeing.body).toBe(201);
    expect(agreeing.json()).toMatchObject({
      count: 2,
      columns: [{ field: 'name' }, { field: 'city' }, { field: null }],
    });
  });

  it('no clientId -> 400; another content type -> 415; too big -> 413; a viewer -> 403', async () => {
    const noClient = await t.app.inject({
      method: 'POST',
      url: '/api/locations/upload',
      headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: 'Name\nA\n',
    });
    expect(expectErrorBody(noClient, 400).message).toMatch(/clientId/);
    expectErrorBody(await upload(clientId, 'Name\nA\n', 'text/html'), 415);
    const big = `Name\n${'x'.repeat(1000)}\n`.repeat(34 * 1024);
    expectErrorBody(await upload(clientId, big, 'text/csv'), 413);
    expectErrorBody(await upload(clientId, 'Name\nA\n', 'text/csv', '', viewer), 403);
    // A CSV has no sheets: ?sheet= is refused, not ignored, as on JSON rows (a probe).
    expect(expectErrorBody(await upload(clientId, 'Name\nA\n', 'text/csv', '&sheet=Sheet1'), 400).message).toBe(
      '?sheet= names a sheet of an .xlsx workbook; a CSV file has none: leave it out',
    );
    expect(await locationsOf(clientId)).toEqual([]);
  });
});

describe('hostile files are refused before they are built in memory', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await t.createClient(admin, 'Hostile files');
  });

  it('a CSV of millions of tiny cells -> 413 naming the limit; one row of thousands of cells -> 413', async () => {
    const manyCells = `Name\n${'a,'.repeat(3_000_000)}a\n`;
    const perRow = ',b'.repeat(1_999);
    const many = `Name${perRow}\n${`a${perRow}\n`.repeat(2_600)}`;
    expect(expectErrorBody(await upload(clientId, many, 'text/csv'), 413).message).toMatch(/5,000,000 cells/);
    expect(expectErrorBody(await upload(clientId, manyCells, 'text/csv'), 413).message).toMatch(
      /more than 2,000 cells/,
    );
    expect(await locationsOf(clientId)).toEqual([]);
  });

  it('more than 100,000 rows -> 413 counting rows; empty lines below the data are no rows (found by a probe)', async () => {
    // A client of its own: the others of this block must stay empty.
    const clientId = await t.createClient(admin, 'Blank lines below');
    const trailing = `Name,City\nA,Boston\n${'\n'.repeat(60_000)}${',\n'.repeat(60_000)}`;
    const answer = await upload(clientId, trailing, 'text/csv');
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ count: 1 });
    const rows = `Name\n${'a\n\n'.repeat(100_001)}`;
    expect(expectErrorBody(await upload(clientId, rows, 'text/csv'), 413).message).toBe(
      'An import takes at most 100000 rows; this file has 100001. Send it in parts.',
    );
    expect(await locationsOf(clientId)).toEqual([expect.objectContaining({ name: 'A' })]);
  });

  it('an .xlsx with a value on line 1,048,576 or 1,000,000, or far right -> 413 naming the cell, before its rows are made (found by a probe)', async () => {
    // Each was a 500 after two seconds: the workbook reader made a million empty rows, out of memory.
    for (const line of [1_048_576, 1_000_000]) {
      const far = await editedWorkbook([['Name', 'City']], (xml) =>
        xml.replace(
          '</sheetData>',
          `<row r="${line}">${inline(`A${line}`, 'Shop')}${inline(`B${line}`, 'Paris')}</row>$&`,
        ),
      );
      expect(expectErrorBody(await upload(clientId, far, XLSX), 413).message).toBe(
        `Sheet "Sheet1" has a value on line ${line.toLocaleString('en-US')} (cell A${line}), far below its other rows: an import reads a sheet down to line 200,000 (100,000 rows, with blank rows between them). Delete that cell, or the rows below the table, and save the workbook again; nothing was imported.`,
      );
    }
    // A stray cell in Excel's last column beside 400 rows: 16,384 columns of each, 6.5 million cells.
    const rows = Array.from({ length: 400 }, (_, row) => [`Shop ${row}`, 'Paris']);
    const wide = await editedWorkbook([['Name', 'City'], ...rows], (xml) =>
      xml.replace('</row><row r="3">', `${inline('XFD2', 'note')}$&`),
    );
    expect(expectErrorBody(await upload(clientId, wide, XLSX), 413).message).toMatch(
      /^Sheet "Sheet1" has a value in column XFD \(cell XFD2\): read with its 401 lines, that is 6,569,984 cells, more than an import reads \(5,000,000\)\. If that cell is a stray beside the table, delete it/,
    );
    expect(await locationsOf(clientId)).toEqual([]);
  });

  it('a sheet named with ?sheet= is read alone: another sheet reaching too far refuses only a read of every sheet', async () => {
    const clientId = await t.createClient(admin, 'Far in another sheet');
    const file = await editedWorkbook(
      [['Notes'], ['old list']],
      (xml) => xml.replace('</sheetData>', `<row r="1048576">${inline('A1048576', 'stray')}</row>$&`),
      [
        {
          sheet: 'Locations',
          data: [
            ['Name', 'City'],
            ['Harbor Books', 'Boston'],
          ],
        },
      ],
    );
    expect(expectErrorBody(await upload(clientId, file, XLSX), 413).message).toMatch(
      /^Sheet "Sheet1" has a value on line 1,048,576/,
    );
    const named = await upload(clientId, file, XLSX, '&sheet=locations');
    expect(named.statusCode, named.body).toBe(201);
    expect((await locationsOf(clientId)).map((location) => [location.name, location.city])).toEqual([
      ['Harbor Books', 'Boston'],
    ]);
    // The far sheet itself, named, is refused as before.
    expect(expectErrorBody(await upload(clientId, file, XLSX, '&sheet=Sheet1'), 413).message).toMatch(/line 1,048,576/);
  });

  it("a sheet's used range past its data is no rows or columns: a formatted row on line 1,048,576, a stray cell in XFD2", async () => {
    const clientId = await t.createClient(admin, 'Used range');
    const table = [
      ['Name', 'City'],
      ['Shop', 'Paris'],
    ];
    // As Excel writes them: a row with a format alone far below, an empty cell of a format, a note in XFD2.
    const file = await editedWorkbook(table, (xml) =>
      xml.replace(
        '</row></sheetData>',
        `${inline('XFD2', 'note')}</row><row r="1048576" s="1" customFormat="1"><c r="B1048576" s="1"/></row></sheetData>`,
      ),
    );
    const answer = await upload(clientId, file, XLSX, '&dryRun=true');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ count: 1, rows: [{ name: 'Shop', city: 'Paris' }], left_out: [] });
    // Was 16,384 columns, all but two with no header.
    expect(answer.json().columns).toEqual([
      { header: 'Name', field: 'name', matched_by: 'name', score: 1 },
      { header: 'City', field: 'city', matched_by: 'name', score: 1 },
    ]);
    // A value on line 150,000 is within what an import reads, and read on its line.
    const below = await editedWorkbook(table, (xml) =>
      xml.replace('</sheetData>', `<row r="150000">${inline('A150000', 'Far Shop')}</row>$&`),
    );
    const read = await upload(clientId, below, XLSX, '&dryRun=true');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ count: 1, left_out: [{ line: 150_000, reason: 'only a name, nothing else' }] });
  });

  it('an .xlsx zip bomb (a sheet that unzips to 200 MiB) -> 413, nothing written', async () => {
    const bomb = await zipBomb(200 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(expectErrorBody(await upload(clientId, bomb, XLSX), 413).message).toMatch(/unzips to more than 64 MiB/);
    expect(await locationsOf(clientId)).toEqual([]);
  });
});

/** A workbook whose sheet XML is `bytes` long once unzipped: a real .xlsx with padding in its sheet. */
function zipBomb(bytes: number): Promise<Buffer> {
  const padding = ' '.repeat(bytes);
  return editedWorkbook([['Name'], ['Bomb']], (xml) => xml.replace('<sheetData>', `${padding}<sheetData>`));
}
