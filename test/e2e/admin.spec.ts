import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { importAs } from './columns.js';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { dropFile, signIn, snap } from './dashboard.js';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

const CLIENT = 'Brightsmile Dental';

test('an Admin signs in, creates a client, imports 1,000 rows, fixes one bad row, leaves one out, sees, exports and deletes them', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await expect(page.getByTestId('signed-in-role')).toHaveText('Admin');
  await expect(page.getByRole('heading', { name: 'No clients yet' })).toBeVisible();
  await snap(page, testInfo, '01-clients-empty');

  // Create: the form says what is missing before anything is sent.
  await page.getByRole('button', { name: 'New client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New client' });
  // Every field's problem at once (a walk saw the website's only after the name's, from the server).
  await dialog.getByLabel('Website').fill('not a website!');
  await dialog.getByRole('button', { name: 'Create client' }).click();
  await expect(dialog.getByText('Enter the client’s name.')).toBeVisible();
  await expect(dialog.getByLabel('Website')).toHaveAccessibleDescription(
    /Enter a domain such as example\.com, or an address that starts with http:\/\/ or https:\/\/\./,
  );
  await dialog.getByLabel('Name').fill(CLIENT);
  await dialog.getByLabel('Industry').fill('Dental clinics');
  await dialog.getByLabel('Website').fill('brightsmile.example');
  await snap(page, testInfo, '02-new-client');
  await dialog.getByRole('button', { name: 'Create client' }).click();
  await expect(dialog).toBeHidden();

  // A new client opens its own page; then the import dialog and a real drop of the 1,000-row file on its zone.
  await expect(page.getByRole('heading', { name: CLIENT, level: 1 })).toBeVisible();
  await expect(page.getByText('Dental clinics · brightsmile.example')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No locations yet' })).toBeVisible();
  await page.getByRole('button', { name: 'Import locations' }).click();
  const importer = page.getByRole('dialog', { name: `Import locations into ${CLIENT}` });
  await dropFile(page, importer.getByTestId('drop-zone'), 'locations-1000.csv');

  // Columns: every header found its field; the row without a name is announced with its line.
  await expect(importer.getByTestId('file-facts')).toContainText('1,000 rows · comma-separated');
  await expect(importer.getByLabel('Text encoding')).toHaveValue('utf-8');
  await expect(importAs(importer, 'Location name')).toHaveText('Name');
  await expect(importAs(importer, 'Street')).toHaveText('Address');
  await expect(importAs(importer, 'ZIP code')).toHaveText('Postal code');
  await expect(importAs(importer, 'Place ID')).toHaveText('Google place id');
  await expect(importer.getByText(/1 row has no name \(line 501\)/)).toBeVisible();
  await snap(page, testInfo, '03-import-columns');
  await importer.getByRole('button', { name: 'Check 1,000 rows' }).click();

  // Preview: the server's dry run flags lines 501 and 901 and the duplicate on line 801.
  await expect(importer.getByTestId('problem-count')).toHaveText('2');
  await expect(importer.getByTestId('skipped-count')).toHaveText('1');
  await expect(importer.getByTestId('duplicates')).toContainText('Repeats line 12 (same name and address)');
  // The problems tile shows those rows alone in the grid of every row.
  await importer.getByRole('button', { name: /rows have problems/ }).click();
  const problem = importer.locator('[data-testid="grid-row"][data-line="501"]');
  await expect(problem).toContainText('Name: is required');
  await expect(importer.getByRole('button', { name: /^Import/ })).toBeDisabled();
  await snap(page, testInfo, '04-import-preview');

  const tooLong = importer.locator('[data-testid="grid-row"][data-line="901"]');
  await expect(tooLong).toContainText('Postal code: is longer than 20 characters');

  // Fix one bad row in place (it is checked again at once), leave the other out, and the import opens up.
  await problem.getByLabel('Name, line 501').fill('Brightsmile Dental #0500');
  await problem.getByLabel('Name, line 501').press('Enter');
  await expect(importer.getByTestId('problem-count')).toHaveText('1');
  await expect(problem).toHaveCount(0);
  await tooLong.getByRole('checkbox', { name: /^Select line 901/ }).check();
  await importer.getByRole('button', { name: 'Leave out 1', exact: true }).click();
  await expect(importer.getByTestId('problem-count')).toHaveText('0');
  await expect(importer.getByTestId('ready-count')).toHaveText('998');
  await importer.getByRole('button', { name: 'Import 998 locations' }).click();

  await expect(importer.getByTestId('import-summary')).toBeVisible();
  await expect(importer.getByTestId('imported-count')).toHaveText('998');
  await expect(importer.getByTestId('left-out-count')).toHaveText('1');
  await expect(importer.getByTestId('duplicate-skipped-count')).toHaveText('1');
  await snap(page, testInfo, '05-import-summary');
  await importer.getByRole('button', { name: 'See the locations' }).click();
  await expect(importer).toBeHidden();

  // The rows and their health.
  await expect(page.getByTestId('count-all')).toHaveText('998');
  const counts = await Promise.all(
    (['green', 'yellow', 'red'] as const).map(async (status) =>
      Number(await page.getByTestId(`count-${status}`).innerText()),
    ),
  );
  expect(counts.every((count) => count > 0)).toBe(true);
  expect(counts.reduce((a, b) => a + b)).toBe(998);
  await expect(page.getByTestId('location-row').first()).toContainText('Brightsmile Dental #0001');
  await snap(page, testInfo, '06-locations');
  // Only the rows in view are in the page; the last one comes into view by scrolling.
  expect(await page.getByTestId('location-row').count()).toBeLessThan(100);
  await page.getByTestId('locations-scroll').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(page.getByTestId('location-row').filter({ hasText: 'Brightsmile Dental #1000' })).toBeVisible();

  // The fixed row was imported with the name typed in the preview.
  await page.getByRole('searchbox').fill('#0500');
  await expect(page.getByTestId('shown-count')).toHaveText('1 of 998 locations');
  await expect(page.getByTestId('location-row')).toHaveCount(1);
  await expect(page.getByTestId('location-row')).toContainText('599 Sunset Blvd');

  // Filter by health, sort, and export what is shown.
  await page.getByRole('searchbox').fill('');
  await page.getByRole('combobox', { name: 'Health' }).selectOption('red');
  await expect(page.getByTestId('shown-count')).toHaveText(`${counts[2]} of 998 locations`);
  await expect(page.getByTestId('location-row').first()).toContainText('No street address');
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export these to CSV' }).click(),
  ]);
  const exported = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(exported[0]).toBe(
    'Location id,Store code,Name,Address,City,State / province,Postal code,Country,Google place id,Phone,' +
      'Website,Latitude,Longitude,Primary category,Labels,Status,Hours,Health score,Health status,Created,Updated',
  );
  expect(exported).toHaveLength((counts[2] ?? 0) + 1);
  expect(exported.slice(1).every((line) => line.includes(',red,'))).toBe(true);
  expect(download.suggestedFilename()).toMatch(/^Brightsmile-Dental-locations-\d{4}-\d{2}-\d{2}\.csv$/);
  await snap(page, testInfo, '07-locations-red');

  // Delete: the confirmation names the client and its locations, and wants the name typed.
  await page.getByRole('link', { name: 'Clients' }).first().click();
  await page
    .getByRole('row')
    .filter({ hasText: CLIENT })
    .getByRole('button', { name: `Delete ${CLIENT}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Delete ${CLIENT}?` });
  await expect(confirm).toContainText('998 locations');
  await expect(confirm).toContainText('This cannot be undone.');
  const deleteButton = confirm.getByRole('button', { name: `Delete ${CLIENT}` });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type ${CLIENT} to confirm`).fill(CLIENT);
  await snap(page, testInfo, '08-delete-client');
  await deleteButton.click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Client ${CLIENT} deleted` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No clients yet' })).toBeVisible();

  // Sign out returns to the sign-in page.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
