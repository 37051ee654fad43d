import { expect, test, type Page } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { dropFile, signIn, snap } from './dashboard.js';

let server: RunningServer;
let admin: string;

test.beforeAll(async () => {
  server = await startServer();
  admin = await server.signIn(ADMIN.email, ADMIN.password);
});
test.afterAll(async () => {
  await server.stop();
});

/** A fresh client, its page open for the Admin. */
async function openNewClient(page: Page, name: string): Promise<string> {
  const { id } = await server.api<{ id: string }>('POST', '/api/clients', { token: admin, body: { name } });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return id;
}

const importer = (page: Page) => page.getByRole('dialog', { name: /^Import locations into/ });

async function locationCount(clientId: string): Promise<number> {
  return (await server.api<unknown[]>('GET', `/api/locations?clientId=${clientId}`, { token: admin })).length;
}

test('a Google Business Profile sheet dropped anywhere on the page maps its columns and imports', async ({
  page,
}, testInfo) => {
  const clientId = await openNewClient(page, 'Northwind Coffee');
  // Dropped on the page itself, not on a drop zone: the import dialog opens with the file.
  await dropFile(page, page.locator('main'), 'gbp-bulk-upload.csv');
  const dialog = importer(page);
  await expect(dialog.getByTestId('file-facts')).toContainText('6 rows · comma-separated');
  await expect(dialog.getByLabel('Business name', { exact: true })).toHaveValue('name');
  await expect(dialog.getByLabel('Address line 1', { exact: true })).toHaveValue('address');
  await expect(dialog.getByLabel('Address line 2', { exact: true })).toHaveValue('address');
  await expect(dialog.getByLabel('Locality', { exact: true })).toHaveValue('city');
  await expect(dialog.getByLabel('Administrative area', { exact: true })).toHaveValue('state');
  await expect(dialog.getByLabel('Country / Region', { exact: true })).toHaveValue('country');
  await expect(dialog.getByLabel('Postal code', { exact: true })).toHaveValue('zip');
  await expect(dialog.getByLabel('Store code', { exact: true })).toHaveValue('store_code');
  await expect(dialog.getByText('5 columns feed Address')).toBeVisible();
  await snap(page, testInfo, 'gbp-columns');

  // The user can change a mapping: Sub-locality is not imported by default; put it back afterwards.
  await dialog.getByLabel('Sub-locality', { exact: true }).selectOption('city');
  await expect(dialog.getByLabel('Locality', { exact: true })).toHaveValue('');
  await dialog.getByLabel('Locality', { exact: true }).selectOption('city');
  await expect(dialog.getByLabel('Sub-locality', { exact: true })).toHaveValue('');

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
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = importer(page);
  await dialog
    .getByTestId('file-input')
    .setInputFiles(new URL('../fixtures/csv/windows-1252.csv', import.meta.url).pathname);
  await expect(dialog.getByLabel('Text encoding')).toHaveValue('windows-1252');
  await expect(dialog.getByText('Café Crème')).toBeVisible();
  await expect(dialog.getByText('12 Rue de l’Église')).toBeVisible();
  await expect(dialog.getByLabel('Town')).toHaveValue('city');
  await expect(dialog.getByLabel('Province')).toHaveValue('state');
  await expect(dialog.getByLabel('Postcode')).toHaveValue('zip');
  await expect(dialog.getByLabel('Country code')).toHaveValue('country');
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

test('a semicolon file from Europe is read with its delimiter', async ({ page }) => {
  const clientId = await openNewClient(page, 'Optik Verbund');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = importer(page);
  await dropFile(page, dialog.getByTestId('drop-zone'), 'semicolon-eu.csv');
  await expect(dialog.getByTestId('file-facts')).toContainText('4 rows · semicolon-separated');
  await expect(dialog.getByText('Brillen; Kontaktlinsen Weber')).toBeVisible();
  await expect(dialog.getByLabel('Straße', { exact: true })).toHaveValue('address');
  await expect(dialog.getByLabel('PLZ', { exact: true })).toHaveValue('zip');
  await expect(dialog.getByLabel('Ort', { exact: true })).toHaveValue('city');
  await expect(dialog.getByLabel('Land', { exact: true })).toHaveValue('country');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByTestId('ready-count')).toHaveText('4');
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('4');
  expect(await locationCount(clientId)).toBe(4);
});

test('files that cannot be imported are refused with a reason, and nothing is sent', async ({ page }, testInfo) => {
  const clientId = await openNewClient(page, 'Refusals Inc');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = importer(page);

  await dropFile(
    page,
    dialog.getByTestId('drop-zone'),
    'workbook.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  await expect(dialog.getByTestId('rejection')).toContainText('This is an Excel workbook (.xlsx)');
  await expect(dialog.getByTestId('rejection')).toContainText('Nothing was sent.');
  await snap(page, testInfo, 'refused-workbook');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'empty.csv');
  await expect(dialog.getByTestId('rejection')).toContainText('This file is empty');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'header-only.csv');
  await expect(dialog.getByTestId('rejection')).toContainText('no locations under it');

  await dropFile(page, dialog.getByTestId('drop-zone'), 'no-name-column.csv');
  await expect(dialog.getByText('No column holds the location name.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Check 1 row' })).toBeDisabled();
  await snap(page, testInfo, 'refused-no-name');

  expect(await locationCount(clientId)).toBe(0);
});
