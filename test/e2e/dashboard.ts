import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

export const fixturePath = (name: string): string => new URL(`../fixtures/csv/${name}`, import.meta.url).pathname;

/** Signs in through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(url);
  await expect(page).toHaveTitle('Sign in · Agency Desk');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(email);
}

/**
 * Drops a fixture file on `target` the way a real drag from the desktop does: a DataTransfer holding
 * the File, dispatched as dragenter, dragover and drop.
 */
export async function dropFile(page: Page, target: Locator, name: string, type = 'text/csv'): Promise<void> {
  const base64 = readFileSync(fixturePath(name)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { base64, name, type },
  );
  for (const event of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(event, { dataTransfer });
}

/** A screenshot kept with the test's results (test-results/, not committed). */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });
}
