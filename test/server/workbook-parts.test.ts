import { strToU8, unzipSync, zipSync } from 'fflate';
import writeXlsxFile from 'write-excel-file/node';
import { xlsxCells } from '../../server/imports/xlsx-cells.js';
import { describe, expect, it } from 'vitest';
import { unzipUnder } from '../../server/imports/zip-parts.js';
import { ascii, isFactPart, offsetsOf, sheetStates, workbookParts } from '../../server/imports/workbook-facts.js';

/** Every offset of `pattern` in `text` from `from`, found one character at a time. */
function naiveOffsets(text: string, pattern: string, from = 0): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(pattern, from); at >= 0; at = text.indexOf(pattern, at + 1)) found.push(at);
  return found;
}

/** A sheet's XML of `rows` rows, some cells holding a formula's error, a merge list at its end. */
function sheetXml(rows: number): string {
  const body = Array.from({ length: rows }, (_, row) => {
    const error = row % 7 === 3 ? `<c r="C${row + 1}" t="e"><v>#REF!</v></c>` : '';
    return `<row r="${row + 1}" spans="1:3"><c r="A${row + 1}" t="s"><v>${row}</v></c><c r="B${row + 1}" s="2"><v>${row * 3}</v></c>${error}</row>`;
  }).join('');
  return `<worksheet><cols><col min="2" max="2" hidden="1"/></cols><sheetData>${body}</sheetData><mergeCells count="1"><mergeCell ref="D2:D4"/></mergeCells></worksheet>`;
}

describe('offsetsOf: a search from the rarest byte of the pattern', () => {
  const xml = sheetXml(400);
  const bytes = ascii(xml);
  it.each(['t="e"', '<mergeCells', '</mergeCells>', '<cols>', ' s="2"', '</c>', 'e"><v>#', 'A1'])(
    'finds every %s a plain search finds, in order',
    (pattern) => {
      const found = [...offsetsOf(bytes, ascii(pattern))];
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(naiveOffsets(xml, pattern));
    },
  );

  it('starts at `from`, and finds a pattern that ends the bytes or overlaps itself', () => {
    const from = xml.indexOf('<row r="200"');
    expect([...offsetsOf(bytes, ascii('t="e"'), from)]).toEqual(naiveOffsets(xml, 't="e"', from));
    expect([...offsetsOf(bytes, ascii('</worksheet>'))]).toEqual([xml.length - '</worksheet>'.length]);
    const repeated = ascii('aaaa');
    expect([...offsetsOf(repeated, ascii('aa'))]).toEqual([0, 1, 2]);
    expect([...offsetsOf(bytes, ascii('<nothing-of-this>'))]).toEqual([]);
  });
});

describe("a workbook's parts, unzipped once", () => {
  const files = {
    'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="Shops" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    'xl/worksheets/sheet1.xml': strToU8(sheetXml(50)),
    'xl/styles.xml': strToU8('<styleSheet/>'),
    'xl/sharedStrings.xml': strToU8('<sst/>'),
    'xl/media/image1.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
  };
  const zip = zipSync(files);

  it('the server (under its cap) and the dashboard keep the same parts, as fflate unzips them', () => {
    const wanted = unzipSync(zip, { filter: ({ name }) => isFactPart(name) });
    expect(Object.keys(wanted).sort()).toEqual([
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const server = unzipUnder(zip, isFactPart);
    expect(server).not.toBe('too big');
    for (const parts of [server as Record<string, Uint8Array>, workbookParts(zip)]) {
      expect(Object.keys(parts).sort()).toEqual(Object.keys(wanted).sort());
      for (const [name, part] of Object.entries(wanted))
        expect(Buffer.from(parts[name]!).equals(Buffer.from(part))).toBe(true);
    }
  });

  it('a zip that unzips past the cap is too big, whatever it declares; the dashboard finds no parts in no zip', () => {
    expect(unzipUnder(zip, isFactPart, 1024)).toBe('too big');
    // A part of 1 MiB of zeros deflates to about a kilobyte: the cap counts what it inflates to.
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(1024 * 1024) });
    expect(bomb.length).toBeLessThan(8 * 1024);
    expect(unzipUnder(bomb, isFactPart, 512 * 1024)).toBe('too big');
    expect(workbookParts(ascii('Name,City\nA,B\n'))).toEqual({});
  });
});

/**
 * The same zip with zip64's records, as some writers make every file: the end record's count and offset
 * full (0xFFFF, 0xFFFFFFFF), zip64's end record and locator before it, and each entry's local header
 * offset moved into a zip64 extra field.
 */
function asZip64(zip: Uint8Array): Buffer {
  const view = Buffer.from(zip);
  const end = view.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = view.readUInt16LE(end + 10);
  const offset = view.readUInt32LE(end + 16);
  const central: Buffer[] = [];
  for (let at = offset, left = entries; left > 0; left--) {
    const nameLength = view.readUInt16LE(at + 28);
    const extraLength = view.readUInt16LE(at + 30);
    const commentLength = view.readUInt16LE(at + 32);
    const head = Buffer.from(view.subarray(at, at + 46 + nameLength));
    const local = head.readUInt32LE(42);
    head.writeUInt32LE(0xffffffff, 42);
    head.writeUInt16LE(extraLength + 12, 30);
    const extra = Buffer.alloc(12);
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(BigInt(local), 4);
    const rest = view.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength + commentLength);
    central.push(head, extra, rest);
    at += 46 + nameLength + extraLength + commentLength;
  }
  const directory = Buffer.concat(central);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(directory.length), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const classic = Buffer.from(view.subarray(end, end + 22));
  classic.writeUInt16LE(0xffff, 8);
  classic.writeUInt16LE(0xffff, 10);
  classic.writeUInt32LE(0xffffffff, 12);
  classic.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([view.subarray(0, offset), directory, record, locator, classic]);
}

describe('odd zips the capped reader reads as fflate does (a review)', () => {
  it('zip64 records, stored entries: the same parts; a directory that cannot be walked is unreadable', () => {
    const files = {
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="Shops" r:id="rId1"/></sheets></workbook>'),
      'xl/worksheets/sheet1.xml': strToU8(sheetXml(20)),
    };
    for (const zip of [zipSync(files), zipSync(files, { level: 0 })]) {
      const wide = asZip64(zip);
      expect(Object.keys(unzipSync(wide)).sort()).toEqual(Object.keys(files).sort());
      const parts = unzipUnder(wide, isFactPart) as Record<string, Uint8Array>;
      expect(Object.keys(parts).sort()).toEqual(Object.keys(files).sort());
      expect(Buffer.from(parts['xl/worksheets/sheet1.xml']!).toString()).toBe(sheetXml(20));
    }
    const broken = Buffer.from(zipSync(files));
    // The end record points its directory past the file's end.
    broken.writeUInt32LE(broken.length + 100, broken.length - 6);
    expect(unzipUnder(broken, isFactPart)).toBe('unreadable');
    expect(unzipUnder(ascii('Name,City\nA,B\n'), isFactPart)).toBe('unreadable');
  });

  it('a sheet its links put in another folder is read by a second pass, by the dashboard too', () => {
    const zip = zipSync({
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="Shops" r:id="rId1"/></sheets></workbook>'),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="sheets/one.xml"/></Relationships>',
      ),
      'xl/sheets/one.xml': strToU8(sheetXml(5)),
      'xl/pivotCache/pivotCacheRecords1.xml': strToU8('<pivotCacheRecords/>'),
    });
    const parts = workbookParts(zip);
    expect(sheetStates(parts).map((state) => state.path)).toEqual(['xl/sheets/one.xml']);
    expect(Object.keys(parts).sort()).toEqual(['xl/_rels/workbook.xml.rels', 'xl/sheets/one.xml', 'xl/workbook.xml']);
  });

  it('an upload of a zip64 workbook reads its sheets by name, as the library does', async () => {
    const workbook = (await writeXlsxFile([
      { sheet: 'Notes', data: [['made by hand']] },
      {
        sheet: 'Shops',
        data: [
          ['Name', 'City'],
          ['Corner Shop', 'Leeds'],
        ],
      },
    ] as never).toBuffer()) as Buffer;
    const named = await xlsxCells(asZip64(workbook), 'Shops');
    expect(named).toMatchObject({
      sheet: 'Shops',
      cells: [
        ['Name', 'City'],
        ['Corner Shop', 'Leeds'],
      ],
    });
    expect(await xlsxCells(asZip64(workbook), undefined)).toMatchObject({ sheet: 'Shops' });
  });
});
