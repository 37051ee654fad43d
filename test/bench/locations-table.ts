import type { Page } from '@playwright/test';
import { longestTaskBetween, now, recordLongestTask, recordTask } from './long-tasks.js';
import { median, type Record } from './report.js';

/**
 * The client page's locations table with 100,000 rows (issue 9 §2b), in a page that is signed in and
 * collects long tasks (COLLECT_LONG_TASKS): the first rows after navigation, then the longest
 * main-thread task while the rest loads, while wheel-scrolling, sorting and filtering. Target: no task
 * over 50 ms, first rows within 300 ms.
 */

const ROW = '[data-testid="location-row"]';
const FIRST_ROWS_TARGET_MS = 300;

/** Set before the page's own scripts: when the first row enters the DOM, in the page's clock. */
const WATCH_FIRST_ROW = () => {
  const state = window as unknown as { __firstRowAt?: number };
  new MutationObserver((_changes, observer) => {
    if (document.querySelector('[data-testid="location-row"]')) {
      state.__firstRowAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

/** Waits until the table answers the current view and every row has arrived. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const grid = document.querySelector('[role="grid"][aria-label="Locations"]');
      return grid?.getAttribute('aria-busy') === 'false';
    },
    undefined,
    { timeout: 120_000, polling: 10 },
  );
}

// Navigations timed: one is at the mercy of the machine's load (a single one ran 250 to 650 ms on this machine).
const LOADS = 5;

/** One navigation: when its first row showed, and when every row had arrived, in the page's clock. */
async function load(page: Page, clientUrl: string, rows: number): Promise<{ firstRows: number; loaded: number }> {
  await page.goto(clientUrl);
  await page.waitForSelector(ROW, { timeout: 60_000 }).catch(async (error: unknown) => {
    await page.screenshot({ path: '/tmp/locations-bench-failed.png' });
    throw error;
  });
  const firstRows = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
  await page
    .getByTestId('shown-count')
    .filter({ hasText: new RegExp(`^${rows.toLocaleString('en')} locations$`) })
    .waitFor({ timeout: 120_000 });
  await settled(page);
  return { firstRows, loaded: await now(page) };
}

async function measureLoad(page: Page, clientUrl: string, rows: number, record: Record): Promise<void> {
  const runs: { firstRows: number; loaded: number; longest: number }[] = [];
  for (let run = 0; run < LOADS; run++) {
    const { firstRows, loaded } = await load(page, clientUrl, rows);
    // Each navigation's own long tasks and clock: the next one starts a new page with new ones.
    runs.push({ firstRows, loaded, longest: await longestTaskBetween(page, 0, loaded) });
  }
  console.log(
    `  navigations (ms): first rows ${runs.map((run) => Math.round(run.firstRows)).join(' ')}; every row ${runs.map((run) => Math.round(run.loaded)).join(' ')}; longest task ${runs.map((run) => Math.round(run.longest)).join(' ')} (0: none over 50)`,
  );
  const firstRows = median(runs.map((run) => run.firstRows));
  record({
    name: `client page with ${rows.toLocaleString('en')} locations: navigation to first rows, median of ${LOADS}`,
    value: firstRows,
    unit: 'ms',
    target: `< ${FIRST_ROWS_TARGET_MS} ms`,
    pass: firstRows < FIRST_ROWS_TARGET_MS,
  });
  record({
    name: 'navigation to every row loaded (sorted by name), median',
    value: median(runs.map((run) => run.loaded)),
    unit: 'ms',
  });
  recordTask(
    record,
    `longest main-thread task from navigation to every row loaded, in all ${LOADS} navigations`,
    Math.max(...runs.map((run) => run.longest)),
    true,
  );
}

async function measureScroll(page: Page, record: Record): Promise<void> {
  const box = (await page.getByTestId('locations-scroll').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const start = await now(page);
  // A fast spin of the wheel: 100 px a notch, a notch a frame, down for 2 s and back up for 1 s.
  for (let step = 0; step < 180; step++) {
    await page.mouse.wheel(0, step < 120 ? 100 : -200);
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(300);
  await recordLongestTask(
    page,
    record,
    'longest main-thread task while wheel-scrolling (180 notches, one a frame)',
    { start },
    true,
  );
}

async function measureSort(page: Page, record: Record): Promise<void> {
  const start = await now(page);
  const times: number[] = [];
  for (const column of ['City', 'Name', 'Postal code', 'Address']) {
    const clicked = await now(page);
    await page.getByRole('button', { name: column, exact: true }).click();
    await settled(page);
    times.push((await now(page)) - clicked);
  }
  await page.waitForTimeout(200);
  console.log(
    `  sort click to sorted rows (ms): ${times.map(Math.round).join(' ')} (City, Name, Postal code, Address)`,
  );
  record({ name: 'slowest sort, from the click to the sorted rows', value: Math.max(...times), unit: 'ms' });
  await recordLongestTask(page, record, 'longest main-thread task while sorting 4 times', { start }, true);
}

async function measureFilter(page: Page, record: Record): Promise<void> {
  const search = page.getByRole('searchbox');
  await search.click();
  const start = await now(page);
  await page.keyboard.type('roasters #99', { delay: 60 });
  await settled(page);
  const typed = await now(page);
  await page.getByRole('combobox', { name: 'Health' }).selectOption('green');
  await settled(page);
  await search.fill('');
  await page.getByRole('combobox', { name: 'Health' }).selectOption('all');
  await settled(page);
  await page.waitForTimeout(200);
  record({ name: 'typing a 12-character search, to its rows shown', value: typed - start, unit: 'ms' });
  await recordLongestTask(
    page,
    record,
    'longest main-thread task while filtering (typing, health, clearing)',
    { start },
    true,
  );
}

/** The measurements, in order, on a page already signed in whose client has `rows` locations. */
export async function measureLocationsTable(
  page: Page,
  clientUrl: string,
  rows: number,
  record: Record,
): Promise<void> {
  await page.addInitScript(WATCH_FIRST_ROW);
  await measureLoad(page, clientUrl, rows, record);
  await measureScroll(page, record);
  await measureSort(page, record);
  await measureFilter(page, record);
}
