import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

/** Issue 11 §3: the Backups page of an Admin, over the real server and its automatic backups. */

let server: RunningServer;
const VIEWER = { email: 'viewer@agency.test', password: 'viewer-password-1' };

test.beforeAll(async () => {
  server = await startServer();
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  await server.api('POST', '/api/clients', { token, body: { name: 'Backed-up Bakery' } });
  await server.api('POST', '/api/users', { token, body: { ...VIEWER, role: 'viewer' } });
});
test.afterAll(async () => {
  await server.stop();
});

test('an Admin sees the automatic backup, backs up now (a manual backup) and downloads the encrypted file', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('heading', { name: 'Backups', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/backups$/);
  // The server made one at its start (there was none).
  await expect(page.getByTestId('backup-row').first()).toContainText('Automatic');

  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByRole('status')).toContainText(/Backup made: manual-.*\.db/);
  const newest = page.getByTestId('backup-row').first();
  // Asked for by a person: manual, never removed by the rotation of the automatic ones.
  await expect(newest.getByRole('cell').nth(1)).toHaveText('Manual');
  // Made after the client was created: it holds one client and no location.
  await expect(newest.getByRole('cell').nth(3)).toHaveText('1');
  await expect(newest.getByRole('cell').nth(4)).toHaveText('0');

  // Where the backups are on this computer, and the command that restores the newest, with its real path.
  const folder = join(server.dataDir, 'backups');
  const made = (await page.getByRole('status').textContent())!.replace('Backup made: ', '');
  const command = `agency-desk restore ${join(folder, made)}`;
  await expect(page.getByTestId('backups-folder')).toHaveText(folder);
  await expect(page.getByTestId('restore-command')).toHaveText(command);
  // What a restore of it brings back, and loses: said beside the command.
  await expect(page.getByTestId('restore-newest-words')).toContainText(
    '(1 client, 0 locations): every change made since is lost. To keep today’s work in a backup, use “Back up now” first.',
  );
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy the restore command' }).click();
  await expect(page.getByRole('button', { name: 'Copied the restore command' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await page.getByRole('button', { name: "Copy the folder's path" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(folder);
  // Any backup's own command, not only the newest's (a walk had to write an older one's by hand).
  const automatic = page.getByTestId('backup-row').last();
  await automatic.getByRole('button', { name: /^Copy restore command auto-/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    new RegExp(`^agency-desk restore ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auto-.*\\.db$`),
  );
  await snap(page, testInfo, 'backups');

  const download = page.waitForEvent('download');
  await newest.getByRole('button', { name: /^Download/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^manual-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/);
  // Screen readers hear which backup the button downloads, once.
  await expect(newest.getByRole('button', { name: /^Download/ })).toHaveAccessibleName(
    `Download ${file.suggestedFilename()}`,
  );
  const bytes = readFileSync((await file.path())!);
  expect(bytes.length % 4096).toBe(0);
  expect(bytes.subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
  expect(bytes.includes(Buffer.from('Backed-up Bakery'))).toBe(false);
});

test('a Viewer has no Backups page', async ({ page }) => {
  await signIn(page, server.url, VIEWER.email, VIEWER.password);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backups' })).toHaveCount(0);
  await page.goto(`${server.url}/backups`);
  await expect(page.getByRole('heading', { name: 'Only an Admin can see this page' })).toBeVisible();
  await expect(page).toHaveTitle('Admins only · Agency Desk');
});
