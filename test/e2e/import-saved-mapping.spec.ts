import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseField, importAs, importFixture } from './columns.js';

/**
 * Issue 12, "Saved mappings": an import saves its mapping for the client; the next file with the same
 * headers gets it applied at once, with a note, the hand-made choices kept; the client page's manager
 * renames and deletes it.
 */

const fixture = importFixture();

interface Saved {
  id: string;
  name: string;
  columns: { header: string; field: string | null }[];
}

const HEADERS = 'Outlet,Street line,Town,Kennung';

async function pick(dialog: Locator, name: string, rows: string[]): Promise<void> {
  const csv = `${[HEADERS, ...rows].join('\n')}\n`;
  await dialog.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

async function expectNoViolations(page: Page, include: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(include).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test('an import saves its mapping; the same headers get it back with a note; the manager renames and deletes it', async ({
  page,
}) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Outlets');
  const mappings = () =>
    fixture.server().api<Saved[]>('GET', `/api/mappings?clientId=${clientId}`, { token: fixture.admin() });

  await pick(dialog, 'outlets-may.csv', ['Outlet A,1 Mill Road,Leeds,A-1', 'Outlet B,2 Mill Road,Leeds,B-2']);
  await expect(importAs(dialog, 'Town')).toContainText('City');
  await expect(dialog.getByTestId('saved-mapping-note')).toHaveCount(0);
  await chooseField(dialog, 'Outlet', 'Name');
  await chooseField(dialog, 'Street line', 'Address');
  // By hand: the unusual "Kennung" is the store code.
  await chooseField(dialog, 'Kennung', 'Store code');
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 2 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('2');
  await expect.poll(async () => (await mappings()).length).toBe(1);
  const [saved] = await mappings();
  expect(saved!.name).toMatch(/^outlets-may\.csv \(/);
  expect(saved!.columns).toEqual([
    { header: 'Outlet', field: 'name' },
    { header: 'Street line', field: 'address' },
    { header: 'Town', field: 'city' },
    { header: 'Kennung', field: 'store_code' },
  ]);

  // A second file with the same headers: the saved mapping at once, with the note.
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await pick(dialog, 'outlets-june.csv', ['Outlet C,3 Mill Road,York,C-3']);
  const note = dialog.getByTestId('saved-mapping-note');
  // Named after its file and day, the day said once (a walk found it twice).
  await expect(note).toContainText(/^Saved mapping “outlets-may\.csv \([^)]+\)” applied(?!, last used)/);
  await expect(importAs(dialog, 'Kennung')).toContainText('Store code');
  await expect(importAs(dialog, 'Outlet')).toContainText('Name');
  await expectNoViolations(page, 'dialog');
  // The automatic matching instead, and back to the saved one with a new read of the file.
  await note.getByRole('button', { name: 'Use the automatic matching instead' }).click();
  await expect(note).toHaveCount(0);
  await expect(importAs(dialog, 'Kennung')).not.toContainText('Store code');
  await dialog.getByRole('button', { name: 'Choose another file' }).click();
  await pick(dialog, 'outlets-june.csv', ['Outlet C,3 Mill Road,York,C-3']);
  await expect(dialog.getByTestId('saved-mapping-note')).toBeVisible();
  await dialog.getByRole('button', { name: 'Check 1 row' }).click();
  await dialog.getByRole('button', { name: 'Import 1 location' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('1');
  const stored = await fixture
    .server()
    .api<{ name: string; store_code: string | null }[]>('GET', `/api/locations?clientId=${clientId}`, {
      token: fixture.admin(),
    });
  expect(stored.find((row) => row.name === 'Outlet C')?.store_code).toBe('C-3');
  // The same mapping, saved over: still one.
  await expect.poll(async () => (await mappings()).map((mapping) => mapping.id)).toEqual([saved!.id]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The manager on the client page: rename, then delete.
  await page.getByText('Saved mappings', { exact: true }).click();
  const row = page.getByTestId('saved-mapping');
  await expect(row).toContainText('4 columns');
  await expectNoViolations(page, '.saved-mappings');
  await row.getByRole('button', { name: /^Rename/ }).click();
  await row.getByLabel('New name').fill('Outlets monthly export');
  await row.getByRole('button', { name: 'Save the name' }).click();
  await expect(row).toContainText('Outlets monthly export');
  expect((await mappings())[0]!.name).toBe('Outlets monthly export');
  await row.getByRole('button', { name: /^Delete/ }).click();
  await expectNoViolations(page, '.saved-mappings');
  await row.getByRole('button', { name: 'Delete the mapping' }).click();
  await expect(page.getByTestId('saved-mapping')).toHaveCount(0);
  expect(await mappings()).toEqual([]);
});

test('a file whose headers match by themselves (an export read back) saves no mapping (a walk)', async ({ page }) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Plain headers');
  const csv = 'Name,Address,City,Postal code,Country\nShop A,1 Mill Road,Leeds,LS1 1AA,GB\n';
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check 1 row' }).click();
  await dialog.getByRole('button', { name: 'Import 1 location' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('1');
  // A mapping would have been saved by now (the same wait as the test above's).
  await page.waitForTimeout(500);
  expect(
    await fixture.server().api<Saved[]>('GET', `/api/mappings?clientId=${clientId}`, { token: fixture.admin() }),
  ).toEqual([]);
});
