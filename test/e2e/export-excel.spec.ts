import { expect, test } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { signIn } from './dashboard.js';
import { ADMIN, startServer, type RunningServer } from './server.js';

/** Issue 9 §4, as a user does it: "Export all to Excel" from a client's page, the file opened as Excel reads it. */

let server: RunningServer;
let clientUrl: string;

test.beforeAll(async () => {
  server = await startServer();
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const { id } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: 'Harbor Books' } });
  clientUrl = `${server.url}/clients/${id}`;
  await server.api('POST', '/api/locations/upload', {
    token,
    body: {
      clientId: id,
      rows: [
        { name: 'Harbor Books Downtown', store_code: '00123', country: 'US', phone: '(217) 555-0142', zip: '01234' },
        { name: '=HYPERLINK("http://evil.example","Click")', store_code: '-05', city: '@SUM(A1)' },
      ],
    },
  });
});
test.afterAll(async () => {
  await server.stop();
});

test('the workbook holds phones and codes as they read, and a formula as text with its quote', async ({ page }) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await expect(page.getByTestId('location-row')).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export all to Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Harbor-Books-locations-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const [sheet] = await readXlsxFile(await download.path());
  const [header, ...rows] = sheet!.data;
  const cell = (name: string, row: unknown[]) => row[header!.indexOf(name)];
  const downtown = rows.find((row) => cell('Name', row) === 'Harbor Books Downtown')!;
  // No apostrophe in front of the phone: Excel showed it in every one.
  expect(cell('Phone', downtown)).toBe('+12175550142');
  expect(cell('Store code', downtown)).toBe('00123');
  expect(cell('Postal code', downtown)).toBe('01234');
  const formula = rows.find((row) => String(cell('Name', row)).includes('HYPERLINK'))!;
  expect(cell('Name', formula)).toBe('\'=HYPERLINK("http://evil.example","Click")');
  expect(cell('City', formula)).toBe("'@SUM(A1)");
  expect(cell('Store code', formula)).toBe('-05');
});
