import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { importFixture } from './columns.js';

/**
 * Issue 12, "Values and rows": rows that are not locations (a totals row, a summary row, a name alone)
 * are flagged by the server's one rule (server/imports/junk-rows.ts, run in the import worker), start
 * left out with their reason in the grid, and come back with one click.
 */

const fixture = importFixture();

const CSV = [
  'Name,Address,City,Postcode,Country',
  'Bakery One,1 High Street,London,SW1A 1AA,GB',
  'Bakery Two,2 High Street,London,SW1A 2AA,GB',
  'Total,,,,',
  'Bakery Three,3 High Street,London,SW1A 3AA,GB',
  'TOTAL LOCATIONS: 46,,,,',
  'Total Wine & More,4 High Street,London,SW1A 4AA,GB',
  '',
].join('\n');

test('a "Total" row and a "TOTAL LOCATIONS: 46" row start left out with their reason; one click keeps one', async ({
  page,
}) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Bakeries');
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'bakeries.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await dialog.getByRole('button', { name: 'Check 6 rows' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('2');
  await expect(dialog.getByTestId('ready-count')).toHaveText('4');
  // The rows to send back are only left out: the download's words say so, no "problems".
  await expect(dialog.getByRole('button', { name: 'Download 2 rows left out (CSV)', exact: true })).toBeVisible();
  const total = dialog.locator('[data-testid="grid-row"][data-line="4"]');
  const summary = dialog.locator('[data-testid="grid-row"][data-line="6"]');
  await expect(total).toContainText('Left out');
  await expect(total.getByTestId('junk-flag')).toContainText('Looks like a totals row');
  await expect(summary.getByTestId('junk-flag')).toContainText('Looks like a totals row');
  // A name that starts with the word is a location.
  await expect(dialog.locator('[data-testid="grid-row"][data-line="7"]').getByTestId('junk-flag')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  // One click puts a row back (checked by the server again), another leaves it out again.
  await total.getByRole('button', { name: 'Keep line 4' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('1');
  await expect(total.getByRole('button', { name: 'Leave out line 4' })).toBeVisible();
  await total.getByRole('button', { name: 'Leave out line 4' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('2');
  // "Keep all flagged rows" puts both back; leaving them out again goes through the tile's rows.
  await dialog.getByRole('button', { name: 'Keep all 2 flagged rows' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('0');
  await summary.getByRole('button', { name: 'Leave out line 6' }).click();
  await total.getByRole('button', { name: 'Leave out line 4' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('2');

  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('4');
  const stored = await fixture
    .server()
    .api<{ name: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token: fixture.admin() });
  expect(stored.map((row) => row.name).sort()).toEqual([
    'Bakery One',
    'Bakery Three',
    'Bakery Two',
    'Total Wine & More',
  ]);
});

test('one flagged row and one row shown: the bar words them for one ("Keep the flagged row")', async ({
  page,
}, testInfo) => {
  const { dialog } = await fixture.openImport(page, 'Corner Bakeries');
  const csv = ['Name,Address,City,Postcode,Country', 'Bakery One,1 High Street,London,SW1A 1AA,GB', 'Total,,,,', ''];
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'one-total.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('1');
  await expect(dialog.getByRole('button', { name: 'Keep the flagged row' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /Keep all/ })).toHaveCount(0);

  // The rows found, selected and counted for the one row shown.
  await dialog.getByRole('searchbox', { name: 'Find rows' }).fill('Bakery One');
  await expect(dialog.getByText('1 row shown', { exact: true })).toBeAttached();
  await dialog.getByRole('checkbox', { name: 'Select the row shown' }).check();
  await expect(dialog.getByTestId('selection-count')).toHaveText('The row shown is selected');
  await page.screenshot({ path: testInfo.outputPath('preview-one-flagged-row.png') });

  await dialog.getByRole('button', { name: 'Keep the flagged row' }).click();
  await expect(dialog.getByTestId('left-out')).toHaveText('0');
});

test('a header repeated in another order: the second table is left out for good, the first imported', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Two Countries');
  // Germany's stores, then Austria's pasted below with their own header in another order (a probe's file).
  const csv = [
    'Name,Address,City,Postcode,Country',
    'Laden Berlin,Unter den Linden 1,Berlin,10117,DE',
    'Laden Hamburg,Jungfernstieg 1,Hamburg,20354,DE',
    'Name,Postcode,City,Address,Country',
    'Laden Wien,1010,Wien,Graben 1,AT',
    'Laden Graz,8010,Graz,Herrengasse 1,AT',
    '',
  ].join('\n');
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'stores.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check 5 rows' }).click();
  await expect(dialog.getByTestId('second-table')).toContainText(
    'Line 4 repeats the header with its columns in another order: a second table starts there. ' +
      'It and the 2 rows below it are left out',
  );
  await expect(dialog.getByTestId('left-out')).toHaveText('3');
  await expect(dialog.getByTestId('ready-count')).toHaveText('2');
  // Neither the second header nor its rows can be kept: no button for them, none to keep them all.
  const wien = dialog.locator('[data-testid="grid-row"][data-line="5"]');
  await expect(wien.getByTestId('junk-flag')).toContainText('In a second table');
  await expect(wien.getByRole('button')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^Keep / })).toHaveCount(0);
  // Nor through the left-out tile's rows, selected: Put back counts none of them (it said 3 and did nothing),
  // and Leave out none either: they are out already.
  await dialog.getByTestId('left-out').click();
  await dialog.getByRole('checkbox', { name: 'Select all 3 rows shown' }).check();
  const bulk = dialog.getByRole('form', { name: 'Change many rows' });
  await expect(bulk.getByRole('button', { name: 'Put back 0' })).toBeDisabled();
  await expect(bulk.getByRole('button', { name: 'Leave out 0' })).toBeDisabled();
  await expect(dialog.getByTestId('left-out')).toHaveText('3');
  await page.screenshot({ path: testInfo.outputPath('second-table.png') });
  const axe = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await dialog.getByRole('button', { name: 'Import 2 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('2');
  const stored = await fixture
    .server()
    .api<{ name: string; zip: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token: fixture.admin() });
  expect(stored.map((row) => `${row.name} ${row.zip}`).sort()).toEqual(['Laden Berlin 10117', 'Laden Hamburg 20354']);
});
