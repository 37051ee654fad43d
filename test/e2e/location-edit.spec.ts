import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { signIn, snap } from './dashboard.js';
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

/** A location opened from the table, its editor open; the panel and the form. */
async function openEditor(page: Page, name: string): Promise<{ panel: Locator; form: Locator }> {
  await openLocation(page, name);
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  return { panel, form: panel.getByRole('form', { name: `Edit ${name}` }) };
}

/** The client's table as the Admin, once it shows `count` rows; then a row by its name. */
async function openTable(page: Page, count: number): Promise<(name: string) => Locator> {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await expect(page.getByTestId('location-row')).toHaveCount(count);
  // Tabs and the browser's history tell pages apart by their titles.
  await expect(page).toHaveTitle('Bluebird Coffee · Agency Desk');
  return (name) => page.getByTestId('location-row').filter({ hasText: name });
}

/** Opens the bulk dialog by `opener`, sets Bakery as the primary category of its two locations; returns the dialog. */
async function bakeTwo(page: Page, opener: string): Promise<Locator> {
  await page.getByRole('button', { name: opener }).click();
  // Its title names the locations as the button did.
  const dialog = page.getByRole('dialog', { name: opener.replace('…', '') });
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the primary category' });
  await dialog.getByRole('textbox', { name: /^Primary category/ }).fill('Bakery');
  await dialog.getByRole('button', { name: 'Change 2 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('2 locations changed.');
  return dialog;
}

test('edit a location: a wrong phone is explained under its field; a right one is saved as E.164', async ({ page }) => {
  const { panel, form } = await openEditor(page, 'Bluebird Downtown');
  // The phone reads as the panel shows it, not as stored (E.164).
  await expect(form.getByLabel('Phone')).toHaveValue('+1 217 555 0142');
  await form.getByLabel('Phone').fill('call us');
  await form.getByLabel('Primary category').fill('Coffee shop');
  await form.getByRole('button', { name: 'Save 2 changes' }).click();
  await expect(form.getByText('"call us" is not a phone number')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveText('Some fields need a fix before saving.');
  await form.getByLabel('Phone').fill('(217) 555-0199 ext. 3');
  // Each field it named is changed: the banner goes with their words.
  await expect(form.getByRole('alert')).toHaveCount(0);
  // The extension, which the stored number cannot keep, is said as the field is left (a walk's went unsaid).
  await form.getByLabel('Phone').press('Tab');
  await expect(form.getByText('The extension 3 is not kept')).toBeVisible();
  await expect(form.getByLabel('Phone')).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Phone').fill('(217) 555-0199');
  await expect(form.getByText('The extension 3 is not kept')).toHaveCount(0);
  await form.getByRole('button', { name: 'Save 2 changes' }).click();
  await expect(form).toBeHidden();
  const [location] = await server.api<{ phone: string; primary_category: string }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token },
  );
  expect(location).toMatchObject({ phone: '+12175550199', primary_category: 'Coffee shop' });
  // Stored as E.164, shown grouped.
  await expect(panel.getByText('+1 217 555 0199').first()).toBeVisible();
  // The location's history says who changed what (issue 11).
  await expect(panel.getByTestId('location-history-entry').first()).toContainText(
    'admin@agency.test changed Bluebird Downtown: the phone from +1 217 555 0142 to +1 217 555 0199, the primary category from — to Coffee shop',
  );
});

test('the editor checks each changed field as the person leaves it, by the server, writing nothing', async ({
  page,
}, testInfo) => {
  const { form } = await openEditor(page, 'Bluebird Airport');
  await form.getByLabel('Phone').fill('217 555');
  // Not judged while typed in: only once left.
  await expect(form.getByLabel('Phone')).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Phone').press('Tab');
  await expect(form.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('"217 555" has the wrong number of digits for US')).toBeVisible();
  // Another location's store code: the server's 409, under the field, before any save.
  await form.getByLabel('Store code').fill('BB-1');
  await form.getByLabel('Store code').press('Tab');
  await expect(
    form.getByText('Another location of this client, "Bluebird Downtown", already has the store code "BB-1"'),
  ).toBeVisible();
  // The field is named by its label alone; the words under it are its description, said once.
  await expect(form.getByRole('textbox', { name: 'Store code', exact: true })).toHaveAccessibleDescription(
    'Another location of this client, "Bluebird Downtown", already has the store code "BB-1"',
  );
  expect((await new AxeBuilder({ page }).include('[data-testid="location-panel"]').analyze()).violations).toEqual([]);
  await snap(page, testInfo, 'editor-checked-on-leaving');
  await form.getByLabel('Phone').fill('(217) 555-0188');
  await form.getByLabel('Phone').press('Tab');
  await expect(form.getByLabel('Phone')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Store code')).toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Cancel' }).click();
  const airport = (
    await server.api<{ name: string; phone: string | null; store_code: string }[]>(
      'GET',
      `/api/locations?clientId=${clientId}`,
      { token },
    )
  ).find((location) => location.name === 'Bluebird Airport');
  expect(airport).toMatchObject({ phone: null, store_code: 'BB-2' });
});

/**
 * Opens Bluebird Airport's editor with its save (a PATCH without ?dryRun) held until `release`; the
 * checks made as a field is left go through. Types "call us" in the phone and saves; returns once the
 * check's words show, with the save's answer to come.
 */
async function saveHeld(page: Page): Promise<{ form: Locator; release: () => void; saved: Promise<Response> }> {
  const { form } = await openEditor(page, 'Bluebird Airport');
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/locations\/[^/?]+$/, async (route) => {
    if (route.request().method() !== 'PATCH') return route.fallback();
    await held;
    return route.continue();
  });
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && !response.url().includes('?'),
  );
  await form.getByLabel('Phone').fill('call us');
  await form.getByRole('button', { name: 'Save 1 change' }).click();
  // The check made as the field was left answers first, while the save waits.
  await expect(form.getByText('"call us" is not a phone number')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Saving…' })).toBeDisabled();
  return { form, release, saved };
}

/** Lets the held save answer (a 400) and gives the page a moment to show it: a retrying read would pass before. */
async function refused(page: Page, form: Locator, release: () => void, saved: Promise<Response>, changes: number) {
  release();
  expect((await saved).status()).toBe(400);
  await expect(form.getByRole('button', { name: `Save ${changes} change${changes === 1 ? '' : 's'}` })).toBeEnabled();
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
}

test('a field typed in while the save is on its way keeps its own words: the late refusal was of the old value (CI)', async ({
  page,
}) => {
  const { form, release, saved } = await saveHeld(page);
  await form.getByLabel('Phone').fill('(217) 555-0177');
  await refused(page, form, release, saved, 1);
  expect(await form.getByRole('alert').count()).toBe(0);
  await expect(form.getByLabel('Phone')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Phone')).toHaveValue('(217) 555-0177');
});

test('a late refusal leaves the focus in the field being typed in, and still marks the field it refused (a review)', async ({
  page,
}) => {
  const { form, release, saved } = await saveHeld(page);
  await form.getByLabel('Primary category').fill('Gate café');
  await refused(page, form, release, saved, 2);
  await expect(form.getByLabel('Primary category')).toBeFocused();
  await expect(form.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toHaveText('Some fields need a fix before saving.');
});

test('a phone saved with an extension, straight from the field, says after the save that the extension is not kept (a walk)', async ({
  page,
}, testInfo) => {
  const { panel, form } = await openEditor(page, 'Bluebird Airport');
  await form.getByLabel('Phone').fill('(217) 555-0177 ext. 12');
  await form.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(form).toBeHidden();
  // The form that would have said it under the phone is gone: the panel says it.
  await expect(panel.getByRole('status').filter({ hasText: /^Saved\./ })).toHaveText(
    "Saved. The extension 12 is not kept: a listing's phone is one number, with no extension.",
  );
  await expect(panel.getByText('+1 217 555 0177').first()).toBeVisible();
  await snap(page, testInfo, 'extension-not-kept-after-save');
  // Said of that save alone: editing again, even cancelled, lets it go.
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('button', { name: 'Edit location' })).toBeVisible();
  await expect(panel.getByText(/^Saved\. The extension/)).toHaveCount(0);
});

test('bulk edit: set the status of every location shown, in one request', async ({ page }, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await page.getByRole('searchbox').fill('Bluebird');
  await page.getByRole('button', { name: 'Change the 2 locations shown…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the 2 locations shown' });
  // It opens on its first choice, with no status yet (a default could change none of them): nothing to send.
  await expect(dialog.getByLabel('What to do')).toBeFocused();
  await expect(dialog.getByRole('combobox', { name: /^Status/ })).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Change 2 locations' })).toBeDisabled();
  // A value the server refuses says why, beside the button it turns off.
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the primary category' });
  await dialog.getByRole('textbox', { name: /^Primary category/ }).fill('x'.repeat(101));
  await expect(dialog.getByRole('status')).toContainText('100 characters');
  await expect(dialog.getByRole('button', { name: 'Change 2 locations' })).toBeDisabled();
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the status' });
  await dialog.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Open' });
  await expect(dialog.getByRole('status')).toHaveText(/^None will change: both already/);
  await expect(dialog.getByRole('button', { name: 'Change 0 locations' })).toBeDisabled();
  await dialog.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Temporarily closed' });
  await expect(dialog.getByRole('status')).toHaveText('Both locations will change.');
  await dialog.getByRole('button', { name: 'Change 2 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('2 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const locations = await server.api<{ status: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token });
  expect(locations.map((location) => location.status)).toEqual(['temporarily_closed', 'temporarily_closed']);
  // The table says it, beside the score.
  await expect(page.getByTestId('location-row').filter({ hasText: 'Temporarily closed' })).toHaveCount(2);
  await expect(page.getByTestId('location-row').first().locator('.status-tag')).toHaveText(
    'Temp. closedTemporarily closed',
  );
  await snap(page, testInfo, 'temporarily-closed');
  expect((await new AxeBuilder({ page }).include('.locations-table').analyze()).violations).toEqual([]);
});

test('bulk edit: one week of opening hours, one website, one state, on every location shown (the API could, the dialog could not)', async ({
  page,
}) => {
  const { id: bakery } = await server.api<{ id: string }>('POST', '/api/clients', {
    token,
    body: { name: 'Hours Bakery' },
  });
  await server.api('POST', '/api/locations/upload', {
    token,
    body: {
      clientId: bakery,
      rows: ['Mitte', 'Nord', 'Süd'].map((part) => ({ name: `Hours Bakery ${part}`, city: 'Berlin', country: 'DE' })),
    },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${bakery}`);
  await page.getByRole('button', { name: 'Change the 3 locations shown…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the 3 locations shown' });
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the opening hours' });
  const hours = dialog.getByRole('textbox', { name: /^Opening hours/ });
  // Hours the server cannot read say why, with the form it reads, and nothing can be sent.
  await hours.fill('Mon-Fri 9 till late');
  await expect(dialog.getByRole('status')).toContainText('Mon-Fri 9:00-17:00');
  await expect(dialog.getByRole('button', { name: 'Change 3 locations' })).toBeDisabled();
  await hours.fill('Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed');
  await expect(dialog.getByRole('status')).toHaveText('All 3 locations will change.');
  await dialog.getByRole('button', { name: 'Change 3 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('3 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'Change the 3 locations shown…' }).click();
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the website' });
  await dialog.getByRole('textbox', { name: /^Website/ }).fill('hoursbakery.example/filialen');
  await expect(dialog.getByRole('status')).toHaveText('All 3 locations will change.');
  await dialog.getByRole('button', { name: 'Change 3 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('3 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The state an import left out, set on all three.
  await page.getByRole('button', { name: 'Change the 3 locations shown…' }).click();
  await dialog.getByLabel('What to do').selectOption({ label: 'Set the state or province' });
  await dialog.getByRole('textbox', { name: /^State \/ province/ }).fill('BE');
  await dialog.getByRole('button', { name: 'Change 3 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('3 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const stored = await server.api<{ hours: unknown; website: string; state: string }[]>(
    'GET',
    `/api/locations?clientId=${bakery}`,
    {
      token,
    },
  );
  const week = { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']] };
  for (const location of stored) {
    expect(location.hours).toMatchObject({ ...week, sat: [['10:00', '14:00']], sun: [] });
    expect(location.website).toBe('https://hoursbakery.example/filialen');
    expect(location.state).toBe('BE');
  }
  expect(stored).toHaveLength(3);
});

test('bulk edit: add a label to the rows chosen; their own labels stay, and the history says what was added', async ({
  page,
}, testInfo) => {
  // A client of its own: the walk's bakery and flagship café, one without labels, one left out of the choice.
  const { id: cedar } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: 'Cedar' } });
  await server.api('POST', '/api/locations/upload', {
    token,
    body: {
      clientId: cedar,
      rows: [
        { name: 'Cedar Hill', labels: 'bakery' },
        { name: 'Cedar Park', labels: 'flagship, café' },
        { name: 'Cedar Point' },
        { name: 'Cedar Walk', labels: 'bakery' },
      ],
    },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${cedar}`);
  const row = (name: string) => page.getByTestId('location-row').filter({ hasText: name });
  await expect(page.getByTestId('location-row')).toHaveCount(4);
  await row('Cedar Hill').click({ modifiers: ['ControlOrMeta'] });
  await row('Cedar Point').click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Change the 3 locations chosen…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the 3 locations chosen' });
  await dialog.getByLabel('What to do').selectOption({ label: 'Change the labels' });
  // Add is the default: the walk's "Set the labels" wiped what the locations had.
  await expect(dialog.getByRole('radio', { name: 'Add' })).toBeChecked();
  const labels = dialog.getByRole('textbox', { name: /^Labels to add/ });
  await labels.fill('bakery');
  // The server's dry run counts before anything is written.
  await expect(dialog.getByText('2 of the 3 locations will change; 1 already has it.')).toBeVisible();
  // The button says how many it changes (a walk read "Change 20 locations" when 3 would).
  await expect(dialog.getByRole('button', { name: 'Change 2 locations' })).toBeEnabled();
  // Typed as a list is typed, a comma after it: the blank after the comma is no label.
  await labels.fill('summer, ');
  await expect(dialog.getByText('All 3 locations will change.')).toBeVisible();
  await snap(page, testInfo, 'bulk-labels-add');
  expect((await new AxeBuilder({ page }).include('dialog[open]').analyze()).violations).toEqual([]);
  await dialog.getByRole('button', { name: 'Change 3 locations' }).click();
  await expect(dialog.getByRole('status')).toHaveText('3 locations changed.');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const stored = await server.api<{ name: string; labels: string[] | null }[]>(
    'GET',
    `/api/locations?clientId=${cedar}`,
    { token },
  );
  expect(Object.fromEntries(stored.map((location) => [location.name, location.labels]))).toEqual({
    'Cedar Hill': ['bakery', 'summer'],
    'Cedar Park': ['flagship', 'café', 'summer'],
    'Cedar Point': ['summer'],
    'Cedar Walk': ['bakery'],
  });
  await page.getByText('History', { exact: true }).click();
  await expect(page.getByTestId('history-entry').first()).toContainText(
    'admin@agency.test added the label summer to 3 locations',
  );
  // The search finds locations by their labels: "summer", then a bulk change to just those (a walk).
  await page.getByRole('searchbox').fill('summer');
  await expect(page.getByTestId('location-row')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Change the 3 locations shown…' })).toBeVisible();
  await page.getByRole('searchbox').fill('');
  // The location's own history holds the bulk change too (a walk asked where its labels went).
  await row('Cedar Hill').click();
  const own = page.getByTestId('location-panel').getByTestId('location-history-entry');
  await expect(own.first()).toContainText('admin@agency.test added the label summer to 3 locations');
  await expect(own.last()).toContainText('imported a file: 4 created');
  // Cedar Walk was not among them: its history is its import alone.
  await row('Cedar Walk').click();
  await expect(own).toHaveCount(1);
  await expect(own).toContainText('imported a file: 4 created');
});

test('choose rows: Ctrl-click one, Shift-click a range, Space to leave one out; change then delete just those, each ending the choice', async ({
  page,
}, testInfo) => {
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId, rows: [1, 2, 3, 4].map((n) => ({ name: `Harbor ${n}`, city: 'Boston', country: 'US' })) },
  });
  const row = await openTable(page, 6);

  // In name order: Bluebird Airport, Bluebird Downtown, Harbor 1 … Harbor 4.
  await row('Harbor 1').click({ modifiers: ['ControlOrMeta'] });
  await row('Harbor 3').click({ modifiers: ['Shift'] });
  await expect(page.getByRole('button', { name: 'Change the 3 locations chosen…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveCount(3);
  await expect(page.getByTestId('location-panel')).toHaveCount(0);
  await row('Harbor 2').focus();
  await page.keyboard.press('Space');
  await expect(row('Harbor 2')).toHaveAttribute('aria-selected', 'false');

  const dialog = await bakeTwo(page, 'Change the 2 locations chosen…');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const listed = () =>
    server.api<{ name: string; primary_category: string | null }[]>('GET', `/api/locations?clientId=${clientId}`, {
      token,
    });
  const bakeries = (await listed()).filter((location) => location.primary_category === 'Bakery');
  expect(bakeries.map((location) => location.name)).toEqual(['Harbor 1', 'Harbor 3']);

  // A change done ends the choice, in the table and on the button: rows chosen next start a new one.
  await expect(page.getByRole('button', { name: 'Change the 6 locations shown…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveCount(0);
  await row('Harbor 4').click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByRole('button', { name: 'Change the location chosen…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear the choice' }).click();
  // The focus stays beside the link that went with the choice.
  await expect(page.getByRole('button', { name: 'Change the 6 locations shown…' })).toBeFocused();
  // A plain click opens a row and starts a range there, as in a spreadsheet (a walk's Shift-click after
  // it chose one row).
  await row('Harbor 2').click();
  await expect(page.getByTestId('location-panel')).toBeVisible();
  await row('Harbor 4').click({ modifiers: ['Shift'] });
  await expect(page.getByRole('button', { name: 'Change the 3 locations chosen…' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear the choice' }).click();

  // Deleting the chosen locations ends the choice too.
  await row('Harbor 1').click({ modifiers: ['ControlOrMeta'] });
  await row('Harbor 3').click({ modifiers: ['ControlOrMeta'] });
  await page.getByRole('button', { name: 'Change the 2 locations chosen…' }).click();
  await dialog.getByLabel('What to do').selectOption({ label: 'Delete them' });
  // Its title says it deletes now, and it lists what it deletes by name.
  const deleting = page.getByRole('dialog', { name: 'Delete the 2 locations chosen' });
  await expect(deleting.getByRole('list', { name: 'Locations to delete' }).getByRole('listitem')).toHaveText([
    'Harbor 1',
    'Harbor 3',
  ]);
  await expect(deleting).toContainText('They can be brought back with Undo');
  await snap(page, testInfo, 'bulk-delete-names');
  await deleting.getByRole('button', { name: 'Delete 2 locations' }).click();
  await expect(deleting.getByRole('status')).toHaveText('2 locations deleted.');
  await deleting.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Change the 4 locations shown…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveCount(0);
  expect((await listed()).map((location) => location.name).sort()).toEqual([
    'Bluebird Airport',
    'Bluebird Downtown',
    'Harbor 2',
    'Harbor 4',
  ]);
});

test('delete one location from its panel, by keyboard: the confirmation names it; the panel closes and the table and the choice lose it', async ({
  page,
}, testInfo) => {
  const row = await openTable(page, 4);
  // The panel closing on a deleted location never asks the server for it again (a 404 in the console).
  const notFound: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
  await row('Harbor 2').click({ modifiers: ['ControlOrMeta'] });
  await row('Harbor 4').click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByRole('button', { name: 'Change the 2 locations chosen…' })).toBeVisible();

  await row('Harbor 4').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('location-panel');
  await expect(panel.getByRole('heading', { name: 'Harbor 4' })).toBeFocused();
  const deleteButton = panel.getByRole('button', { name: 'Delete location' });
  const focused = () => page.evaluate(() => document.activeElement?.textContent);
  // Edit and Delete wait for the location's whole record (GET /api/locations/:id): Tab skips them before.
  await expect(deleteButton).toBeEnabled();
  for (let tab = 0; tab < 5 && (await focused()) !== 'Delete location…'; tab++) await page.keyboard.press('Tab');
  await expect(deleteButton).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Harbor 4?' });
  await expect(confirm).toContainText('This deletes the location Harbor 4');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await snap(page, testInfo, 'delete-location-confirm');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  // Escape leaves the confirmation, not the panel.
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(deleteButton).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete Harbor 4' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/location=/);
  await expect(row('Harbor 4')).toHaveCount(0);
  await expect(page.getByTestId('location-row')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Change the location chosen…' })).toBeVisible();
  await expect(row('Harbor 2')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(':focus')).toHaveAttribute('data-testid', 'location-row');
  const names = (await server.api<{ name: string }[]>('GET', `/api/locations?clientId=${clientId}`, { token })).map(
    (location) => location.name,
  );
  expect(names.sort()).toEqual(['Bluebird Airport', 'Bluebird Downtown', 'Harbor 2']);
  await snap(page, testInfo, 'after-delete-location');
  expect(notFound).toEqual([]);
});

test('the rows chosen stay in the address: a reload keeps them, less any deleted meanwhile; a new search ends the choice', async ({
  page,
}) => {
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId, rows: [5, 6, 7].map((n) => ({ name: `Harbor ${n}`, city: 'Boston', country: 'US' })) },
  });
  const row = await openTable(page, 6);
  await row('Harbor 5').click({ modifiers: ['ControlOrMeta'] });
  await row('Harbor 7').click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByRole('button', { name: 'Change the 2 locations chosen…' })).toBeVisible();
  const idOf = async (name: string) => (await row(name).getAttribute('data-location-id'))!;
  const [five, seven] = [await idOf('Harbor 5'), await idOf('Harbor 7')];
  await expect(page).toHaveURL(new RegExp(`[?&]selected=${five}\\.${seven}$`));

  await page.reload();
  await expect(page.getByTestId('location-row')).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Change the 2 locations chosen…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveCount(2);

  // Another user deletes one of them: the reloaded choice loses it, and so does the address.
  await server.api('DELETE', `/api/locations/${five}`, { token });
  await page.reload();
  await expect(page.getByTestId('location-row')).toHaveCount(5);
  await expect(page.getByRole('button', { name: 'Change the location chosen…' })).toBeVisible();
  await expect(row('Harbor 7')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`[?&]selected=${seven}$`));

  // A new search starts again with none: what is chosen is always among what shows.
  await page.getByRole('searchbox').fill('Harbor 6');
  await expect(page.getByTestId('location-row')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Change the location shown…' })).toBeVisible();
  await expect(page).not.toHaveURL(/selected=/);
  await server.api('POST', '/api/locations/delete', { token, body: { ids: [seven, await idOf('Harbor 6')] } });
});

test('unsaved edits are never dropped without a word: opening another location or closing the panel asks first', async ({
  page,
}) => {
  const row = await openTable(page, 3);
  await row('Bluebird Airport').click();
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  const form = panel.getByRole('form', { name: 'Edit Bluebird Airport' });
  await form.getByLabel('Primary category').fill('Airport café');

  // Another row: asked first; Cancel keeps the editor and what it holds.
  await row('Harbor 2').click();
  const question = page.getByRole('dialog', { name: 'Discard your changes to Bluebird Airport?' });
  await expect(question).toContainText('The editor holds 1 change not saved yet');
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  await expect(form.getByLabel('Primary category')).toHaveValue('Airport café');
  await expect(page).toHaveURL(
    new RegExp(`location=${await row('Bluebird Airport').getAttribute('data-location-id')}`),
  );

  // Escape in the form would close the panel: asked too, and Escape leaves the question only.
  await form.getByLabel('Primary category').press('Escape');
  await expect(question).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(form).toBeVisible();

  // A link of the menu, and Back, would leave the editor too: asked, and Cancel stays.
  const here = page.url();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Cancel' }).click();
  expect(page.url()).toBe(here);
  await page.evaluate(() => window.history.back());
  await expect(question).toBeVisible();
  await expect(page).toHaveURL(here);
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(form.getByLabel('Primary category')).toHaveValue('Airport café');
  expect(page.url()).toBe(here);

  // Discard: the other location opens, read-only, and nothing was saved.
  await row('Harbor 2').click();
  await question.getByRole('button', { name: 'Discard changes' }).click();
  await expect(panel.getByRole('heading', { name: 'Harbor 2' })).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Edit location' })).toBeVisible();
  const airport = (
    await server.api<{ name: string; primary_category: string | null }[]>(
      'GET',
      `/api/locations?clientId=${clientId}`,
      {
        token,
      },
    )
  ).find((location) => location.name === 'Bluebird Airport');
  expect(airport?.primary_category).toBeNull();

  // With nothing unsaved, nothing is asked.
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await row('Bluebird Airport').click();
  await expect(panel.getByRole('heading', { name: 'Bluebird Airport' })).toBeFocused();
  await expect(question).toHaveCount(0);

  // Back with unsaved changes, then Discard: the step back happens (to Harbor 2), nothing saved.
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await form.getByLabel('Primary category').fill('Lounge');
  await page.evaluate(() => window.history.back());
  await question.getByRole('button', { name: 'Discard changes' }).click();
  await expect(panel.getByRole('heading', { name: 'Harbor 2' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`location=${await row('Harbor 2').getAttribute('data-location-id')}`));
  const stored = await server.api<{ name: string; primary_category: string | null }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token },
  );
  expect(stored.find((location) => location.name === 'Bluebird Airport')?.primary_category).toBeNull();

  // Escape, then Discard by keyboard: the panel closes and its row has the focus, for the arrows and
  // Enter (a walk's focus fell to the page's body).
  await panel.getByRole('button', { name: 'Edit location' }).click();
  const harbor = panel.getByRole('form', { name: 'Edit Harbor 2' }).getByLabel('Primary category');
  await harbor.fill('Lounge');
  await harbor.press('Escape');
  await page
    .getByRole('dialog', { name: 'Discard your changes to Harbor 2?' })
    .getByRole('button', { name: 'Discard changes' })
    .press('Enter');
  await expect(panel).toHaveCount(0);
  await expect(row('Harbor 2')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(row('Bluebird Downtown')).toBeFocused();
});

/** How far each History entry's time and words reach past the panel's content box, in pixels (0 when inside). */
function historyOverflow(panel: Locator): Promise<number[]> {
  return panel.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const right =
      box.left + element.clientLeft + element.clientWidth - parseFloat(getComputedStyle(element).paddingRight);
    const parts = element.querySelectorAll('[data-testid="location-history-entry"] > *');
    return [...parts].map((part) => Math.max(0, Math.ceil(part.getBoundingClientRect().right - right)));
  });
}

test('the History of a location wraps a long place id and a long sentence inside the panel, at its narrowest too', async ({
  page,
}, testInfo) => {
  const locations = await server.api<{ id: string; name: string }[]>('GET', `/api/locations?clientId=${clientId}`, {
    token,
  });
  const downtown = locations.find((location) => location.name === 'Bluebird Downtown')!;
  // A place id of Google's longer form (a base64 address), and a sentence of many changes.
  const placeId = 'EicxMiBNYWluIFN0LCBTcHJpbmdmaWVsZCwgSUwgNjI3MDEsIFVTQSIwEi4KFAoSCQ';
  await server.api('PATCH', `/api/locations/${downtown.id}`, {
    token,
    body: {
      google_place_id: placeId,
      website: 'https://bluebird.example/locations/springfield-illinois-downtown-main-street-roastery',
      hours: { mon: '07:00-18:00', tue: '07:00-18:00', wed: '07:00-18:00', thu: '07:00-18:00', fri: '07:00-18:00' },
    },
  });
  await openLocation(page, 'Bluebird Downtown');
  const panel = page.getByTestId('location-panel');
  const entry = panel.getByTestId('location-history-entry').filter({ hasText: 'the Google place id' });
  await expect(entry).toContainText(placeId);
  // The panel beside the table (420 px), then at its narrowest: the whole width of a 320 px window (WCAG's reflow).
  for (const width of [1440, 320]) {
    await page.setViewportSize({ width, height: 900 });
    await entry.scrollIntoViewIfNeeded();
    const overflow = await historyOverflow(panel);
    expect(overflow).toEqual(overflow.map(() => 0));
    expect(await panel.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
    await snap(page, testInfo, `location-history-${width}`);
  }
});

test('a range does not start from a row whose location moved away meanwhile (renamed, it sorted elsewhere)', async ({
  page,
}) => {
  const { id: fern } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: 'Fern' } });
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId: fern, rows: ['Fern 1', 'Fern 2', 'Fern 3', 'Fern 4'].map((name) => ({ name })) },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${fern}`);
  const row = (name: string) => page.getByTestId('location-row').filter({ hasText: name });
  await expect(page.getByTestId('location-row')).toHaveCount(4);
  // Fern 2 opened (the range's start), then renamed: it sorts last now, and Fern 3 takes its row.
  await row('Fern 2').click();
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await panel.getByRole('form', { name: 'Edit Fern 2' }).getByLabel('Name', { exact: true }).fill('Fern 9');
  await panel.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(page.getByTestId('location-row').last()).toContainText('Fern 9');
  // Shift-click: the row it started from holds another location now; this chooses Fern 1 alone.
  await row('Fern 1').click({ modifiers: ['Shift'] });
  await expect(page.getByRole('button', { name: 'Change the location chosen…' })).toBeVisible();
  await expect(page.locator('[data-testid="location-row"][aria-selected="true"]')).toHaveText([/Fern 1/]);
});

test('a bulk change is undone from its own dialog, at once (a walk looked for Undo in the history)', async ({
  page,
}) => {
  const { id: harbor } = await server.api<{ id: string }>('POST', '/api/clients', {
    token,
    body: { name: 'Undo Bay' },
  });
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId: harbor, rows: [{ name: 'Bay 1', primary_category: 'Cafe' }, { name: 'Bay 2' }] },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${harbor}`);
  const dialog = await bakeTwo(page, 'Change the 2 locations shown…');
  await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Undone: 2 locations put back.');
  expect((await new AxeBuilder({ page }).include('dialog[open]').analyze()).violations).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const stored = await server.api<{ name: string; primary_category: string | null }[]>(
    'GET',
    `/api/locations?clientId=${harbor}`,
    { token },
  );
  expect(stored.map((location) => [location.name, location.primary_category])).toEqual([
    ['Bay 1', 'Cafe'],
    ['Bay 2', null],
  ]); // The location's own history says the change was undone, as the client's does.
  await page.getByTestId('location-row').filter({ hasText: 'Bay 2' }).click();
  const own = page.getByTestId('location-panel').getByTestId('location-history-entry');
  await expect(own.filter({ hasText: /^[^“]*set the primary category/ })).toContainText('(undone)');
});

test("a location a script changed since the table was read opens as it is now, and the table catches up (a walk's panel showed the old store code)", async ({
  page,
}) => {
  const { id: elm } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: 'Elm' } });
  await server.api('POST', '/api/locations/upload', {
    token,
    body: { clientId: elm, rows: [{ name: 'Elm Mitte', store_code: 'BER-001' }, { name: 'Elm Nord' }] },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(`${server.url}/clients/${elm}`);
  const row = (name: string) => page.getByTestId('location-row').filter({ hasText: name });
  await expect(row('Elm Mitte')).toContainText('BER-001');
  const [mitte, nord] = await server.api<{ id: string; name: string }[]>('GET', `/api/locations?clientId=${elm}`, {
    token,
  });
  // A script renumbers one and deletes the other while the page is open.
  await server.api('PATCH', `/api/locations/${mitte!.id}`, { token, body: { store_code: '0042' } });
  await server.api('DELETE', `/api/locations/${nord!.id}`, { token });
  await row('Elm Mitte').click();
  const panel = page.getByTestId('location-panel');
  // Its field, not only its history, says the new code.
  await expect(panel).toContainText(/Store code\s*0042/);
  await expect(row('Elm Mitte')).toContainText('0042');
  await expect(page.getByTestId('location-row')).toHaveCount(1);
  // A save in the panel reads the list again once, not once more for the panel's newer record.
  const listReads: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/locations\?clientId=/.test(request.url())) listReads.push(request.url());
  });
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await panel.getByRole('form', { name: 'Edit Elm Mitte' }).getByLabel('City').fill('Berlin');
  // The record read again after the save: what a second reading of the list would follow.
  const recordRead = page.waitForResponse(
    (response) => response.url().endsWith(`/api/locations/${mitte!.id}`) && response.request().method() === 'GET',
  );
  await panel.getByRole('button', { name: 'Save 1 change' }).click();
  await recordRead;
  await expect(row('Elm Mitte')).toContainText('Berlin');
  expect(listReads).toHaveLength(1);
});
