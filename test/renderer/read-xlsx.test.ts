import writeXlsxFile from 'write-excel-file/node';
import { describe, expect, it } from 'vitest';
import { valuesOf } from '../../renderer/src/import/parse-csv.js';
import { readWorkbook, sheetTable } from '../../renderer/src/import/read-xlsx.js';
import { bufferSource, jobMessages } from './csv-files.js';
import {
  clientWorkbook,
  editedWorkbook,
  inline,
  templateWorkbook,
  workbookWithChartSheet,
} from '../helpers/real-world-files.js';

/** An .xlsx of two sheets, as an agency gets it: text store codes with leading zeros, a date, a blank row. */
async function workbook(): Promise<Uint8Array> {
  const buffer = await writeXlsxFile([
    {
      sheet: 'Notes',
      data: [['Note'], ['Sent by the client on Monday']],
    },
    {
      sheet: 'Stores',
      data: [
        ['Store code', 'Name', 'Phone', 'Opened', 'Big code'],
        [
          '00123',
          'Harbor Books Seattle',
          '+1 206 555 0100',
          { value: new Date(Date.UTC(2024, 4, 3)), format: 'dd/mm/yyyy' },
          1234567890123,
        ],
        [null, null, null, null, null],
        [
          '00456',
          'Harbor Books\nPortland',
          '0206 555 0101',
          { value: new Date(Date.UTC(2024, 4, 3, 10, 30)), format: 'yyyy-mm-dd hh:mm' },
          42,
        ],
      ],
    },
  ]).toBuffer();
  return new Uint8Array(buffer);
}

describe('Excel workbooks (.xlsx) in the import worker', () => {
  it('reads every sheet, text kept as text, dates as ISO text, rows numbered as in the spreadsheet', async () => {
    const read = await readWorkbook(bufferSource(await workbook()));
    if (!read.ok) throw new Error(read.message);
    expect(read.sheets.map((sheet) => sheet.name)).toEqual(['Notes', 'Stores']);
    const table = sheetTable(read.sheets[1]!);
    expect(table.headers).toEqual(['Store code', 'Name', 'Phone', 'Opened', 'Big code']);
    expect(valuesOf(table, 0)).toEqual([
      '00123',
      'Harbor Books Seattle',
      '+1 206 555 0100',
      '2024-05-03',
      expect.any(String),
    ]);
    expect(valuesOf(table, 1)).toEqual([
      '00456',
      'Harbor Books\nPortland',
      '0206 555 0101',
      '2024-05-03T10:30:00',
      '42',
    ]);
    // Row 3 is blank: the second store is on row 4 of the sheet, whatever line breaks its cells hold.
    expect(table.lines).toEqual([2, 4]);
  });

  it('a title (a merged cell) and a blank row above the header: left out, rows still the sheet’s', async () => {
    const buffer = await writeXlsxFile([
      [{ value: 'Harbor Books: store list', columnSpan: 3 }, null, null],
      [null, null, null],
      ['Store code', 'Name', 'Phone'],
      ['00123', 'Harbor Books\nSeattle', '+1 206 555 0100'],
      ['00456', 'Harbor Books Portland', '+1 503 555 0101'],
    ]).toBuffer();
    const read = await readWorkbook(bufferSource(new Uint8Array(buffer)));
    if (!read.ok) throw new Error(read.message);
    const table = sheetTable(read.sheets[0]!);
    expect(table.headers).toEqual(['Store code', 'Name', 'Phone']);
    expect(valuesOf(table, 1)).toEqual(['00456', 'Harbor Books Portland', '+1 503 555 0101']);
    expect([table.headerLine, ...table.lines]).toEqual([3, 4, 5]);
  });

  it('reads the table of locations past a sheet of notes, as the server does', async () => {
    const { job, messages } = jobMessages();
    await job.read({ ...bufferSource(await workbook()), name: 'stores.xlsx' });
    const last = messages.at(-1);
    if (last?.type !== 'read') throw new Error(`expected read, got ${last?.type}`);
    expect(last.file).toMatchObject({
      sheet: 'Stores',
      rowCount: 2,
      mapping: ['store_code', 'name', 'phone', null, null],
    });
    expect(last.file.samples[0]?.[0]).toBe('00123');
  });

  it('asks which sheet when several are tables of locations, then reads the chosen one', async () => {
    const table = (name: string) => [
      ['Store code', 'Name'],
      ['1', name],
    ];
    const bytes = new Uint8Array(
      await writeXlsxFile([
        { sheet: 'Notes', data: [['Note'], ['Sent by the client on Monday']] },
        { sheet: 'US', data: table('Harbor Books Seattle') },
        // A title above the header: the chooser counts the rows under it, as the column step will (a walk).
        {
          sheet: 'Canada',
          data: [['Harbor Books – Canada'], ...table('Harbor Books Vancouver'), ['2', 'Harbor Books Victoria']],
        },
      ]).toBuffer(),
    );
    const { job, messages } = jobMessages();
    await job.read({ ...bufferSource(bytes), name: 'stores.xlsx' });
    expect(messages.at(-1)).toEqual({
      type: 'sheets',
      sheets: [
        { name: 'US', rowCount: 1 },
        { name: 'Canada', rowCount: 2 },
      ],
    });
    await job.read({ ...bufferSource(bytes), name: 'stores.xlsx' }, undefined, 'Canada');
    expect(messages.at(-1)).toMatchObject({ type: 'read', file: { sheet: 'Canada', rowCount: 2 } });
  });

  it('a chart sheet (no cells) is an empty sheet: the data sheet is read', async () => {
    const { job, messages } = jobMessages();
    await job.read({ ...bufferSource(new Uint8Array(await workbookWithChartSheet())), name: 'chart.xlsx' });
    expect(messages.at(-1)).toMatchObject({ type: 'read', file: { sheet: 'Data', rowCount: 1 } });
  });

  it("a value on line 1,048,576 is said before the library builds a million rows, in the server's words (a probe)", async () => {
    const far = await editedWorkbook(
      [
        ['Name', 'City'],
        ['Shop', 'Paris'],
      ],
      (xml) => xml.replace('</sheetData>', `<row r="1048576">${inline('A1048576', 'Stray')}</row>$&`),
    );
    const read = await readWorkbook(bufferSource(new Uint8Array(far)));
    expect(read).toEqual({
      ok: false,
      message:
        'Sheet "Sheet1" has a value on line 1,048,576 (cell A1048576), far below its other rows: an import reads a sheet down to line 200,000 (100,000 rows, with blank rows between them). Delete that cell, or the rows below the table, and save the workbook again.',
    });
    // Another sheet beside it is still read: the far one alone is left out, and said (a probe's workbook
    // was refused whole for one stale sheet).
    const beside = await editedWorkbook(
      [['Notes'], ['old list']],
      (xml) => xml.replace('</sheetData>', `<row r="1048576">${inline('A1048576', 'Stray')}</row>$&`),
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
    const both = await readWorkbook(bufferSource(new Uint8Array(beside)));
    expect(both.ok && both.sheets.map((sheet) => [sheet.name, sheet.rows])).toEqual([
      [
        'Locations',
        [
          ['Name', 'City'],
          ['Harbor Books', 'Boston'],
        ],
      ],
    ]);
    expect(both.ok && both.tooFar).toEqual([
      {
        name: 'Sheet1',
        message: expect.stringMatching(/^Sheet "Sheet1" has a value on line 1,048,576 .* again\.$/) as unknown,
      },
    ]);
    const { job, messages } = jobMessages();
    await job.read({ ...bufferSource(new Uint8Array(beside)), name: 'stale.xlsx' });
    expect(messages.at(-1)).toMatchObject({
      type: 'read',
      file: { sheet: 'Locations', rowCount: 1, farSheets: [{ name: 'Sheet1' }] },
    });
    // Its used range alone (a formatted row there, no value) is no row: the sheet reads as its two.
    const formatted = await editedWorkbook(
      [
        ['Name', 'City'],
        ['Shop', 'Paris'],
      ],
      (xml) => xml.replace('</sheetData>', '<row r="1048576" s="1" customFormat="1"><c r="B1048576" s="1"/></row>$&'),
    );
    const table = await readWorkbook(bufferSource(new Uint8Array(formatted)));
    expect(table.ok && table.sheets.map((sheet) => sheet.rows)).toEqual([
      [
        ['Name', 'City'],
        ['Shop', 'Paris'],
      ],
    ]);
  });

  it('an upload template: its instructions passed over, a hidden stale column losing to the shown one', async () => {
    const { job, messages } = jobMessages();
    await job.read({ ...bufferSource(new Uint8Array(await templateWorkbook())), name: 'template.xlsx' });
    const last = messages.at(-1);
    if (last?.type !== 'read') throw new Error(`expected read, got ${last?.type}`);
    expect(last.file).toMatchObject({
      sheet: 'Locations',
      rowCount: 2,
      mapping: ['store_code', 'name', null, 'address', 'city', 'state', 'zip', 'country', 'phone'],
      // The column step names the sheet passed over, so that no one wonders where its rows went.
      passedOver: [{ name: 'Instructions', hidden: false }],
    });
  });

  it('refuses a zip that is no workbook, and an old .xls, saying to save as .xlsx or CSV', async () => {
    const { job, messages } = jobMessages();
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
    await job.read({ ...bufferSource(zip), name: 'broken.xlsx' });
    expect(messages.at(-1)).toMatchObject({
      type: 'rejected',
      message: expect.stringMatching(/Excel Workbook \(\.xlsx\) or CSV/),
    });
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    await job.read({ ...bufferSource(xls), name: 'old.xls' });
    expect(messages.at(-1)).toMatchObject({
      type: 'rejected',
      message: expect.stringMatching(/old Excel workbook \(\.xls\).*Excel Workbook \(\.xlsx\) or CSV/),
    });
  });
});

describe('a workbook as Excel shows it (found by a probe), as the server reads one', () => {
  it('a number in a zero-padding format reads as shown: 123 in "00000" is 00123', async () => {
    const bytes = await writeXlsxFile([
      [{ value: 'Store code' }, { value: 'Name' }],
      [{ value: 123, type: Number, format: '00000' }, { value: 'Harbor Books' }],
    ]).toBuffer();
    const read = await readWorkbook(bufferSource(new Uint8Array(bytes)));
    expect(read.ok && read.sheets[0]!.rows[1]).toEqual(['00123', 'Harbor Books']);
  });

  it('fills a value merged down a column, shows a broken formula, and knows a hidden sheet', async () => {
    const read = await readWorkbook(bufferSource(await clientWorkbook('1')));
    expect(read.ok && read.sheets.map((sheet) => [sheet.name, sheet.hidden, sheet.rows])).toEqual([
      ['Old', true, [['Name'], ['Stale Shop']]],
      [
        'Locations',
        false,
        [
          ['Name', 'City', 'Phone'],
          ['Back Bay', 'Boston', '1'],
          ['Beacon Hill', 'Boston', '#REF!'],
        ],
      ],
    ]);
  });
});
