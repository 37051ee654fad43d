import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './dashboard.js';
import { ADMIN, startServer, type RunningServer } from './server.js';

/** The import dialog, whichever client it imports into. */
export const importer = (page: Page): Locator => page.getByRole('dialog', { name: /^Import locations into/ });

/** The column step's specs: one server for the file, the Admin's token, and the import dialog opened on a new client. */
export function importFixture(): {
  server: () => RunningServer;
  admin: () => string;
  openImport: (page: Page, clientName: string) => Promise<{ clientId: string; dialog: Locator }>;
} {
  let server: RunningServer;
  let admin: string;
  test.beforeAll(async () => {
    server = await startServer();
    admin = await server.signIn(ADMIN.email, ADMIN.password);
  });
  test.afterAll(async () => {
    await server.stop();
  });
  return {
    server: () => server,
    admin: () => admin,
    openImport: async (page, clientName) => {
      const { id } = await server.api<{ id: string }>('POST', '/api/clients', {
        token: admin,
        body: { name: clientName },
      });
      await signIn(page, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/clients/${id}`);
      await page.getByRole('button', { name: 'Import locations' }).click();
      const dialog = importer(page);
      await expect(dialog).toBeVisible();
      return { clientId: id, dialog };
    },
  };
}

/** The "Import as" control of the column whose header is `header`, on the column step. */
export function importAs(dialog: Locator, header: string): Locator {
  return dialog
    .locator('.mapping-table tbody tr')
    .filter({ has: dialog.page().getByRole('rowheader', { name: header, exact: true }) })
    .locator('button[aria-haspopup="listbox"]');
}

/** Chooses `field` (its words, e.g. "City") for the column `header` with the mouse. */
export async function chooseField(dialog: Locator, header: string, field: string): Promise<void> {
  await importAs(dialog, header).click();
  await dialog.getByRole('listbox').getByRole('option', { name: field, exact: true }).click();
}
