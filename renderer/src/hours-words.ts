import { dayLabel, DAYS, type Day, type Hours } from '../../server/locations/hours.js';

/** An open day's intervals as the dashboard writes them: "07:00–19:00", "08:00–12:00, 13:00–17:00". */
export const intervalsWords = (intervals: readonly (readonly string[])[]): string =>
  intervals.map(([from, to]) => `${from}–${to}`).join(', ');

/** One day's hours in words: intervalsWords, or "closed"; null when unknown. */
function dayText(intervals: Hours[Day]): string | null {
  if (intervals === undefined) return null;
  return intervals.length === 0 ? 'closed' : intervalsWords(intervals);
}

/**
 * The week on one short line, days with the same hours run together: "Mon–Thu 07:00–19:00 · Fri
 * 07:00–21:00 · Sun closed". A day the hours leave out (unknown) is left out here too.
 */
export function weekWords(hours: Hours): string {
  const runs: { from: Day; to: Day; text: string }[] = [];
  let previous: string | null = null;
  for (const day of DAYS) {
    const text = dayText(hours[day]);
    const last = runs.at(-1);
    if (text !== null && text === previous && last !== undefined) last.to = day;
    else if (text !== null) runs.push({ from: day, to: day, text });
    previous = text;
  }
  return runs
    .map(({ from, to, text }) => `${from === to ? dayLabel(from) : `${dayLabel(from)}–${dayLabel(to)}`} ${text}`)
    .join(' · ');
}
