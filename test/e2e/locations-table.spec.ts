import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

/**
 * The client page's locations table (issue 9 §2b): natural sort, a filter that starts from the top,
 * the view kept in the address, keyboard rows, the location panel, resizable columns, no axe violation.
 */

let server: RunningServer;
let clientUrl: string;
const CLIENT = 'Oakridge Pharmacy';
const BRANCHES = 300;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startServer();
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const { id } = await server.api<{ id: string }>('POST', '/api/clients', { token, body: { name: CLIENT } });
  clientUrl = `${server.url}/clients/${id}`;
  const stores = ['Store 102', 'Store 15', 'Store 2', 'Store 10', 'Store 1'].map((name) => ({
    name,
    store_code: `OAK-${name.slice(6)}`,
    ...(name === 'Store 15' ? { hours: 'Mon-Fri 9-5, Sat closed' } : {}),
    address: `${name.slice(6)} Oak Street`,
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'US',
    google_place_id: `ChIJ${name.replace(' ', '').padEnd(24, 'x')}`,
  }));
  const branches = Array.from({ length: BRANCHES }, (_, i) => ({
    name: `Branch ${String(i + 1).padStart(3, '0')} with a name long enough to need a wider column`,
    city: ['Austin', 'Boise', 'Denver'][i % 3]!,
    ...(i % 2 === 0 ? { address: `${i + 1} Main Street`, state: 'TX', zip: '73301', country: 'US' } : {}),
  }));
  await server.api('POST', '/api/locations/upload', { token, body: { clientId: id, rows: [...stores, ...branches] } });
});
test.afterAll(async () => {
  await server.stop();
});

const rows = (page: Page) => page.getByTestId('location-row');
const names = (page: Page, count: number) =>
  rows(page).evaluateAll(
    (elements, count) => elements.slice(0, count).map((row) => row.querySelector('[role="gridcell"]')!.textContent),
    count,
  );
const scroller = (page: Page) => page.getByTestId('locations-scroll');

async function openClient(page: Page): Promise<void> {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.goto(clientUrl);
  await expect(page.getByTestId('shown-count')).toHaveText(`${BRANCHES + 5} locations`);
}

test('names sort naturally (Store 2 before Store 10 before Store 102), both ways', async ({ page }) => {
  await openClient(page);
  await page.getByRole('searchbox').fill('store');
  await expect(page.getByTestId('shown-count')).toHaveText(`5 of ${BRANCHES + 5} locations`);
  await expect.poll(() => names(page, 5)).toEqual(['Store 1', 'Store 2', 'Store 10', 'Store 15', 'Store 102']);
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => names(page, 5)).toEqual(['Store 102', 'Store 15', 'Store 10', 'Store 2', 'Store 1']);
  // The health reasons are the server's words, the same as the import preview's.
  await expect(rows(page).first()).toContainText('To improve:');
  await expect(rows(page).first()).toContainText('No phone number');
});

test('the store code has its column, sorted naturally (OAK-2 before OAK-10); a row without one sorts last', async ({
  page,
}, testInfo) => {
  await openClient(page);
  await page.getByRole('button', { name: 'Store code' }).click();
  await expect(page.getByRole('columnheader', { name: 'Store code' })).toHaveAttribute('aria-sort', 'ascending');
  const codes = () =>
    rows(page).evaluateAll((elements) =>
      elements.slice(0, 6).map((row) => row.querySelectorAll('[role="gridcell"]')[1]!.textContent),
    );
  await expect.poll(codes).toEqual(['OAK-1', 'OAK-2', 'OAK-10', 'OAK-15', 'OAK-102', '—']);
  await expect(page).toHaveURL(/sort=store_code/);
  await snap(page, testInfo, 'locations-by-store-code');
});

test('the panel gives every day of the week: closed is closed, a day the hours leave out is "Not given"', async ({
  page,
}) => {
  await openClient(page);
  await page.getByRole('searchbox').fill('store 15');
  await rows(page).filter({ hasText: 'Store 15' }).click();
  const hours = page.getByTestId('location-panel').locator('.panel-hours li');
  await expect(hours).toHaveText([
    'Mon 09:00–17:00',
    'Tue 09:00–17:00',
    'Wed 09:00–17:00',
    'Thu 09:00–17:00',
    'Fri 09:00–17:00',
    'Sat Closed',
    'Sun Not given',
  ]);
});

test('an open panel takes its room beside the table: its last column is a scroll away, not under the panel (a walk)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openClient(page);
  await page.getByRole('searchbox').fill('store 15');
  await rows(page).filter({ hasText: 'Store 15' }).click();
  const panel = (await page.getByTestId('location-panel').boundingBox())!;
  const table = (await scroller(page).boundingBox())!;
  expect(table.x + table.width).toBeLessThanOrEqual(panel.x);
  await scroller(page).evaluate((element) => (element.scrollLeft = element.scrollWidth));
  const created = (await page.getByRole('columnheader', { name: 'Created' }).boundingBox())!;
  expect(created.x + created.width).toBeLessThanOrEqual(panel.x);
  // A window too narrow for both keeps the table whole, with the panel over it.
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect
    .poll(async () => {
      const narrow = (await scroller(page).boundingBox())!;
      return narrow.x + narrow.width > (await page.getByTestId('location-panel').boundingBox())!.x;
    })
    .toBe(true);
});

test('a changed filter shows its results from the top', async ({ page }) => {
  await openClient(page);
  await scroller(page).evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(rows(page).filter({ hasText: 'Store 102' })).toBeVisible();
  await page.getByRole('searchbox').fill('branch');
  await expect(page.getByTestId('shown-count')).toHaveText(`${BRANCHES} of ${BRANCHES + 5} locations`);
  await expect.poll(() => scroller(page).evaluate((element) => element.scrollTop)).toBe(0);
  await expect(rows(page).first()).toContainText('Branch 001');
  await expect(rows(page).first()).toBeInViewport();

  await scroller(page).evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
  await page.getByRole('combobox', { name: 'Health' }).selectOption('red');
  await expect.poll(() => scroller(page).evaluate((element) => element.scrollTop)).toBe(0);
  await expect(rows(page).first()).toContainText('Branch 002');
});

test('search, health, sort and the open location stay in the address across a reload', async ({ page }) => {
  await openClient(page);
  await page.getByRole('searchbox').fill('branch 01');
  await page.getByRole('combobox', { name: 'Health' }).selectOption('red');
  await page.getByRole('button', { name: 'City' }).click();
  await page.getByRole('button', { name: 'City' }).click();
  await expect(page.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'descending');
  // The header says the sort at once; the rows follow from the list's worker. Click once they have.
  const sorted = ['Branch 012', 'Branch 018', 'Branch 014', 'Branch 010', 'Branch 016'];
  await expect.poll(() => names(page, 5).then((list) => list.map((name) => name?.slice(0, 10)))).toEqual(sorted);
  await rows(page).filter({ hasText: 'Branch 012' }).click();
  await expect(page.getByTestId('location-panel').getByRole('heading', { level: 2 })).toContainText('Branch 012');
  const address = new URL(page.url());
  expect(address.searchParams.get('q')).toBe('branch 01');
  expect(address.searchParams.get('health')).toBe('red');
  expect(address.searchParams.get('sort')).toBe('-city');
  expect(address.searchParams.get('location')).toMatch(/^[0-9a-f-]{36}$/);

  await page.reload();
  await expect(page.getByRole('searchbox')).toHaveValue('branch 01');
  await expect(page.getByRole('combobox', { name: 'Health' })).toHaveValue('red');
  await expect(page.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('shown-count')).toHaveText(`5 of ${BRANCHES + 5} locations`);
  // Branches 010-019 without an address (even numbers), by city from Denver down to Austin; a tie keeps import order.
  await expect.poll(() => names(page, 5).then((list) => list.map((name) => name?.slice(0, 10)))).toEqual(sorted);
  const panel = page.getByTestId('location-panel');
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('Branch 012');
  await expect(panel).toContainText('Denver');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();
  expect(new URL(page.url()).searchParams.get('location')).toBeNull();
});

test('a reload of the client page asks for the clients and its first rows at once, each once', async ({ page }) => {
  await openClient(page);
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname, searchParams } = new URL(request.url());
    if (pathname === '/api/me') asked.push('me');
    if (pathname === '/api/clients') asked.push('clients');
    if (pathname === '/api/locations' && searchParams.get('offset') === '0') asked.push('first page');
  });
  await page.reload();
  await expect(page.getByTestId('shown-count')).toHaveText(`${BRANCHES + 5} locations`);
  await expect(rows(page).first()).toBeVisible();
  // Asked as the script starts, before the page has drawn (the top bar's /api/me is asked once it has),
  // and the page takes those answers instead of asking again.
  expect(asked).toEqual(['clients', 'first page', 'me']);
});

test('Back and Forward step through the view: a location opened, a filter, a sort; typed search is one step', async ({
  page,
}) => {
  await openClient(page);
  const param = (name: string) => new URL(page.url()).searchParams.get(name);
  const panel = page.getByTestId('location-panel');
  await page.getByRole('searchbox').pressSequentially('store');
  await page.getByRole('combobox', { name: 'Health' }).selectOption('green');
  await page.getByRole('button', { name: 'City' }).click();
  // One city: the tie keeps import order. Click once the sorted rows are on screen.
  await expect.poll(() => names(page, 5)).toEqual(['Store 102', 'Store 15', 'Store 2', 'Store 10', 'Store 1']);
  await rows(page).filter({ hasText: 'Store 15' }).click();
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('Store 15');

  await page.goBack();
  await expect(panel).toBeHidden();
  expect(param('sort')).toBe('city');
  await page.goBack();
  await expect(page.getByRole('columnheader', { name: 'City' })).not.toHaveAttribute('aria-sort', 'ascending');
  expect(param('health')).toBe('green');
  await page.goBack();
  await expect(page.getByRole('combobox', { name: 'Health' })).toHaveValue('all');
  // The search typed a letter at a time is one step: its first letter made it, the others edited it.
  expect(param('q')).toBe('store');
  await page.goBack();
  await expect(page.getByRole('searchbox')).toHaveValue('');
  expect(param('q')).toBeNull();
  for (let step = 0; step < 4; step++) await page.goForward();
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('Store 15');
  expect([param('q'), param('health'), param('sort')]).toEqual(['store', 'green', 'city']);
});

test('the keyboard reaches the rows, arrows move between them and Enter opens one', async ({ page }) => {
  await openClient(page);
  // The last header control is the Created column's width; the next Tab stop is the first row.
  await page.getByRole('separator', { name: 'Width of the Created column' }).focus();
  await page.keyboard.press('Tab');
  await expect(rows(page).first()).toBeFocused();
  await expect(rows(page).first()).toContainText('Branch 001');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Branch 003');
  await page.keyboard.press('End');
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Store 102');
  await expect(page.locator('[data-testid="location-row"]:focus')).toBeInViewport();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('location-panel');
  await expect(panel.getByRole('heading', { name: 'Store 15' })).toBeFocused();
  await expect(panel).toContainText('15 Oak Street');
  await page.screenshot({ path: '/tmp/locations-panel.png' });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Store 15');
  await page.keyboard.press('Home');
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Branch 001');

  // Past the header in one step: the last button before the table, Tab, then "Skip to the rows".
  await page.keyboard.press('ArrowDown');
  await page.getByRole('button', { name: /^Change the .* locations shown…$/ }).focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('button', { name: 'Skip to the rows' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Branch 002');

  // Back from the rows, the header row is one stop (a walk's Shift+Tab crossed its 18 controls): a
  // column's sort button and its edge; Left and Right move between the columns, and it keeps the last one.
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('separator', { name: 'Width of the Name column' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Name' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Store code' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('button', { name: 'Created' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Tab');
  const healthEdge = page.getByRole('separator', { name: 'Width of the Health column' });
  await expect(healthEdge).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('[data-testid="location-row"]:focus')).toContainText('Branch 002');
  await page.keyboard.press('Shift+Tab');
  await expect(healthEdge).toBeFocused();
});

test('a column widens by dragging its edge or with the arrow keys', async ({ page }) => {
  await openClient(page);
  const header = page.getByRole('columnheader', { name: 'Name' });
  const cell = rows(page).first().getByRole('gridcell').first();
  const before = (await header.boundingBox())!.width;
  const cut = await cell.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(cut).toBe(true);

  const handle = page.getByRole('separator', { name: 'Width of the Name column' });
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 260, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await header.boundingBox())!.width)).toBe(Math.round(before + 260));
  await expect.poll(() => cell.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(false);

  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', String(Math.round(before + 260 - 32)));
  await page.screenshot({ path: '/tmp/locations-resized.png' });
  // The width is remembered: a reload keeps it.
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Width of the Name column' })).toHaveAttribute(
    'aria-valuenow',
    String(Math.round(before + 260 - 32)),
  );
  await page.keyboard.press('Tab');
  await page.getByRole('separator', { name: 'Width of the Name column' }).press('Enter');
  await expect(page.getByRole('separator', { name: 'Width of the Name column' })).toHaveAttribute(
    'aria-valuenow',
    String(Math.round(before)),
  );
});

test('a double-click on a column edge fits it to the longest value shown, wider or narrower', async ({ page }) => {
  await openClient(page);
  const handle = page.getByRole('separator', { name: 'Width of the Name column' });
  const cut = () =>
    rows(page).evaluateAll(
      (list) =>
        list.filter(
          (row) =>
            row.querySelector('[role="gridcell"]')!.scrollWidth > row.querySelector('[role="gridcell"]')!.clientWidth,
        ).length,
    );
  expect(await cut()).toBeGreaterThan(0);
  await handle.dblclick();
  await expect.poll(cut).toBe(0);
  const fitted = Number(await handle.getAttribute('aria-valuenow'));
  await page.screenshot({ path: '/tmp/locations-fitted.png' });
  // From the widest width, a double-click narrows it to the same fit.
  await handle.press('End');
  await expect(handle).toHaveAttribute('aria-valuenow', '1200');
  await handle.dblclick();
  await expect(handle).toHaveAttribute('aria-valuenow', String(fitted));
  await expect.poll(cut).toBe(0);
});

test('the client page has no accessibility violation, with and without the location panel', async ({ page }) => {
  await openClient(page);
  await page.screenshot({ path: '/tmp/locations-table.png' });
  const table = await new AxeBuilder({ page }).analyze();
  expect(table.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await rows(page).first().press('Enter');
  await expect(page.getByTestId('location-panel')).toBeVisible();
  const withPanel = await new AxeBuilder({ page }).analyze();
  expect(withPanel.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});
