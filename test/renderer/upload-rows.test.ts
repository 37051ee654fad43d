import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from '../../renderer/src/import/header-mapping.js';
import {
  cellValue,
  planRequests,
  rowValueText,
  uploadBody,
  uploadRowOf,
  utf8Length,
} from '../../renderer/src/import/upload-rows.js';

describe('uploadRowOf', () => {
  it('sends the mapped fields only, joins address columns with ", " and leaves empty values out', () => {
    const mapping = [null, 'name', 'address', 'address', 'city', 'zip'] as const;
    expect(uploadRowOf(['S-1', 'Café', '1 Main St', ' Suite 2 ', '', '  '], [...mapping])).toEqual({
      name: 'Café',
      address: '1 Main St, Suite 2',
    });
  });

  it('always sends the name, even blank, so the server can flag it', () => {
    expect(uploadRowOf(['', 'Austin'], ['name', 'city'])).toEqual({ name: '', city: 'Austin' });
  });

  it('applies the user’s fixes over the file’s values', () => {
    const row = uploadRowOf(['', 'Austin', '787010000000000000000000'], ['name', 'city', 'zip'], {
      name: 'Downtown',
      zip: '',
    });
    expect(row).toEqual({ name: 'Downtown', city: 'Austin' });
  });
});

describe('uploadRowOf: the listing fields', () => {
  const gbp: ColumnMapping = ['store_code', 'name', 'phone', 'hours_sun', 'hours_mon', 'hours_tue', 'hours_sat'];

  it("joins the GBP sheet's per-day hours columns into hours {day: text}, as they are (the server reads them)", () => {
    expect(
      uploadRowOf(['SEA-1', 'Pike', '(206) 555-0101', 'x', '09:00-17:00', '09:00-12:00,13:00-17:00', ''], gbp),
    ).toEqual({
      store_code: 'SEA-1',
      name: 'Pike',
      phone: '(206) 555-0101',
      hours: { sun: 'x', mon: '09:00-17:00', tue: '09:00-12:00,13:00-17:00' },
    });
  });

  it('leaves the hours out when every day is blank, and a whole-week column goes as its text', () => {
    expect(uploadRowOf(['S', 'Pike', '', '', '', '', ''], gbp)).toEqual({ store_code: 'S', name: 'Pike' });
    expect(uploadRowOf(['Pike', 'Mon-Fri 9-17'], ['name', 'hours'])).toEqual({ name: 'Pike', hours: 'Mon-Fri 9-17' });
  });

  it('with blanks "clear", sends a mapped blank cell as "" so the server clears it; unmapped fields stay out', () => {
    expect(uploadRowOf(['S', 'Pike', ' ', '', '', '', ''], gbp, undefined, 'clear')).toEqual({
      store_code: 'S',
      name: 'Pike',
      phone: '',
      hours: '',
    });
    expect(uploadRowOf(['Pike', '', ''], ['name', 'address', 'address'], undefined, 'clear')).toEqual({
      name: 'Pike',
      address: '',
    });
  });

  it('never sends a blank location id, which is a key and not a value', () => {
    expect(uploadRowOf(['', 'Pike'], ['id', 'name'], undefined, 'clear')).toEqual({ name: 'Pike' });
    const id = '6f1c2a9e-8d4b-4e57-9a63-0c1d2e3f4a5b';
    expect(uploadRowOf([id, 'Pike'], ['id', 'name'])).toEqual({ id, name: 'Pike' });
  });

  it("joins Uberall's house number to the street with a space, before the other address columns", () => {
    const mapping: ColumnMapping = ['name', 'address', 'street_number', 'address'];
    expect(uploadRowOf(['Optik', 'Hauptstraße', '12', '2. OG'], mapping)).toMatchObject({
      address: 'Hauptstraße 12, 2. OG',
    });
    expect(uploadRowOf(['Optik', '', '12', ''], mapping)).toMatchObject({ address: '12' });
  });

  it("joins with the column step's separator and blanks the words of its list, the user's edits as typed", () => {
    const mapping: ColumnMapping = ['name', 'address', 'street_number', 'address', 'state', 'phone'];
    const cells = ['Optik', 'Hauptstraße', '12', 'N/A', 'NA', 'n/a'];
    expect(uploadRowOf(cells, mapping)).toEqual({ name: 'Optik', address: 'Hauptstraße 12' });
    const options = { separator: ' – ', placeholders: ['n/a'], country: null };
    expect(uploadRowOf([...cells.slice(0, 3), '2. OG', 'NA', 'N/A'], mapping, undefined, 'keep', options)).toEqual({
      name: 'Optik',
      address: 'Hauptstraße 12 – 2. OG',
      state: 'NA',
    });
    expect(uploadRowOf(cells, mapping, { phone: 'N/A' }, 'clear', options)).toMatchObject({
      address: 'Hauptstraße 12',
      phone: 'N/A',
    });
  });

  it("sends Yext's Closed as the file says it, beside the Status, for the server to read into the status", () => {
    const mapping: ColumnMapping = ['store_code', 'name', 'status', 'closed'];
    expect(uploadRowOf(['Y-1', 'Pike', '', ' Yes '], mapping)).toEqual({
      store_code: 'Y-1',
      name: 'Pike',
      closed: 'Yes',
    });
    expect(uploadRowOf(['Y-1', 'Pike', 'Temporarily closed', 'No'], mapping)).toEqual({
      store_code: 'Y-1',
      name: 'Pike',
      status: 'Temporarily closed',
      closed: 'No',
    });
    // Blank or a placeholder: left out (the stored status stays), or "" when blanks clear.
    expect(uploadRowOf(['Y-1', 'Pike', '', 'N/A'], mapping)).toEqual({ store_code: 'Y-1', name: 'Pike' });
    expect(uploadRowOf(['Y-1', 'Pike', '', ''], mapping, undefined, 'clear')).toEqual({
      store_code: 'Y-1',
      name: 'Pike',
      status: '',
      closed: '',
    });
    // A fix typed in the preview's Closed cell replaces the file's value.
    expect(uploadRowOf(['Y-1', 'Pike', '', 'Maybe'], mapping, { closed: 'no' })).toMatchObject({ closed: 'no' });
  });

  it('a fixed hours value replaces the per-day columns; the problem card shows them as one week line', () => {
    const cells = ['S', 'Pike', '', 'x', 'nine to five', '', ''];
    expect(rowValueText(uploadRowOf(cells, gbp).hours)).toBe('Sun x; Mon nine to five');
    expect(uploadRowOf(cells, gbp, { hours: 'Mon 09:00-17:00; Sun closed' }).hours).toBe('Mon 09:00-17:00; Sun closed');
  });
});

describe('cellValue', () => {
  it("undoes the export's formula escaping, and only that", () => {
    expect(cellValue("'+12175550142")).toBe('+12175550142');
    expect(cellValue("'-89.6501")).toBe('-89.6501');
    expect(cellValue('\'=HYPERLINK(\n"http://evil.example")')).toBe('=HYPERLINK(\n"http://evil.example")');
    expect(cellValue("' @x")).toBe(' @x');
    expect(cellValue("'s-Hertogenbosch")).toBe("'s-Hertogenbosch");
    expect(cellValue("O'Brien's")).toBe("O'Brien's");
    expect(cellValue(undefined)).toBe('');
  });
});

describe('utf8Length', () => {
  it('equals the encoded length for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => utf8Length(text) === Buffer.byteLength(text, 'utf8')),
    );
  });
});

describe('planRequests', () => {
  const clientId = '00000000-0000-4000-8000-000000000000';
  const rows = Array.from({ length: 10 }, (_, index) => JSON.stringify({ name: `Location ${index}` }));

  it('keeps everything in one request within the limits', () => {
    expect(planRequests(rows, clientId, { rows: 100, bytes: 1_000_000 })).toEqual([[0, 10]]);
  });

  it('splits by row count', () => {
    expect(planRequests(rows, clientId, { rows: 4, bytes: 1_000_000 })).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
  });

  it('splits by bytes so that every body stays within the limit', () => {
    const limit = 120;
    const ranges = planRequests(rows, clientId, { rows: 100, bytes: limit });
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges.flatMap(([start, end]) => rows.slice(start, end))).toEqual(rows);
    for (const [start, end] of ranges) {
      expect(Buffer.byteLength(uploadBody(clientId, rows.slice(start, end)))).toBeLessThanOrEqual(limit);
    }
  });

  it('builds a body the server can read', () => {
    expect(JSON.parse(uploadBody(clientId, rows.slice(0, 2)))).toEqual({
      clientId,
      rows: [{ name: 'Location 0' }, { name: 'Location 1' }],
    });
  });
});
