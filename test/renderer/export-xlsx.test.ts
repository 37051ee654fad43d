import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationRow } from '../../renderer/src/api/types.js';
import {
  EXPORT_COLUMNS,
  exportFileName,
  locationsXlsx,
  workbookCellText,
} from '../../renderer/src/export/locations-csv.js';
import type { TestApp } from '../helpers/app.js';
import { buildSignedInApp } from '../helpers/users.js';

/** The export as an Excel workbook: the CSV's columns, text cells, and the CSV's one formula rule. */
let t: TestApp;
let admin: string;
let rows: LocationRow[];

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
  } = await buildSignedInApp({ admin: 'admin' }));
  const clientId = await t.createClient(admin, 'Excel Export Co');
  const upload = [
    { name: 'Harbor Books', store_code: '00123', phone: '+1 206 555 0100', zip: '01234' },
    { name: '=HYPERLINK("http://evil.example","Click")', store_code: '-2+3', city: '@SUM(A1)' },
  ];
  const response = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin,
    body: { clientId, rows: upload },
  });
  expect(response.statusCode, response.body).toBe(201);
  const listed = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
  rows = listed.json<LocationRow[]>();
});
afterAll(() => t.close());

describe('export to Excel (.xlsx)', () => {
  it('holds the CSV columns as text cells: leading zeros kept, phones without a quote, formulas escaped', async () => {
    const blob = await locationsXlsx(rows);
    const [sheet] = await readXlsxFile(Buffer.from(await blob.arrayBuffer()));
    expect(sheet?.sheet).toBe('Locations');
    const [header, ...cells] = sheet!.data;
    expect(header).toEqual(EXPORT_COLUMNS.map(([name]) => name));
    const column = (name: string) => EXPORT_COLUMNS.findIndex(([header]) => header === name);
    const harbor = cells.find((row) => row[column('Name')] === 'Harbor Books')!;
    expect(harbor[column('Store code')]).toBe('00123');
    expect(harbor[column('Postal code')]).toBe('01234');
    // A text cell is never run: Excel showed the quote itself in front of every phone.
    expect(harbor[column('Phone')]).toBe('+12065550100');
    const evil = cells.find((row) => String(row[column('Name')]).includes('HYPERLINK'))!;
    expect(evil[column('Name')]).toBe('\'=HYPERLINK("http://evil.example","Click")');
    expect(evil[column('Store code')]).toBe('-2+3');
    expect(evil[column('City')]).toBe("'@SUM(A1)");
  });

  it.each([
    ['+12065550100', '+12065550100'],
    ['+1 (206) 555-0100', '+1 (206) 555-0100'],
    ['-05', '-05'],
    ['-122.3422', '-122.3422'],
    ['=1+1', "'=1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['-2+A1', "'-2+A1"],
    ['\t=HYPERLINK("http://evil.example")', '\'\t=HYPERLINK("http://evil.example")'],
    ['Harbor Books', 'Harbor Books'],
  ])('escapes %j in a workbook cell only where retyping it could call something: %j', (text, cell) => {
    expect(workbookCellText(text)).toBe(cell);
  });

  it('is named like the CSV, with its own extension', () => {
    expect(exportFileName('Café & Co', new Date('2026-05-03T12:00:00Z'), 'xlsx')).toBe(
      'Café-Co-locations-2026-05-03.xlsx',
    );
  });
});
