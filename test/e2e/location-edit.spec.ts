import { expect, test, type Page } from '@playwright/test';
import { signIn } from './dashboard.js';
import { ADMIN, startServer, type RunningServer } from './server.js';

/** Issue 9 §2: an Admin opens a location from the table, edits it with the import's rules shown inline. */

let server: RunningServer;
let clientUrl: string;
let token: string;
let clientId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startServer();
  token = await server.signIn(ADMIN.email, ADMIN.password);
  ({ id: clientId } = await server.api<{ id: string }>('POST', '/api/clients', {
    token,
    body: { name: 'Bluebird Coffee' },
  }));
  clientUrl = `${server.url}/clients/${clientId}`;
  await server.api('POST', '/api/locations/upload', {
    token,
    body: {
      clientId,
      rows: [
        {
          name: 'Bluebird Downtown',
          store_code: 'BB-1',
          address: '12 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'US',
          phone: '217 555 0142',
        },
        { name: 'Bluebird Airport', store_code: 'BB-2', city: 'Springfield', country: 'US' },
      ],
    },
  });
});
test.afterAll(async () => {
  await server.stop();
});

async function openLocation(page: Page, name: string): Promise<void> {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await page.getByTestId('location-row').filter({ hasText: name }).first().click();
  await expect(page.getByTestId('location-panel')).toBeVisible();
}

test('edit a location: a wrong phone is explained under its field; a right one is saved as E.164', async ({ page }) => {
  await openLocation(page, 'Bluebird Downtown');
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  const form = panel.getByRole('form', { name: 'Edit Bluebird Downtown' });
  await form.getByLabel('Phone').fill('call us');
  await form.getByLabel('Primary category').fill('Coffee shop');
  await form.getByRole('button', { name: 'Save 2 changes' }).click();
  await expect(form.getByText('"call us" is not a phone number')).toBeVisible();
  await form.getByLabel('Phone').fill('(217) 555-0199');
  await form.getByRole('button', { name: 'Save 2 changes' }).click();
  await expect(form).toBeHidden();
  const [location] = await server.api<{ phone: string; primary_category: string }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token },
  );
  expect(location).toMatchObject({ phone: '+12175550199', primary_category: 'Coffee shop' });
  await expect(panel.getByText('+12175550199').first()).toBeVisible();
  // The location's history says who changed what (issue 11).
  await expect(panel.getByTestId('location-history-entry').first()).toContainText(
    'admin@agency.test changed the phone from +12175550142 to +12175550199, the primary category from — to Coffee shop of Bluebird Downtown',
  );
});

test('bulk edit: set the status of every location shown, in one request', async ({ page }) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await page.getByRole('searchbox').fill('Bluebird');
  await page.getByRole('button', { name: 'Change the 2 locations shown…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change 2 locations' });
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the status' });
  await dialog.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Temporarily closed' });
  await dialog.getByRole('button', { name: 'Change 2 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('2 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const locations = await server.api<{ status: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token });
  expect(locations.map((location) => location.status)).toEqual(['temporarily_closed', 'temporarily_closed']);
});
