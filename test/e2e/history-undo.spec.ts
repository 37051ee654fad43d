import { expect, test } from '@playwright/test';
import { signIn } from './dashboard.js';
import { ADMIN, startServer, type RunningServer } from './server.js';

/** Issue 11: import a sheet, open History, undo it, see the locations gone and the history saying so. */

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

/** A client made through the API, its rows imported (from `fileName`, when given): the import's operation. */
async function clientWith(name: string, rows: unknown[], fileName?: string) {
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const { id: clientId } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name } });
  const query = fileName === undefined ? '' : `?fileName=${fileName}`;
  const { operation_id: operationId } = await server.api<{ operation_id: string }>(
    'POST',
    `/api/locations/upload${query}`,
    { token, body: { clientId, rows } },
  );
  return { token, clientId, operationId };
}

test('undo an import from the client history', async ({ page }) => {
  const { token, clientId } = await clientWith(
    'Harbour Deli',
    [{ name: 'Harbour Deli Pier 1' }, { name: 'Harbour Deli Pier 2' }],
    'harbour.csv',
  );
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${clientId}`);
  await expect(page.getByTestId('location-row')).toHaveCount(2);
  await page.getByText('History', { exact: true }).click();
  const entry = page.getByTestId('history-entry').filter({ hasText: 'imported harbour.csv: 2 created' });
  await expect(entry).toBeVisible();
  await entry.getByRole('button', { name: /^Undo/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Undo this change?' });
  await expect(dialog.getByText('This will remove 2 locations it created.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
  // What it did, as a bulk change's own Undo says it (a walk read only "Undone." here).
  await expect(dialog.getByRole('status')).toHaveText('Undone: 2 locations removed.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  // The undo names what it reverted; the import says it was undone and offers no second Undo.
  await expect(page.getByTestId('history-entry').first()).toContainText(
    'undid “imported harbour.csv: 2 created”: 2 removed',
  );
  const undoneImport = page.getByTestId('history-entry').filter({ hasText: /^[^“]*imported harbour\.csv/ });
  await expect(undoneImport).toContainText('(undone)');
  await expect(undoneImport.getByRole('button', { name: /^Undo/ })).toHaveCount(0);
  await expect(page.getByTestId('location-row')).toHaveCount(0);
  const locations = await server.api<unknown[]>('GET', `/api/locations?clientId=${clientId}`, { token });
  expect(locations).toEqual([]);
});

test('a delete whose store code another location took since: nothing to undo yet, then undone once it is free', async ({
  page,
}) => {
  const { token, clientId } = await clientWith('Quay Bakery', [
    { name: 'Quay Bakery East', store_code: 'Q-1' },
    { name: 'Quay Bakery West', store_code: 'Q-2' },
  ]);
  const [east, west] = await server.api<{ id: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token });
  await server.api('DELETE', `/api/locations/${east!.id}`, { token });
  await server.api('PATCH', `/api/locations/${west!.id}`, { token, body: { store_code: 'Q-1' } });

  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${clientId}`);
  await page.getByText('History', { exact: true }).click();
  const deletion = page.getByTestId('history-entry').filter({ hasText: 'deleted Quay Bakery East' });
  await deletion.getByRole('button', { name: /^Undo/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Undo this change?' });
  await expect(dialog.getByText(/^Nothing can be undone now/)).toBeVisible();
  await expect(dialog.getByText(/"Q-1" is now used by Quay Bakery West/)).toBeVisible();
  // No Undo to click: one that changed nothing would mark the delete undone for good.
  await expect(dialog.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0);
  await dialog.getByText('Close', { exact: true }).click();
  await expect(deletion).not.toContainText('(undone)');

  await server.api('PATCH', `/api/locations/${west!.id}`, { token, body: { store_code: 'Q-2' } });
  await deletion.getByRole('button', { name: /^Undo/ }).click();
  await expect(dialog.getByText('This will bring back 1 deleted location.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Undone: 1 location brought back.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('location-row')).toHaveCount(2);
});

test('undone meanwhile elsewhere: the dialog says so, offers Close alone, and the history and rows catch up (a walk)', async ({
  page,
}) => {
  const {
    token,
    clientId,
    operationId: operation_id,
  } = await clientWith('Two Tabs Deli', [{ name: 'Two Tabs Deli A' }], 'tabs.csv');
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${clientId}`);
  await expect(page.getByTestId('location-row')).toHaveCount(1);
  await page.getByText('History', { exact: true }).click();
  const entry = page.getByTestId('history-entry').filter({ hasText: 'imported tabs.csv: 1 created' });
  await entry.getByRole('button', { name: /^Undo/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Undo this change?' });
  await expect(dialog.getByText('This will remove 1 location it created.')).toBeVisible();
  // Another tab (here: the API) undoes it first.
  await server.api('POST', `/api/operations/${operation_id}/undo`, { token });
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Undone already');
  await expect(dialog.getByText('This will remove 1 location it created.')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0);
  await dialog.locator('.form-actions').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('location-row')).toHaveCount(0);
  const undone = page.getByTestId('history-entry').filter({ hasText: /^[^“]*imported tabs\.csv/ });
  await expect(undone).toContainText('(undone)');
  await expect(undone.getByRole('button', { name: /^Undo/ })).toHaveCount(0);
});
