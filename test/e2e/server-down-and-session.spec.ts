import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { randomHexKey, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { ADMIN } from './server.js';
import { signIn, snap } from './dashboard.js';

/**
 * Issue 12, "Cancel and leave": when the server stops answering a banner says so and retries, and
 * an ended session is signed in again over the page, after which what the user was doing completes.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'agency-desk-e2e-down-'));
const key = randomHexKey();
let server: ServerProcess;

/** The real server over this file's data directory; `port` starts it again where it was. */
const start = (port = '0') =>
  startServerProcess({
    dataDir,
    key,
    env: { AGENCY_DESK_ADMIN_EMAIL: ADMIN.email, AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password, AGENCY_DESK_PORT: port },
  });

test.beforeAll(async () => {
  server = await start();
});
test.afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The page's own access token, as the dashboard keeps it for this window. */
async function pageAccessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const saved = sessionStorage.getItem('agency-desk.session');
    if (!saved) throw new Error('no session in this window');
    return (JSON.parse(saved) as { accessToken: string }).accessToken;
  });
}

test('the server stops: a banner says so and retries; it comes back on the same port: the banner goes', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  // The users page's code arrives once the first page is up (page-parts.spec.ts): a dashboard open a
  // while has it, and shows the page over a server that has stopped.
  await expect
    .poll(() =>
      page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/UsersPage-'))),
    )
    .toBe(true);
  const port = new URL(server.url).port;

  await server.stop();
  // Anything that asks the server now finds it gone: here, opening the users.
  await page.getByRole('link', { name: 'Users' }).click();
  const banner = page.getByTestId('server-down');
  await expect(banner).toContainText('Agency Desk’s server is not answering');
  await expect(banner).toContainText(/retrying in \d+ s|trying again now/);
  await expect(page.locator('main#main')).toHaveClass(/content-stale/);
  // The users page, over the stopped server, under its own heading (axe ran once before it was drawn, in a
  // full test run on two busy cores, and found no level-one heading).
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await snap(page, testInfo, 'server-down-banner');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  server = await start(port);
  // The banner's own retries find it again (2, 4, 8 s apart): no click needed.
  await expect(banner).toBeHidden({ timeout: 60_000 });
  await expect(page.locator('main#main')).not.toHaveClass(/content-stale/);
  await expect(page.getByRole('row').filter({ hasText: ADMIN.email })).toBeVisible();
});

test('a session ended on the server is signed in again over the page, and the client being created is created', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'New client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New client' });
  await dialog.getByLabel('Name').fill('Lakeside Bakery');
  await dialog.getByLabel(/Website/).fill('lakeside.example');

  // The session ends on the server (as signing out elsewhere or a revocation does): access and refresh go.
  const response = await fetch(`${server.url}/auth/logout`, {
    method: 'POST',
    headers: { Origin: server.url, Authorization: `Bearer ${await pageAccessToken(page)}` },
  });
  expect(response.ok).toBe(true);

  await dialog.getByRole('button', { name: 'Create client' }).click();
  const again = page.getByRole('dialog', { name: 'Sign in again to go on' });
  await expect(again).toBeVisible();
  await expect(again).toContainText(ADMIN.email);
  // The work underneath is still there, not a sign-in page.
  await expect(dialog.getByLabel('Name')).toHaveValue('Lakeside Bakery');
  await snap(page, testInfo, 'sign-in-again');
  expect((await new AxeBuilder({ page }).include('.sign-in-again').analyze()).violations).toEqual([]);

  await again.getByLabel('Password').fill('not the password');
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again.getByRole('alert')).toContainText('Wrong e-mail or password');
  await again.getByLabel(/^Password/).fill(ADMIN.password);
  await again.getByRole('button', { name: 'Sign in' }).click();

  // The request that failed goes on: the client exists and its page opens.
  await expect(again).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Lakeside Bakery', level: 1 })).toBeVisible();
  await expect(page.getByText('lakeside.example')).toBeVisible();
});

test('signing out instead of signing in again leads to the sign-in page', async ({ page }) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await fetch(`${server.url}/auth/logout`, {
    method: 'POST',
    headers: { Origin: server.url, Authorization: `Bearer ${await pageAccessToken(page)}` },
  });
  const again = page.getByRole('dialog', { name: 'Sign in again to go on' });
  // The click's request is refused and asks to sign in again; but the dashboard's poll for device requests
  // (every 3 s) may be refused first, and then its dialog takes the click: either way the dialog is shown.
  await page
    .getByRole('link', { name: 'Users' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(again).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Sign out instead' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
});

test("a tab duplicated from a signed-in one lets its copy of the session go; the first tab's session goes on", async ({
  page,
  context,
}) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  const session = await page.evaluate(() => sessionStorage.getItem('agency-desk.session'));
  // What "Duplicate tab" does: a new tab of the same window, with a copy of the first one's sessionStorage.
  const copy = await context.newPage();
  await copy.addInitScript((saved) => {
    if (sessionStorage.getItem('agency-desk.copied') === null) {
      sessionStorage.setItem('agency-desk.session', saved!);
      sessionStorage.setItem('agency-desk.copied', 'yes');
    }
  }, session);
  await copy.goto(server.url);
  await expect(copy.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(copy.getByText('This tab was copied from another, which keeps the session')).toBeVisible();
  // The copy never refreshed the shared token (the server would have ended the session in both tabs).
  const clients = await fetch(`${server.url}/api/clients`, {
    headers: { Authorization: `Bearer ${await pageAccessToken(page)}` },
  });
  expect(clients.status).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  // The copy signs in on its own, its own session.
  await copy.getByLabel('E-mail').fill(ADMIN.email);
  await copy.getByLabel('Password').fill(ADMIN.password);
  await copy.getByRole('button', { name: 'Sign in' }).click();
  await expect(copy.getByTestId('signed-in-user')).toHaveText(ADMIN.email);
  expect(await pageAccessToken(copy)).not.toBe(await pageAccessToken(page));
});
