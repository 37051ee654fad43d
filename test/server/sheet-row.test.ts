import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../renderer/src/import/columns/column-options.js';
import { uploadRowOf } from '../../renderer/src/import/upload-rows.js';
import { sheetValues } from '../../server/imports/sheet-row.js';
import { tableReader, type TableReader } from '../../server/imports/table-rows.js';
import { TARGETS, type ColumnTarget } from '../../server/imports/targets.js';

describe('sheetValues: one sheet row by field', () => {
  it('reads the per-day hours columns when the whole-week column is blank, and the whole-week text when not', () => {
    const fields: ColumnTarget[] = ['name', 'hours', 'hours_mon', 'hours_sat'];
    expect(sheetValues(['Pike', '', '09:00-17:00', ''], fields, ', ')).toEqual({
      name: 'Pike',
      hours: { mon: '09:00-17:00' },
    });
    expect(sheetValues(['Pike', 'Mon-Fri 9-5', '09:00-17:00', ''], fields, ', ').hours).toBe('Mon-Fri 9-5');
    expect(sheetValues(['Pike', '', '', ''], fields, ', ').hours).toBe('');
  });

  it('keeps the filled cell of two columns of one field, whichever comes first', () => {
    const fields: ColumnTarget[] = ['name', 'phone', 'phone'];
    expect(sheetValues(['Pike', '', '+1 206 555 0101'], fields, ', ').phone).toBe('+1 206 555 0101');
    expect(sheetValues(['Pike', '+1 206 555 0101', ''], fields, ', ').phone).toBe('+1 206 555 0101');
  });

  it('joins the address columns, the house number placed as the row’s country writes it', () => {
    const fields: ColumnTarget[] = ['name', 'address', 'street_number', 'address', 'country'];
    expect(sheetValues(['Optik', 'Hauptstraße', '12', '2. OG', 'DE'], fields, ', ').address).toBe(
      'Hauptstraße 12, 2. OG',
    );
    expect(sheetValues(['Optik', 'Main St', '12', '', 'US'], fields, ' / ').address).toBe('12 Main St');
  });

  it('joins a suite column as USPS writes a unit: a bare number or letter reads "Suite 200" (a walk read "500 Boylston St, 200")', () => {
    const fields: ColumnTarget[] = ['name', 'address', 'suite', 'city'];
    const address = (suite: string) =>
      sheetValues(['Bluebird', '500 Boylston St', suite, 'Boston'], fields, ', ').address;
    expect(['200', '#200', ' # 200 ', 'B', '12-B', '4C'].map(address)).toEqual([
      '500 Boylston St, Suite 200',
      '500 Boylston St, Suite 200',
      '500 Boylston St, Suite 200',
      '500 Boylston St, Suite B',
      '500 Boylston St, Suite 12-B',
      '500 Boylston St, Suite 4C',
    ]);
    // What says its own kind stays as written; a blank suite adds nothing.
    expect(['Ste 200', 'Floor 2', 'Suite 5', '2nd Floor', ''].map(address)).toEqual([
      '500 Boylston St, Ste 200',
      '500 Boylston St, Floor 2',
      '500 Boylston St, Suite 5',
      '500 Boylston St, 2nd Floor',
      '500 Boylston St',
    ]);
  });
});

const CELLS = ['', ' ', 'N/A', '-', 'Pike', ' Main St ', '12', 'US', 'DE', '09:00-17:00', 'Mon-Fri 9-5', '="007"'];

/**
 * The server reading a file and the dashboard sending its preview's rows make the same rows of the same
 * cells: one rule (server/imports/sheet-row.ts) behind both.
 */
describe('a file read by the server and the same rows sent by the dashboard', () => {
  it('become the same upload rows, for any mapping, cells and blank-cell choice', () => {
    const sheet = fc.integer({ min: 1, max: 7 }).chain((width) =>
      fc.record({
        fields: fc.array(fc.constantFrom<ColumnTarget>(null, ...TARGETS), { minLength: width, maxLength: width }),
        rows: fc.array(fc.array(fc.constantFrom(...CELLS), { minLength: width, maxLength: width }), { maxLength: 6 }),
        blanks: fc.constantFrom('keep' as const, 'clear' as const),
      }),
    );
    fc.assert(
      fc.property(sheet, ({ fields, rows, blanks }) => {
        const mapped: ColumnTarget[] = ['name', ...fields];
        const headers = mapped.map((_, column) => `Column ${column}`);
        const cells = rows.map((row) => ['Pike', ...row]);
        const mapping = {
          name: 'any',
          columns: headers.map((header, column) => ({ header, field: mapped[column]! })),
          options: {},
        };
        const reader = tableReader([headers, ...cells], { blanks, keepFlagged: true, mapping }) as TableReader;
        const read = reader.rowsOf(0, reader.lines) as Record<string, unknown>[];
        expect(read.map(({ line: _line, ...row }) => row)).toEqual(
          cells.map((row) => uploadRowOf(row, mapped, undefined, blanks, DEFAULT_OPTIONS)),
        );
      }),
    );
  });
});
