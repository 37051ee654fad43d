import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

/**
 * The pages opened now and then (users, backups, tokens) and the import load their code after the first
 * page is up; a part whose code cannot be fetched, or that fails as it draws, says so alone, with a
 * reload, while the rest of the dashboard keeps working.
 */

let server: RunningServer;
let clientId: string;

test.beforeAll(async () => {
  server = await startServer();
  const admin = await server.signIn(ADMIN.email, ADMIN.password);
  clientId = (
    await server.api<{ id: string }>('POST', '/api/clients', { token: admin, body: { name: 'Parts Bakery' } })
  ).id;
});
test.afterAll(async () => {
  await server.stop();
});

/** The names of the scripts the page has fetched so far. */
function fetchedScripts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.js')),
  );
}

test('the first page loads without the parts opened now and then, and fetches them once it is up', async ({ page }) => {
  const PARTS = /\/(UsersPage|BackupsPage|TokensPage|ImportDialog)-[^/]+\.js$/;
  // The page's HTML names only the dashboard's own script: it neither loads nor preloads a part.
  const html = await (await fetch(server.url)).text();
  expect(html).toMatch(/\/assets\/index-[^"]+\.js/);
  expect(html).not.toMatch(/UsersPage|BackupsPage|TokensPage|ImportDialog/);
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  // None was opened; all four are fetched once the browser is idle.
  await expect.poll(async () => (await fetchedScripts(page)).filter((path) => PARTS.test(path)).length).toBe(4);
});

test('a page whose code cannot be fetched says so, with a reload, and the rest keeps working', async ({
  page,
}, testInfo) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // The server was restarted with a newer build, say: the users page's script is no longer there.
  await page.route(/\/assets\/UsersPage-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Users' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'This page could not be shown' });
  await expect(failed).toContainText('could not be fetched from the server');
  await expect(failed.getByRole('button', { name: 'Reload the dashboard' })).toBeVisible();
  await snap(page, testInfo, 'page-part-failed');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  expect(errors.some((text) => text.includes('Agency Desk: this page failed'))).toBe(true);

  // The top bar still works, and the other pages too.
  await page.getByRole('link', { name: 'Clients' }).click();
  await expect(page.getByRole('link', { name: 'Parts Bakery' })).toBeVisible();

  // Once the script is there again, the reload brings the page.
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(failed).toBeVisible();
  await page.unroute(/\/assets\/UsersPage-[^/]+\.js$/);
  await failed.getByRole('button', { name: 'Reload the dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveText(ADMIN.email);
});

test('the import whose code cannot be fetched fails alone, in its dialog: the client’s page stays', async ({
  page,
}, testInfo) => {
  await page.route(/\/assets\/ImportDialog-[^/]+\.js$/, (route) => route.abort('connectionrefused'));
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${clientId}`);
  await page
    .getByRole('button', { name: /Import locations/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Import locations into Parts Bakery' });
  await expect(dialog.getByRole('alert')).toContainText('The import could not be shown');
  await snap(page, testInfo, 'import-part-failed');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Parts Bakery', level: 1 })).toBeVisible();
});
