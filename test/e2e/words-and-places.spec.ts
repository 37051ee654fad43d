import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { randomHexKey, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

/**
 * Issue 12, "words and small things a person meets": messages in people's words next to their field,
 * checked before anything is sent; a wrong password said as such; a new client opens its page; a
 * deleted client is said on the clients page.
 */

async function expectNoAxeViolation(page: Page): Promise<void> {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** The POST requests the page sends to a path, counted as they leave the browser. */
function postsTo(page: Page, path: string): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) seen.count++;
  });
  return seen;
}

test.describe('first-run setup', () => {
  let dataDir: string;
  let server: ServerProcess;
  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'agency-desk-e2e-setup-'));
    // No AGENCY_DESK_ADMIN_*: nobody exists yet, so the dashboard opens on the setup form.
    server = await startServerProcess({ dataDir, key: randomHexKey() });
  });
  test.afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a bad e-mail and a short password are said next to their fields and nothing is sent', async ({
    page,
  }, testInfo) => {
    const setups = postsTo(page, '/auth/setup');
    await page.goto(server.url);
    await page.getByLabel('Organization name').fill('Northwind Agency');
    await page.getByLabel('Your e-mail').fill('not-an-address');
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel('Repeat the password').fill('short');
    await page.getByRole('button', { name: 'Create organization' }).click();

    const email = page.getByLabel('Your e-mail');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Enter an e-mail address, like name@agency.com.');
    const password = page.getByLabel(/^Password/);
    await expect(password).toHaveAccessibleDescription('Use at least 8 characters.');
    // Nothing of the validator's own words, and no notice above the form.
    await expect(page.locator('body')).not.toContainText('must match format');
    await expect(page.locator('body')).not.toContainText('must NOT have');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await snap(page, testInfo, 'setup-words');
    await expectNoAxeViolation(page);
    expect(setups.count).toBe(0);

    // Fixed, the same form goes through and signs the first Admin in.
    await email.fill('owner@agency.test');
    await password.fill('a long enough passphrase');
    await page.getByLabel('Repeat the password').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByTestId('signed-in-user')).toHaveText('owner@agency.test');
    expect(setups.count).toBe(1);
  });
});

test.describe('signed in', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer();
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test("an e-mail that is not one is told under the field, by the server's rule, before anything is sent", async ({
    page,
  }) => {
    await page.goto(server.url);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/callback')) sent.push(request.url());
    });
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByLabel('Password').fill('whatever it is');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter an e-mail address, like name@agency.com.')).toBeVisible();
    expect(sent).toEqual([]);
  });

  test('a wrong password is titled as one, not as "You are not signed in"', async ({ page }) => {
    await page.goto(server.url);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Wrong e-mail or password');
    await expect(alert).not.toContainText('You are not signed in');
    await expectNoAxeViolation(page);
  });

  test('adding a Client Viewer with a short password and no client says both, each at its field', async ({ page }) => {
    const creates = postsTo(page, '/api/users');
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Add a user' }).click();
    const add = page.getByRole('dialog', { name: 'Add a user' });
    await add.getByLabel('E-mail').fill('viewer@agency.test');
    await add.getByRole('radio', { name: /Client Viewer/ }).check();
    await add.getByLabel('Initial password').fill('short');
    await add.getByRole('button', { name: 'Add user' }).click();
    await expect(add.getByLabel('Initial password')).toHaveAccessibleDescription('Use at least 8 characters.');
    await expect(add.getByRole('combobox', { name: 'Client' })).toHaveAccessibleDescription(
      /Choose the client this Client Viewer may see|Create a client first/,
    );
    // A Viewer needs no client: the client's words go, the password's stay.
    await add.getByRole('radio', { name: /^Viewer/ }).check();
    await add.getByRole('button', { name: 'Add user' }).click();
    await expect(add.getByText('A Client Viewer needs a client')).toHaveCount(0);
    await expect(add.getByLabel('Initial password')).toHaveAccessibleDescription('Use at least 8 characters.');
    await expectNoAxeViolation(page);
    expect(creates.count).toBe(0);
  });

  test('a new client opens its page; a deleted one is said on the clients page', async ({ page }, testInfo) => {
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'New client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New client' });
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription('Enter the client’s name.');
    await dialog.getByLabel('Name').fill('Harbor Dental');
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await expect(page.getByRole('heading', { name: 'Harbor Dental', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/);

    // Edited in place, with the same words at the field.
    await page.getByRole('button', { name: 'Edit details' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Harbor Dental' });
    await edit.getByLabel(/Industry/).fill('x'.repeat(101));
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByLabel(/Industry/)).toHaveAccessibleDescription('Use at most 100 characters; this has 101.');
    await edit.getByLabel(/Industry/).fill('Dental clinics');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Dental clinics')).toBeVisible();

    await page.getByRole('button', { name: 'Delete this client…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Harbor Dental' }).click();
    const said = page.getByRole('status').filter({ hasText: 'Client Harbor Dental deleted' });
    await expect(said).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
    await snap(page, testInfo, 'client-deleted');
    await expectNoAxeViolation(page);
  });

  test('a new client named as another is said under its name, with a link to that one; it can still be made', async ({
    page,
  }) => {
    const token = await server.signIn(ADMIN.email, ADMIN.password);
    const { id: harbor } = await server.api<{ id: string }>('POST', '/api/clients', {
      token,
      body: { name: 'Harbor Bakery' },
    });
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'New client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New client' });
    await dialog.getByLabel('Name').fill('  harbor   BAKERY ');
    const same = dialog.getByTestId('same-name');
    await expect(same).toHaveText('Another client is named Harbor Bakery: open it, or go on to have two of that name.');
    await dialog.getByLabel('Name').fill('Harbor Bakery West');
    await expect(same).toHaveCount(0);
    await dialog.getByLabel('Name').fill('Harbor Bakery');
    await same.getByRole('link', { name: 'open it' }).click();
    await expect(page).toHaveURL(new RegExp(`/clients/${harbor}$`));
    await expect(dialog).toBeHidden();

    // Made all the same: the API takes two clients of one name, as the spec does.
    await page.goto(`${server.url}/clients`);
    await page.getByRole('button', { name: 'New client' }).click();
    await dialog.getByLabel('Name').fill('Harbor Bakery');
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await expect(page.getByRole('heading', { name: 'Harbor Bakery', level: 1 })).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(`/clients/${harbor}$`));
    // Its own details, edited, do not count it as its own twin.
    await page.getByRole('button', { name: 'Edit details' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Harbor Bakery' });
    await expect(edit.getByTestId('same-name')).toHaveText(/Another client is named Harbor Bakery/);
    await edit.getByLabel('Name').fill('Harbor Bakery Two');
    await expect(edit.getByTestId('same-name')).toHaveCount(0);
  });
});
