/** How dates and numbers read in the dashboard, in the user's locale. */
const numberFormat = new Intl.NumberFormat();

/** An ISO timestamp in the format's words; the text as it is when it is not a date. */
const formatted = (format: Intl.DateTimeFormat) => (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
};

/** "Nov 24, 2026". */
export const formatDate = formatted(
  new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }),
);

/** "Nov 24, 2026, 9:41 AM": when something happened, for a history. */
export const formatDateTime = formatted(
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
);

export const formatCount = (count: number): string => numberFormat.format(count);

/** "1 location", "1,204 locations". */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** "the flagged row", "all 2 flagged rows": every one of `count`, worded for one as for many. */
export const everyOne = (count: number, one: string, many = `${one}s`): string =>
  count === 1 ? `the ${one}` : `all ${plural(count, one, many)}`;

/** "line 3", or "lines 2, 5, 9, …": the first `lines` of `count` rows, the dots when there are more. */
export const linesWords = (lines: readonly number[], count: number): string =>
  `line${lines.length > 1 ? 's' : ''} ${lines.map(formatCount).join(', ')}${count > lines.length ? ', …' : ''}`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
