import type { Page } from '@playwright/test';
import type { Record } from './report.js';

/**
 * Main-thread long tasks (> 50 ms) in a bench's page: collected from the page's start on by an init
 * script, then read back for a span of the page's clock (performance.now()).
 */

/** An init script: every long task of the page, kept in `window.__longTasks`. */
export const COLLECT_LONG_TASKS = () => {
  const tasks: { start: number; duration: number }[] = [];
  (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
};

/** The page's clock. */
export const now = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** The longest task that overlaps [start, end] of the page's clock; 0 when none was over 50 ms. */
export async function longestTaskBetween(page: Page, start: number, end: number): Promise<number> {
  return page.evaluate(
    ({ start, end }) => {
      const tasks = (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks;
      return tasks
        .filter((task) => task.start + task.duration >= start && task.start <= end)
        .reduce((longest, task) => Math.max(longest, task.duration), 0);
    },
    { start, end },
  );
}

/** A long task this long or longer is a frame missed: the tables' target (issue 9 §2b). */
const TASK_TARGET_MS = 50;

/** A longest task as a figure: against the 50 ms target when `targeted`, else printed only. */
export function recordTask(record: Record, name: string, value: number, targeted: boolean): void {
  if (!targeted) return record({ name, value, unit: 'ms' });
  record({ name, value, unit: 'ms', target: `< ${TASK_TARGET_MS} ms`, pass: value < TASK_TARGET_MS });
}

/**
 * Records the longest task from `span.start` to `span.end` (now when not given), against the 50 ms
 * target when `targeted`, else printed only.
 */
export async function recordLongestTask(
  page: Page,
  record: Record,
  name: string,
  span: { start: number; end?: number },
  targeted: boolean,
): Promise<void> {
  recordTask(record, name, await longestTaskBetween(page, span.start, span.end ?? (await now(page))), targeted);
}
