import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from './server.js';
import { chooseField, importAs, importer, importFixture } from './columns.js';
import { dropFile, signIn, snap } from './dashboard.js';

const { server, admin } = importFixture();

/** A fresh client, its page open for the Admin. */
async function openNewClient(page: Page, name: string): Promise<string> {
  const { id } = await server().api<{ id: string }>('POST', '/api/clients', { token: admin(), body: { name } });
  await signIn(page, server().url, ADMIN.email, ADMIN.password);
  await page.goto(`${server().url}/clients/${id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return id;
}

async function locationCount(clientId: string): Promise<number> {
  return (await server().api<unknown[]>('GET', `/api/locations?clientId=${clientId}`, { token: admin() })).length;
}

test('a Google Business Profile sheet dropped anywhere on the page maps its columns and imports', async ({
  page,
}, testInfo) => {
  const clientId = await openNewClient(page, 'Northwind Coffee');
  // Dropped on the page itself, not on a drop zone: the import dialog opens with the file.
  await dropFile(page, page.locator('main'), 'gbp-bulk-upload.csv');
  const dialog = importer(page);
  await expect(dialog.getByTestId('file-facts')).toContainText('6 rows · comma-separated');
  await expect(importAs(dialog, 'Business name')).toHaveText('Name');
  await expect(importAs(dialog, 'Address line 1')).toHaveText('Address');
  await expect(importAs(dialog, 'Address line 2')).toHaveText('Address');
  await expect(importAs(dialog, 'Locality')).toHaveText('City');
  await expect(importAs(dialog, 'Administrative area')).toHaveText('State / province');
  await expect(importAs(dialog, 'Country / Region')).toHaveText('Country');
  await expect(importAs(dialog, 'Postal code')).toHaveText('Postal code');
  await expect(importAs(dialog, 'Store code')).toHaveText('Store code');
  await expect(dialog.getByText('5 columns feed Address')).toBeVisible();
  await snap(page, testInfo, 'gbp-columns');

  // The user can change a mapping: Sub-locality is not imported by default; City is Locality's, so it asks to swap.
  await chooseField(dialog, 'Sub-locality', 'City');
  await dialog.getByRole('button', { name: 'Swap: “Locality” becomes Don’t import' }).click();
  await expect(importAs(dialog, 'Locality')).toHaveText('Don’t import');
  await chooseField(dialog, 'Locality', 'City');
  await dialog.getByRole('button', { name: 'Swap: “Sub-locality” becomes Don’t import' }).click();
  await expect(importAs(dialog, 'Sub-locality')).toHaveText('Don’t import');

  await dialog.getByRole('button', { name: 'Check 6 rows' }).click();
  await expect(dialog.getByTestId('ready-count')).toHaveText('6');
  // The server normalized "United States" to US and joined the two address lines.
  await expect(dialog.getByTestId('samples')).toContainText('1912 Pike Place, Suite 200, Floor 2');
  await expect(dialog.getByTestId('samples').getByRole('row').filter({ hasText: 'Mission' })).toContainText('US');
  await snap(page, testInfo, 'gbp-preview');
  await dialog.getByRole('button', { name: 'Import 6 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('6');
  await dialog.getByRole('button', { name: 'See the locations' }).click();
  await expect(page.getByTestId('count-all')).toHaveText('6');
  expect(await locationCount(clientId)).toBe(6);
});

test('a Windows-1252 export is decoded, and a re-import finds every row a duplicate', async ({ page }, testInfo) => {
  const clientId = await openNewClient(page, 'Café Group');
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dialog
    .getByTestId('file-input')
    .setInputFiles(new URL('../fixtures/csv/windows-1252.csv', import.meta.url).pathname);
  await expect(dialog.getByLabel('Text encoding')).toHaveValue('windows-1252');
  await expect(dialog.getByText('Café Crème')).toBeVisible();
  await expect(dialog.getByText('12 Rue de l’Église')).toBeVisible();
  await expect(importAs(dialog, 'Town')).toHaveText('City');
  await expect(importAs(dialog, 'Province')).toHaveText('State / province');
  await expect(importAs(dialog, 'Postcode')).toHaveText('Postal code');
  await expect(importAs(dialog, 'Country code')).toHaveText('Country');
  await snap(page, testInfo, 'windows-1252-columns');
  await dialog.getByRole('button', { name: 'Check 5 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 5 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('5');

  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await dialog
    .getByTestId('file-input')
    .setInputFiles(new URL('../fixtures/csv/windows-1252.csv', import.meta.url).pathname);
  await dialog.getByRole('button', { name: 'Check 5 rows' }).click();
  await expect(dialog.getByTestId('skipped-count')).toHaveText('5');
  await expect(dialog.getByTestId('duplicates')).toContainText('Already a location of this client');
  await expect(dialog.getByRole('button', { name: 'Import 0 locations' })).toBeDisabled();
  await snap(page, testInfo, 'windows-1252-duplicates');
  expect(await locationCount(clientId)).toBe(5);
});

test('letters a file lost as "?" when it was saved are pointed out before the import, with their lines', async ({
  page,
}, testInfo) => {
  await openNewClient(page, 'Sklep Group');
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dialog
    .getByTestId('file-input')
    .setInputFiles(new URL('../fixtures/csv/excel-western-polish.csv', import.meta.url).pathname);
  await expect(dialog.getByTestId('lost-letters')).toHaveText(
    '3 rows have a ? where a letter should be (lines 2, 3, 4), such as “Sklep ?ód? Centrum”. The file was saved in an encoding ' +
      'without those letters, and Excel wrote ? for each: they are not in the file. In Excel, save the sheet as ' +
      '“CSV UTF-8 (Comma delimited)” and import that file.',
  );
  await snap(page, testInfo, 'import-lost-letters');
  // Said again on the preview, where the rows are imported.
  await dialog.getByRole('button', { name: 'Check 3 rows' }).click();
  await expect(dialog.getByTestId('lost-letters')).toContainText('3 rows have a ? where a letter should be');
});

test('a semicolon file from Europe is read with its delimiter', async ({ page }) => {
  const clientId = await openNewClient(page, 'Optik Verbund');
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dropFile(page, dialog.getByTestId('drop-zone'), 'semicolon-eu.csv');
  await expect(dialog.getByTestId('file-facts')).toContainText('4 rows · semicolon-separated');
  await expect(dialog.getByText('Brillen; Kontaktlinsen Weber')).toBeVisible();
  await expect(importAs(dialog, 'Straße')).toHaveText('Address');
  await expect(importAs(dialog, 'PLZ')).toHaveText('Postal code');
  await expect(importAs(dialog, 'Ort')).toHaveText('City');
  await expect(importAs(dialog, 'Land')).toHaveText('Country');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByTestId('ready-count')).toHaveText('4');
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('4');
  expect(await locationCount(clientId)).toBe(4);
});

test('a row with an unquoted separator is a problem in the preview until fixed, not imported short (found by a walk)', async ({
  page,
}, testInfo) => {
  const clientId = await openNewClient(page, 'Bäckerei Müller');
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  // Windows-1252, semicolons, CRLF: line 2's hours hold a ";" without quotes, so "Sa 7-12" is an 8th value.
  await dropFile(page, dialog.getByTestId('drop-zone'), 'filialen-unquoted-semicolon.csv');
  await expect(dialog.getByTestId('file-facts')).toContainText('3 rows · semicolon-separated');
  await expect(dialog.getByText(/This row has 8 values but the header has 7 columns/)).toBeVisible();
  await expect(importAs(dialog, 'Öffnungszeiten')).toHaveText('Hours (the whole week)');
  await dialog.getByRole('button', { name: 'Check 3 rows' }).click();
  await expect(dialog.getByTestId('problem-count')).toHaveText('1');
  await expect(dialog.getByText('Fix or leave out the 1 row with problems to continue.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Import/ })).toBeDisabled();
  await dialog.getByRole('button', { name: /row has a problem/ }).click();
  const row = dialog.locator('[data-testid="grid-row"][data-line="2"]');
  await expect(row.locator('.grid-reasons')).toContainText('"Sa 7-12" would be lost');
  await snap(page, testInfo, 'unquoted-separator-problem');

  // The whole value typed in its cell: the row is ready, and its Saturday is imported.
  const hours = row.getByLabel('Hours, line 2');
  await expect(hours).toHaveValue('Mo-Fr 7-18 Uhr');
  await hours.fill('Mo-Fr 7-18 Uhr; Sa 7-12');
  await hours.press('Enter');
  await expect(dialog.getByTestId('problem-count')).toHaveText('0');
  await dialog.getByRole('button', { name: /rows? ha(s|ve) problems?/ }).click();
  await expect(dialog.getByTestId('ready-count')).toHaveText('3');
  await dialog.getByRole('button', { name: 'Import 3 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('3');
  const stored = await server().api<{ name: string; hours: Record<string, string[][]> | null }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token: admin() },
  );
  expect(stored.find((location) => location.name === 'Bäckerei Müller')?.hours?.sat).toEqual([['07:00', '12:00']]);
});

test('files that cannot be imported are refused with a reason, and nothing is sent', async ({ page }, testInfo) => {
  const clientId = await openNewClient(page, 'Refusals Inc');
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);

  await dropFile(
    page,
    dialog.getByTestId('drop-zone'),
    'workbook.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  await expect(dialog.getByTestId('rejection')).toContainText('not an Excel workbook Agency Desk can read');
  await expect(dialog.getByTestId('rejection')).toContainText('Nothing was sent.');
  await snap(page, testInfo, 'refused-workbook');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'old-workbook.xls', 'application/vnd.ms-excel');
  await expect(dialog.getByTestId('rejection')).toContainText('pick Excel Workbook (.xlsx) or CSV');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'empty.csv');
  await expect(dialog.getByTestId('rejection')).toContainText('This file is empty');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'header-only.csv');
  await expect(dialog.getByTestId('rejection')).toContainText('no locations under it');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'no-name-column.csv');
  await expect(dialog.getByText('No column holds the location name.')).toBeVisible();
  // Every row would be red: the button says so, and asks before sending them.
  await dialog
    .getByRole('button', { name: 'Check 1 row (every row would have a problem: no column is the name)' })
    .click();
  await expect(
    dialog.getByText('Every row would have a problem: no column is the name. Check them anyway?'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Back to the columns' }).click();
  await expect(dialog.getByRole('button', { name: /^Check 1 row/ })).toBeFocused();
  await snap(page, testInfo, 'refused-no-name');

  expect(await locationCount(clientId)).toBe(0);
});
