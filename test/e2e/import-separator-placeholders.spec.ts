import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { importFixture } from './columns.js';
import { snap } from './dashboard.js';

/**
 * Issue 12, the column step's options: the separator between address lines (the first row's address
 * shown as it will be sent) and the placeholder list, editable; both saved with the mapping, so that
 * the next file with the same headers gets them back.
 */
const fixture = importFixture();

// An Italian sheet: the house number ("Civico") after the street, a second address line, and the
// province code "NA", which is Napoli's, not "not available".
const HEADERS = 'Nome,Indirizzo 1,Civico,Indirizzo 2,Provincia,Paese,Telefono';

interface Stored {
  name: string;
  address: string | null;
  state: string | null;
  phone: string | null;
}
interface Saved {
  id: string;
  options: { separator?: string; placeholders?: string[] };
  last_used_at: string | null;
}

async function pick(dialog: Locator, name: string, rows: string[]): Promise<void> {
  const csv = `${[HEADERS, ...rows].join('\n')}\n`;
  await dialog.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByTestId('file-facts')).toBeVisible();
}

test('the separator and an edited placeholder list shape the locations, and come back with the saved mapping', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Pizzerie di Napoli');
  const api = <T>(path: string) => fixture.server().api<T>('GET', path, { token: fixture.admin() });

  await pick(dialog, 'sedi-maggio.csv', [
    'Pizzeria Toledo,Via Toledo,256,Scala B,NA,IT,+39 081 552 1234',
    'Pizzeria Sorbillo,Via dei Tribunali,32,N/A,NA,IT,N/A',
  ]);
  const separator = dialog.getByTestId('address-separator');
  const joined = dialog.getByTestId('joined-address');
  // The house number after the street, as Italy writes it; the lines joined with ", " by default.
  await expect(joined).toHaveText('Via Toledo 256, Scala B');
  await separator.getByRole('radio', { name: 'Space', exact: true }).check();
  await expect(joined).toHaveText('Via Toledo 256 Scala B');
  await separator.getByLabel('Other separator').fill(' / ');
  await expect(joined).toHaveText('Via Toledo 256 / Scala B');
  await expect(separator.getByRole('radio', { name: 'Other:' })).toBeChecked();

  const placeholders = dialog.getByTestId('placeholders');
  await placeholders.getByRole('button', { name: 'Remove NA', exact: true }).click();
  await expect(placeholders.getByRole('button', { name: 'Remove NA', exact: true })).toHaveCount(0);
  await placeholders.getByLabel('Add a word').fill('da definire');
  await placeholders.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(placeholders.getByRole('button', { name: 'Remove da definire' })).toBeVisible();
  const results = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await snap(page, testInfo, 'column-step-options');

  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 2 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('2');
  const stored = await api<Stored[]>(`/api/locations?clientId=${clientId}`);
  expect(stored).toEqual([
    expect.objectContaining({ name: 'Pizzeria Toledo', address: 'Via Toledo 256 / Scala B', state: 'NA' }),
    // "N/A" is still a placeholder: no line 2, no phone.
    expect.objectContaining({ name: 'Pizzeria Sorbillo', address: 'Via dei Tribunali 32', state: 'NA', phone: null }),
  ]);
  await expect.poll(async () => (await api<Saved[]>(`/api/mappings?clientId=${clientId}`)).length).toBe(1);
  const [saved] = await api<Saved[]>(`/api/mappings?clientId=${clientId}`);
  expect(saved!.options.separator).toBe(' / ');
  expect(saved!.options.placeholders).toContain('da definire');
  expect(saved!.options.placeholders).not.toContain('NA');
  expect(saved!.last_used_at).toBeNull();

  // A second file with the same headers: the separator and the list come back with the mapping.
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await pick(dialog, 'sedi-giugno.csv', ['Pizzeria Starita,Via Materdei,27,da definire,NA,IT,']);
  await expect(dialog.getByTestId('saved-mapping-note')).toContainText('NA kept as a value');
  await expect(joined).toHaveText('Via Materdei 27');
  await expect(separator.getByLabel('Other separator')).toHaveValue(' / ');
  await expect(placeholders.getByRole('button', { name: 'Remove NA', exact: true })).toHaveCount(0);
  await expect(placeholders.getByRole('button', { name: 'Remove da definire' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Check 1 row' }).click();
  await dialog.getByRole('button', { name: 'Import 1 location' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('1');
  const starita = (await api<Stored[]>(`/api/locations?clientId=${clientId}`)).find(
    (location) => location.name === 'Pizzeria Starita',
  );
  expect(starita).toMatchObject({ address: 'Via Materdei 27', state: 'NA' });
  // The import said which mapping read its rows: the server marked it used; it is still the one mapping.
  await expect
    .poll(async () => (await api<Saved[]>(`/api/mappings?clientId=${clientId}`)).map((each) => each.last_used_at))
    .toEqual([expect.any(String)]);
});
