import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './dashboard.js';
import { ADMIN, startServer, type RunningServer } from './server.js';

/** Keyboard only: where the focus lands when a dialog or a form opens, and where it goes back. */

let server: RunningServer;
let clientUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startServer();
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const { id } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: 'Bluebird Coffee' } });
  clientUrl = `${server.url}/clients/${id}`;
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId: id, rows: [{ name: 'Bluebird Downtown', city: 'Springfield', country: 'US' }] },
  });
});
test.afterAll(async () => {
  await server.stop();
});

test('a dialog with a form starts in its first field, not on its × (Enter there closed it)', async ({ page }) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'New client' }).focus();
  await page.keyboard.press('Enter');
  const newClient = page.getByRole('dialog', { name: 'New client' });
  await expect(newClient.getByRole('textbox', { name: /^Name/ })).toBeFocused();
  await page.keyboard.type('Acme Hardware');
  await page.keyboard.press('Enter');
  // The new client's page starts the focus on its name, not at the page's top (a walk's was lost).
  await expect(page.getByRole('heading', { name: 'Acme Hardware', level: 1 })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Edit details' })).toBeFocused();

  await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
  await page.getByRole('button', { name: 'Delete Bluebird Coffee' }).focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('dialog', { name: 'Delete Bluebird Coffee?' }).getByRole('textbox', { name: /to confirm/ }),
  ).toBeFocused();
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await page.getByRole('button', { name: 'Create a token' }).first().click();
  await expect(
    page.getByRole('dialog', { name: 'Create an API token' }).getByRole('textbox', { name: /^Name/ }),
  ).toBeFocused();
});

test('Edit location starts in the Name field; Save and Cancel give the focus back to Edit location', async ({
  page,
}) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await page.getByTestId('location-row').first().focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('location-panel');
  const edit = panel.getByRole('button', { name: 'Edit location' });
  await expect(edit).toBeEnabled();
  await edit.focus();
  await page.keyboard.press('Enter');
  const name = panel.getByRole('textbox', { name: /^Name/ });
  await expect(name).toBeFocused();
  await page.keyboard.type(' Station');
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('heading', { name: 'Bluebird Downtown Station' })).toBeVisible();
  await expect(edit).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(name).toBeFocused();
  await panel.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expect(edit).toBeFocused();
});

test('the new token’s secret dialog starts on Copy, so that Enter copies the secret rather than closing it for good', async ({
  page,
}) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await page.getByRole('button', { name: 'Create a token' }).first().click();
  await page.keyboard.type('nightly sync');
  await page.keyboard.press('Enter');
  const secret = page.getByRole('dialog', { name: 'Token nightly sync created' });
  await expect(secret.getByRole('button', { name: 'Copy' })).toBeFocused();
});

test('after an undo or a revoke, whose button is gone, the focus goes on from History or Create a token, not from the page’s top', async ({
  page,
}) => {
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  await server.api('POST', '/api/tokens', { token, body: { name: 'old script', scopes: ['read'] } });
  const clientId = clientUrl.split('/').pop()!;
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId, rows: [{ name: 'Bluebird Airport', city: 'Springfield', country: 'US' }] },
  });

  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  const history = page.getByText('History', { exact: true });
  await history.focus();
  await page.keyboard.press('Enter');
  const undo = page.getByRole('button', { name: /^Undo: .*imported/ }).first();
  await undo.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Undo this change?' });
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
  await dialog.getByRole('button', { name: 'Done' }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(history).toBeFocused();

  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await page.getByRole('button', { name: 'Revoke old script' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Revoke old script?' }).getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'old script' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create a token' })).toBeFocused();
});

/** Signs in and opens the first location's editor by mouse; returns its panel. */
async function editFirstLocation(page: Page): Promise<Locator> {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await page.getByTestId('location-row').first().click();
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  return panel;
}

test('a location saved with a wrong value takes the focus to that field, scrolled into view, with its words', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const panel = await editFirstLocation(page);
  const hours = panel.getByRole('textbox', { name: /^Hours/ });
  await hours.fill('Mon-Fri 25:00-17:00');
  // Save, at the panel's bottom: the Hours field stands just above it, partly under the sticky buttons.
  await panel.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(hours).toBeFocused();
  await expect(hours).toHaveAccessibleDescription(/"25:00" is not a time/);
  // In view, and not under the editor's buttons, which stick to the panel's bottom: its words neither.
  const words = panel.getByText(/"25:00" is not a time/);
  await expect(words).toBeInViewport();
  const buttonsTop = (await panel.locator('.form-actions').boundingBox())!.y;
  const wordsBox = (await words.boundingBox())!;
  expect(wordsBox.y + wordsBox.height).toBeLessThanOrEqual(buttonsTop);
});

test('a cleared name and a wrong website, saved together: each field keeps its own words (a walk)', async ({
  page,
}) => {
  const panel = await editFirstLocation(page);
  const name = panel.getByRole('textbox', { name: /^Name/ });
  const website = panel.getByRole('textbox', { name: /^Website/ });
  await name.fill('');
  await website.fill('htp://northwind');
  await panel.getByRole('button', { name: 'Save 2 changes' }).click();
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription(/cannot be blank/);
  await expect(website).toHaveAccessibleDescription(/must be a domain such as example.com/);
  await expect(panel.getByText('must be a string')).toHaveCount(0);
});
