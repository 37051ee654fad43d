import { readFileSync } from 'node:fs';

/**
 * Files shaped like the exports agencies are sent (issue 12), warts included: placeholders, a quoted line
 * break, a repeated header, totals rows, a country written "England", legacy encodings. Each is bytes as
 * the file would be on disk; the dashboard and the `text/csv` endpoint must read them alike.
 */
export interface RealWorldFile {
  name: string;
  bytes: Uint8Array;
  /** The real locations the file holds (its junk rows left out). */
  locations: number;
}

export const YEXT_CSV = [
  'Entity ID,Name,Address > Line 1,Address > Line 2,Address > City,Address > Region,Address > Postal Code,Address > Country Code,Main Phone,Website URL > URL',
  'LDN-1,Bluebird Soho,12 Old Compton St,"Unit 2\nback entrance",London,N/A,W1D 4TQ,England,+44 20 7946 0001,https://bluebird.example/soho',
  'LDN-2,Bluebird Camden,3 Parkway,,London,n/a,NW1 7PG,GB,020 7946 0002,N/A',
  'Entity ID,Name,Address > Line 1,Address > Line 2,Address > City,Address > Region,Address > Postal Code,Address > Country Code,Main Phone,Website URL > URL',
  'LDN-3,Bluebird Brixton,,,London,,SW2 1RW,GB,#N/A,-',
  'Total,,,,,,,,,',
  'TOTAL LOCATIONS: 46,,,,,,,,,',
  '',
].join('\r\n');

export function utf16le(text: string): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

/** Windows-1252 for the Latin-1 range these files use. */
export function windows1252(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

export const REAL_WORLD_FILES: RealWorldFile[] = [
  { name: 'yext-export.csv', bytes: utf8(YEXT_CSV), locations: 3 },
  // A Yext export with its Closed column: Yes, No, blank, TRUE, 0, N/A, " yes ", false.
  {
    name: 'yext-closed.csv',
    bytes: new Uint8Array(readFileSync(new URL('../fixtures/csv/yext-closed.csv', import.meta.url))),
    locations: 8,
  },
  // A GBP bulk sheet from Excel's "CSV (semicolon)": Windows-1252, a title above the header, decimal commas
  // in every row, a quoted semicolon, a bare comma in an address, N/A, "x" for a closed Sunday.
  {
    name: 'gbp-bulk-upload-eu.csv',
    bytes: new Uint8Array(readFileSync(new URL('../fixtures/csv/gbp-bulk-upload-eu.csv', import.meta.url))),
    locations: 20,
  },
  {
    name: 'filialen-unicode.txt',
    bytes: utf16le(
      'Filiale\tStraße\tHausnummer\tPLZ\tOrt\tBundesland\tLand\tTelefon\r\n' +
        'Bäckerei Prag\tPrager Straße\t90a\t01069\tDresden\tSachsen\tDeutschland\t0351 4960000\r\n' +
        'Bäckerei Neustadt\tKönigsbrücker Str.\t12\t01099\tDresden\tSachsen\tDeutschland\t-\r\n',
    ),
    locations: 2,
  },
  {
    name: 'magasins.csv',
    bytes: windows1252(
      'Nom;Adresse;Complément;Code postal;Ville;Pays;Latitude;Longitude\r\n' +
        'Café Rivoli;12 rue de Rivoli;Bâtiment B;75004;Paris;France;48,8556;2,3522\r\n' +
        'Café Lyon;3 place Bellecour;;69002;Lyon;France;45,7578;4,8320\r\n',
    ),
    locations: 2,
  },
  {
    // German Excel: a title and a blank line above the header, a totals row under the locations.
    name: 'filialliste.csv',
    bytes: windows1252(
      'Filialliste Bluebird GmbH - Stand 01.11.2026;;;;;;\r\n' +
        ';;;;;;\r\n' +
        'Filiale;Straße;Hausnummer;PLZ;Ort;Land;Telefon\r\n' +
        'Bluebird Mitte;Friedrichstraße;123;10117;Berlin;Deutschland;030 1234567\r\n' +
        'Bluebird München;Kaufingerstraße;9;80331;München;Deutschland;089 2323230\r\n' +
        'Gesamt: 2 Filialen;;;;;;\r\n',
    ),
    locations: 2,
  },
  {
    name: 'brightlocal.csv',
    bytes: utf8(
      'Location Name,Location Reference,Address 1,Address 2,City,State/County,Postcode/ZIP,Country,Telephone,Website URL\n' +
        'Acme Leeds,AC-7,1 Briggate,Floor 2,Leeds,West Yorkshire,LS1 6HD,United Kingdom,0113 496 0000,acme.example\n' +
        'Acme York,AC-8,5 Stonegate,,York,North Yorkshire,YO1 8AW,Scotland,TBD,none\n',
    ),
    locations: 2,
  },
  {
    name: 'uberall.csv',
    bytes: utf8(
      'identifier;name;street;streetNo;addressExtra;zip;city;province;country;phone;status\n' +
        'U-1;Acme Wien;Mariahilfer Straße;12;Top 3;1070;Wien;Wien;AT;+43 1 5350000;INACTIVE\n' +
        'U-2;Acme Graz;Herrengasse;3;;8010;Graz;Steiermark;AT;+43 316 80750;ACTIVE\n',
    ),
    locations: 2,
  },
];

/**
 * A client's workbook as a probe found them (stop 28), for the server's and the dashboard's readers alike:
 * a stale sheet "Old" kept first and hidden; on "Locations", a city merged down two rows (B2:B3) and the
 * second row's phone a formula that broke (#REF!). `firstPhone` is the first row's phone.
 */
export async function clientWorkbook(firstPhone: string): Promise<Buffer> {
  const { unzipSync, zipSync, strToU8, strFromU8 } = await import('fflate');
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const real = (await writeXlsxFile([
    { sheet: 'Old', data: [['Name'], ['Stale Shop']] },
    {
      sheet: 'Locations',
      data: [
        ['Name', 'City', 'Phone'],
        ['Back Bay', 'Boston', firstPhone],
        ['Beacon Hill', null, 'x'],
      ],
    },
  ]).toBuffer()) as Buffer;
  const parts = unzipSync(new Uint8Array(real));
  const edit = (name: string, change: (xml: string) => string) =>
    (parts[name] = strToU8(change(strFromU8(parts[name]!))));
  edit('xl/workbook.xml', (xml) => xml.replace('name="Old"', 'name="Old" state="hidden"'));
  edit('xl/worksheets/sheet2.xml', (xml) =>
    xml
      .replace(/<c r="C3" t="s"><v>\d+<\/v><\/c>/, '<c r="C3" t="e"><f>Contacts!B2</f><v>#REF!</v></c>')
      .replace('</sheetData>', '</sheetData><mergeCells count="1"><mergeCell ref="B2:B3"/></mergeCells>'),
  );
  // A view of the zip's own bytes: Buffer.from(bytes) would copy a small file into Node's shared pool.
  const zipped = zipSync(parts);
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}

/**
 * A workbook shaped like the upload templates Yext and Uberall send clients: a sheet of instructions
 * first (a title, steps, a table of fields and what they mean), then the Locations sheet, in which the
 * client kept an old Phone column hidden (column C) and added "Main Phone" at the end.
 */
export async function templateWorkbook(): Promise<Buffer> {
  const { unzipSync, zipSync, strToU8, strFromU8 } = await import('fflate');
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const real = (await writeXlsxFile([
    {
      sheet: 'Instructions',
      data: [
        ['Bulk location upload template'],
        ['1. Fill in one row per location on the Locations sheet. Do not rename the columns.'],
        ['2. Required fields are marked with *.'],
        ['Field', 'Description'],
        ['Name', 'The business name, as customers know it *'],
        ['Address', 'Street and number *'],
        ['Main Phone', 'The number customers call, with its area code'],
      ],
    },
    {
      sheet: 'Locations',
      data: [
        ['Store ID', 'Name', 'Phone', 'Address', 'City', 'State', 'ZIP', 'Country', 'Main Phone'],
        ['1001', 'Harbor Books', '(617) 555-0100', '12 Atlantic Ave', 'Boston', 'MA', '02110', 'US', '(617) 555-0199'],
        ['1002', 'Harbor Books Cambridge', '', '5 Brattle St', 'Cambridge', 'MA', '02138', 'US', '(617) 555-0288'],
      ],
    },
  ]).toBuffer()) as Buffer;
  const parts = unzipSync(new Uint8Array(real));
  const sheet = 'xl/worksheets/sheet2.xml';
  const xml = strFromU8(parts[sheet]!).replace(/<cols>.*?<\/cols>/, '');
  parts[sheet] = strToU8(
    xml.replace('<sheetData>', '<cols><col min="3" max="3" width="0" hidden="1"/></cols><sheetData>'),
  );
  const zipped = zipSync(parts);
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}

/** A workbook whose first sheet is a chart sheet (a chart moved to its own tab), then the data. */
export async function workbookWithChartSheet(): Promise<Buffer> {
  const { unzipSync, zipSync, strToU8, strFromU8 } = await import('fflate');
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const real = (await writeXlsxFile([
    {
      sheet: 'Data',
      data: [
        ['Store code', 'Name', 'City', 'Country'],
        ['1', 'Harbor Books', 'Boston', 'US'],
      ],
    },
  ]).toBuffer()) as Buffer;
  const parts = unzipSync(new Uint8Array(real));
  const edit = (name: string, change: (xml: string) => string) =>
    (parts[name] = strToU8(change(strFromU8(parts[name]!))));
  edit('xl/workbook.xml', (xml) => xml.replace('<sheets>', '<sheets><sheet name="Chart1" sheetId="9" r:id="rId9"/>'));
  edit('xl/_rels/workbook.xml.rels', (xml) =>
    xml.replace(
      '</Relationships>',
      '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>',
    ),
  );
  edit('[Content_Types].xml', (xml) =>
    xml.replace(
      '</Types>',
      '<Override PartName="/xl/chartsheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml"/></Types>',
    ),
  );
  parts['xl/chartsheets/sheet1.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"/></sheetViews></chartsheet>',
  );
  const zipped = zipSync(parts);
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}

/** A real .xlsx of `data` (write-excel-file) with its sheet's XML edited: what another writer puts in it. */
export async function editedWorkbook(
  data: string[][],
  edit: (xml: string) => string,
  more: { sheet: string; data: string[][] }[] = [],
): Promise<Buffer> {
  const { unzipSync, zipSync, strToU8, strFromU8 } = await import('fflate');
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const real = (await writeXlsxFile([{ sheet: 'Sheet1', data }, ...more]).toBuffer()) as Buffer;
  const parts = unzipSync(new Uint8Array(real));
  // The edit is Sheet1's (the first sheet's XML); the sheets in `more` stay as written.
  const sheet = Object.keys(parts)
    .filter((name) => name.startsWith('xl/worksheets/') && name.endsWith('.xml'))
    .sort()[0]!;
  parts[sheet] = strToU8(edit(strFromU8(parts[sheet]!)));
  return Buffer.from(zipSync(parts, { level: 9 }));
}

/** A cell of inline text, as a script's workbook writes it. */
export const inline = (reference: string, text: string) =>
  `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
