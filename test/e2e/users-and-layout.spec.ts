import { expect, test, type Page } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { dropFile, signIn, snap } from './dashboard.js';

let server: RunningServer;
let clientId: string;

test.beforeAll(async () => {
  server = await startServer();
  const admin = await server.signIn(ADMIN.email, ADMIN.password);
  clientId = (
    await server.api<{ id: string }>('POST', '/api/clients', {
      token: admin,
      body: { name: 'Northwind Coffee Roasters International', industry: 'Coffee shops', website: 'northwind.example' },
    })
  ).id;
  await server.api('POST', '/api/locations/upload', {
    token: admin,
    body: {
      clientId,
      rows: Array.from({ length: 60 }, (_, index) => ({
        name: `Northwind Coffee — a rather long location name number ${index + 1}`,
        address: `${100 + index} Long Boulevard of the Americas, Suite ${index}`,
        city: 'Springfield',
        state: 'IL',
        zip: index % 2 ? '62701' : null,
        country: 'US',
      })),
    },
  });
});
test.afterAll(async () => {
  await server.stop();
});

/** Nothing sticks out sideways: the window never needs a horizontal scroll bar. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test('an Admin manages users, and the last Admin is explained when it bites', async ({ page }, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add a user' }).click();
  const add = page.getByRole('dialog', { name: 'Add a user' });
  await add.getByLabel('E-mail').fill('ana@agency.test');
  // Each role's name is its radio button's name; its help is the description, not part of the name.
  await expect(add.getByRole('radio', { name: 'Client Viewer', exact: true })).toHaveAccessibleDescription(
    'Sees one client’s locations only; changes nothing.',
  );
  await add.getByRole('radio', { name: /Client Viewer/ }).check();
  await add.getByRole('combobox', { name: 'Client' }).selectOption(clientId);
  await add.getByLabel('Initial password').fill('initial-password-1');
  await snap(page, testInfo, 'users-add');
  await add.getByRole('button', { name: 'Add user' }).click();
  await expect(add).toBeHidden();
  const ana = page.getByRole('row').filter({ hasText: 'ana@agency.test' });
  await expect(ana).toContainText('Client Viewer');
  await expect(ana).toContainText('Northwind Coffee Roasters International');

  // The same e-mail again: the server's 409, in plain words.
  await page.getByRole('button', { name: 'Add a user' }).click();
  await add.getByLabel('E-mail').fill('ana@agency.test');
  await add.getByLabel('Initial password').fill('initial-password-2');
  await add.getByRole('button', { name: 'Add user' }).click();
  await expect(add.getByRole('alert')).toContainText('A user with this e-mail already exists.');
  await add.getByRole('button', { name: 'Cancel' }).click();

  // Change Ana's role to Viewer, and reset her password.
  await ana.getByRole('button', { name: 'Change role of ana@agency.test' }).click();
  const role = page.getByRole('dialog', { name: 'Change the role of ana@agency.test' });
  // A Client Viewer without a client is refused at the field, before anything is sent.
  await role.getByRole('combobox', { name: 'Client' }).selectOption('');
  await role.getByRole('button', { name: 'Save' }).click();
  await expect(role.getByRole('combobox', { name: 'Client' })).toHaveAccessibleDescription(
    'Choose the client this Client Viewer may see.',
  );
  await role.getByRole('radio', { name: /^Viewer/ }).check();
  await role.getByRole('button', { name: 'Save' }).click();
  await expect(role).toBeHidden();
  await expect(ana).toContainText('Viewer');
  await ana.getByRole('button', { name: 'Reset password of ana@agency.test' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset the password of ana@agency.test' });
  await reset.getByLabel('New password').fill('a-new-password-1');
  await reset.getByRole('button', { name: 'Set the password' }).click();
  await expect(reset.getByRole('status')).toContainText('The password is changed.');
  await reset.getByRole('button', { name: 'Done' }).click();
  expect(await server.signIn('ana@agency.test', 'a-new-password-1')).toBeTruthy();

  // The only Admin cannot demote themselves: the rule is explained.
  const me = page.getByRole('row').filter({ hasText: ADMIN.email });
  await me.getByRole('button', { name: `Change role of ${ADMIN.email}` }).click();
  const demote = page.getByRole('dialog', { name: `Change the role of ${ADMIN.email}` });
  await demote.getByRole('radio', { name: /^Viewer/ }).check();
  await demote.getByRole('button', { name: 'Save' }).click();
  await expect(demote.getByRole('alert')).toContainText('The organization needs an Admin');
  await expect(demote.getByRole('alert')).toContainText('An organization always keeps at least one Admin');
  // Said once: the server's own words of the same rule are not repeated under the plain ones (a walk).
  await expect(demote.getByRole('alert')).not.toContainText('This is the last Admin');
  await snap(page, testInfo, 'users-last-admin');
  await demote.getByRole('button', { name: 'Cancel' }).click();

  await ana.getByRole('button', { name: 'Remove ana@agency.test' }).click();
  await page
    .getByRole('dialog', { name: 'Remove ana@agency.test?' })
    .getByRole('button', { name: 'Remove ana@agency.test' })
    .click();
  await expect(page.getByRole('row').filter({ hasText: 'ana@agency.test' })).toHaveCount(0);
});

test('every page fits a 1024x700 window and the keyboard reaches the controls', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(server.url);
  await snap(page, testInfo, '1024-sign-in');
  // Keyboard only: the e-mail field has focus, Tab moves to the password, Enter signs in.
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type(ADMIN.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: 'Northwind Coffee Roasters International' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, '1024-clients');

  await page.getByRole('link', { name: 'Northwind Coffee Roasters International' }).click();
  await expect(page.getByTestId('count-all')).toHaveText('60');
  await expect(page.getByRole('button', { name: 'Export all to CSV' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, '1024-locations');

  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = page.getByRole('dialog', { name: /^Import locations into/ });
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-bulk-upload.csv');
  await expect(dialog.getByRole('button', { name: 'Check 6 rows' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, '1024-import-columns');
  await dialog.getByRole('button', { name: 'Check 6 rows' }).click();
  await expect(dialog.getByRole('button', { name: 'Import 6 locations' })).toBeInViewport();
  await snap(page, testInfo, '1024-import-preview');
  // A checked file is work: Escape asks before leaving it (h-ui's leave question).
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Leave', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, '1024-users');
});

/** Holds the answers to requests for `path` until the returned function is called. */
async function heldUntilReleased(page: Page, path: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${path}`, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('nothing one is about to click moves when the page’s data arrives (CI lost a click on Users as it moved)', async ({
  page,
}) => {
  // The organization's name (GET /api/me) and the count of clients are held until the buttons are measured.
  const releaseMe = await heldUntilReleased(page, '/api/me');
  const releaseClients = await heldUntilReleased(page, '/api/clients');
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  const users = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' });
  const signOut = page.getByRole('button', { name: 'Sign out' });
  const newClient = page.getByRole('button', { name: 'New client' });
  const before = [await users.boundingBox(), await signOut.boundingBox(), await newClient.boundingBox()];
  releaseMe();
  releaseClients();
  await expect(page.getByRole('banner')).toContainText('My agency');
  await expect(page.getByText(/^\d+ clients?$/)).toBeVisible();
  expect([await users.boundingBox(), await signOut.boundingBox(), await newClient.boundingBox()]).toEqual(before);

  const releaseUsers = await heldUntilReleased(page, '/api/users');
  await users.click();
  const addUser = page.getByRole('button', { name: 'Add a user' });
  const addUserBefore = await addUser.boundingBox();
  releaseUsers();
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible();
  expect(await addUser.boundingBox()).toEqual(addUserBefore);
});
