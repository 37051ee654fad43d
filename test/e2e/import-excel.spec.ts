import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import writeXlsxFile from 'write-excel-file/node';
import { importAs, importFixture } from './columns.js';
import { snap } from './dashboard.js';
import { editedWorkbook, inline } from '../helpers/real-world-files.js';

/** An .xlsx with two sheets, written by the test as an agency's client would send it (issue 12, "Excel"). */
const { server, admin, openImport } = importFixture();

async function twoSheets(): Promise<Buffer> {
  return writeXlsxFile([
    // A sheet of notes is passed over (sheet-choice.ts): two tables of locations are a question.
    { sheet: 'Read me', data: [['Note'], ['Stores are on the next sheets']] },
    {
      sheet: 'Closed',
      data: [
        ['Store code', 'Location name'],
        ['00999', 'Fjord Bakery Hull'],
      ],
    },
    {
      sheet: 'Stores',
      data: [
        ['Store code', 'Location name', 'Street', 'City', 'Postcode', 'Country', 'Phone'],
        ['00123', 'Fjord Bakery Leeds', '12 Briggate', 'Leeds', 'LS1 6HD', 'GB', '0113 496 0000'],
        ['00456', 'Fjord Bakery York', '3 Stonegate', 'York', 'YO1 8AS', 'GB', '01904 496000'],
      ],
    },
  ]).toBuffer();
}

test('an .xlsx with two sheets imports the chosen sheet, leading zeros kept', async ({ page }, testInfo) => {
  const { clientId, dialog } = await openImport(page, 'Fjord Bakery');
  await dialog.getByTestId('file-input').setInputFiles({
    name: 'fjord-stores.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await twoSheets(),
  });

  const sheets = dialog.getByRole('group', { name: /Choose the sheet/ });
  await expect(sheets).toContainText('“fjord-stores.xlsx” has 2 sheets that could hold the locations.');
  // The sheet with the most rows is offered first.
  await expect(sheets.getByRole('radio', { name: 'Stores · 2 rows' })).toBeFocused();
  await expect(sheets.getByRole('radio', { name: 'Stores · 2 rows' })).toBeChecked();
  expect((await new AxeBuilder({ page }).include('.import-dialog').analyze()).violations).toEqual([]);
  await snap(page, testInfo, 'choose-sheet');
  await expect(sheets.getByRole('radio')).toHaveCount(2);
  await sheets.getByRole('radio', { name: 'Closed · 1 row' }).check();
  await sheets.getByRole('radio', { name: 'Stores · 2 rows' }).check();
  await dialog.getByRole('button', { name: 'Use this sheet' }).click();

  await expect(dialog.getByTestId('file-facts')).toContainText('2 rows · sheet “Stores”');
  await expect(dialog.getByTestId('sheets-passed-over')).toHaveText(
    'Not read: the sheet “Read me” (no table of locations).',
  );
  await expect(importAs(dialog, 'Store code')).toHaveText('Store code');
  await expect(importAs(dialog, 'Postcode')).toHaveText('Postal code');
  await expect(dialog.getByText('00123')).toBeVisible();
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await expect(dialog.getByTestId('ready-count')).toHaveText('2');
  await dialog.getByRole('button', { name: 'Import 2 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('2');
  // The sheet not chosen is named again at the end (found by a walk: it was forgotten).
  await expect(dialog.getByTestId('other-sheets')).toHaveText(
    'This was the sheet “Stores”. The workbook’s other sheet of locations, “Closed” (1 row), was not imported: ' +
      'choose “Import another file”, drop the workbook again and pick it.',
  );

  const stored = await server().api<{ name: string; store_code: string | null }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token: admin() },
  );
  expect(stored.map((location) => [location.store_code, location.name]).sort()).toEqual([
    ['00123', 'Fjord Bakery Leeds'],
    ['00456', 'Fjord Bakery York'],
  ]);
});

test('a sheet with a stray value far below is left out and said; the sheet of locations beside it imports', async ({
  page,
}, testInfo) => {
  const file = await editedWorkbook(
    [['Notes'], ['old list']],
    (xml) => xml.replace('</sheetData>', `<row r="1048576">${inline('A1048576', 'Stray')}</row>$&`),
    [
      {
        sheet: 'Locations',
        data: [
          ['Name', 'City', 'Country'],
          ['Fjord Bakery Hull', 'Hull', 'GB'],
        ],
      },
    ],
  );
  const { clientId, dialog } = await openImport(page, 'Fjord Far Sheet');
  await dialog.getByTestId('file-input').setInputFiles({
    name: 'stale-sheet.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: file,
  });
  await expect(dialog.getByTestId('file-facts')).toContainText('1 row · sheet “Locations”');
  await expect(dialog.getByTestId('sheet-too-far')).toContainText(
    'The sheet “Sheet1” was not read. Sheet "Sheet1" has a value on line 1,048,576 (cell A1048576), far below its other rows',
  );
  await snap(page, testInfo, 'sheet-too-far');
  await dialog.getByRole('button', { name: 'Check 1 row' }).click();
  await dialog.getByRole('button', { name: 'Import 1 location' }).click();
  await expect(dialog.getByRole('button', { name: 'See the locations' })).toBeVisible();
  const stored = await server().api<{ name: string }[]>('GET', `/api/locations?clientId=${clientId}`, {
    token: admin(),
  });
  expect(stored.map((location) => location.name)).toEqual(['Fjord Bakery Hull']);
});
