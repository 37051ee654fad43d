import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { importFixture } from './columns.js';
import { snap } from './dashboard.js';

/**
 * A US client's sheet without a Country column (a walk): every "(617) 555-0100" was refused, and the
 * grid could not set a country for all rows. The column step asks for the locations' country; the
 * check, the import and the next file of the same headers (its saved mapping) use it.
 */
const fixture = importFixture();

interface Stored {
  name: string;
  country: string | null;
  phone: string | null;
  zip: string | null;
}

async function pick(dialog: Locator, name: string, rows: string[]): Promise<void> {
  const csv = `${['Store,Street,City,State,ZIP,Phone', ...rows].join('\n')}\n`;
  await dialog.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByTestId('file-facts')).toBeVisible();
}

test('a sheet without countries: the column step asks for theirs, and phones and ZIP codes are read by it', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Boston Bakeries');
  const api = <T>(path: string) => fixture.server().api<T>('GET', path, { token: fixture.admin() });
  await pick(dialog, 'stores.csv', [
    'Back Bay,120 Newbury St,Boston,MA,2116,(617) 555-0100',
    'South End,5 Tremont St,Boston,MA,2118,617-555-0101',
  ]);
  const choice = dialog.getByTestId('country-choice');
  await expect(choice).toContainText('No column holds the country');
  const country = choice.getByLabel('The locations are in');
  await expect(country).toHaveValue('');

  // Without it the preview says what the phones lack.
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await expect(dialog.getByText(/needs a country/).first()).toBeVisible();
  // And says where to give the country.
  await expect(dialog.getByTestId('phones-without-country')).toHaveText(
    '2 rows have phones without a country code and no country (lines 2, 3). Go back to the columns and choose the country the locations are in, or add a Country column to the file.',
  );
  await dialog.getByRole('button', { name: 'Back to the columns' }).click();

  await country.selectOption({ label: 'United States' });
  const results = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await snap(page, testInfo, 'column-step-country');
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  // The preview names the country the rows get (a walk chose Canada with an arrow key and saw nothing of it).
  await expect(dialog.getByTestId('country-given')).toHaveText(
    'Rows without a country are in United States (chosen with the columns); a location that has a country keeps it.',
  );
  await expect(dialog.getByTestId('phones-without-country')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Import 2 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('2');
  expect(await api<Stored[]>(`/api/locations?clientId=${clientId}`)).toEqual([
    expect.objectContaining({ name: 'Back Bay', country: 'US', phone: '+16175550100', zip: '02116' }),
    expect.objectContaining({ name: 'South End', country: 'US', phone: '+16175550101', zip: '02118' }),
  ]);

  // Next month's file of the same headers: its saved mapping gives the country back.
  await expect
    .poll(async () => (await api<{ options: { country?: string } }[]>(`/api/mappings?clientId=${clientId}`)).length)
    .toBe(1);
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await pick(dialog, 'stores-june.csv', ['Beacon Hill,75 Charles St,Boston,MA,2114,(617) 555-0102']);
  await expect(dialog.getByTestId('saved-mapping-note')).toContainText('rows without a country in United States');
  await expect(choice.getByLabel('The locations are in')).toHaveValue('US');
  await dialog.getByRole('button', { name: 'Check 1 row' }).click();
  await dialog.getByRole('button', { name: 'Import 1 location' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('1');
  const stored = await api<Stored[]>(`/api/locations?clientId=${clientId}`);
  expect(stored.find((location) => location.name === 'Beacon Hill')).toMatchObject({
    country: 'US',
    phone: '+16175550102',
  });
});

test('locations imported with the wrong country are mended in one bulk change: "Set the country" (a walk)', async ({
  page,
}) => {
  const { clientId, dialog } = await fixture.openImport(page, 'Wren Dental');
  const api = <T>(path: string) => fixture.server().api<T>('GET', path, { token: fixture.admin() });
  // An arrow key on the column step's list chose Canada for a US file.
  await fixture.server().api('POST', '/api/locations/upload?country=CA', {
    token: fixture.admin(),
    body: {
      clientId,
      rows: [
        { name: 'Wren Dental Boston', state: 'MA', phone: '(617) 555-0100' },
        { name: 'Wren Dental Hartford', state: 'CT', phone: '(860) 555-0101' },
      ],
    },
  });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await page.getByRole('button', { name: 'Change the 2 locations shown…' }).click();
  const bulk = page.getByRole('dialog', { name: 'Change the 2 locations shown' });
  await bulk.getByLabel('What to do').selectOption({ label: 'Set the country' });
  const country = bulk.getByRole('combobox', { name: /^Country/ });
  await expect(country).toHaveValue('');
  await expect(bulk.getByRole('button', { name: 'Change 2 locations' })).toBeDisabled();
  await country.selectOption({ label: 'United States' });
  await expect(bulk.getByRole('status')).toHaveText('Both locations will change.');
  await bulk.getByRole('button', { name: 'Change 2 locations' }).click();
  await expect(bulk.getByRole('status')).toHaveText('2 locations changed.');
  const stored = await api<Stored[]>(`/api/locations?clientId=${clientId}`);
  expect(stored.map((location) => location.country)).toEqual(['US', 'US']);
});
