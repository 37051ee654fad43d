import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzipUnder } from '../../server/imports/zip-parts.js';
import { ascii, isFactPart, offsetsOf, workbookParts } from '../../server/imports/workbook-facts.js';

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

  it('a zip that unzips past the cap is too big, whatever it declares; one that is no zip has no parts', () => {
    expect(unzipUnder(zip, isFactPart, 1024)).toBe('too big');
    // A part of 1 MiB of zeros deflates to about a kilobyte: the cap counts what it inflates to.
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(1024 * 1024) });
    expect(bomb.length).toBeLessThan(8 * 1024);
    expect(unzipUnder(bomb, isFactPart, 512 * 1024)).toBe('too big');
    expect(unzipUnder(ascii('Name,City\nA,B\n'), isFactPart)).toEqual({});
    expect(workbookParts(ascii('Name,City\nA,B\n'))).toEqual({});
  });
});
