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
  return daysWords(hours, DAYS, null);
}

/**
 * The days two weeks' hours differ on, each side in weekWords' form, a day one side leaves out written
 * "not given": what a diff shows of a change of hours. The whole week on both sides hid which day changed
 * (a walk missed a Saturday that went). Either side null (no hours): that side is empty, the other whole.
 */
export function hoursChange(from: Hours | null, to: Hours | null): { from: string; to: string } {
  if (from === null || to === null) return { from: from ? weekWords(from) : '', to: to ? weekWords(to) : '' };
  const days = DAYS.filter((day) => JSON.stringify(from[day]) !== JSON.stringify(to[day]));
  return { from: daysWords(from, days, 'not given'), to: daysWords(to, days, 'not given') };
}

/** These days' hours, days with the same hours run together; a day left out is `unknown`'s words, or skipped (null). */
function daysWords(hours: Hours, days: readonly Day[], unknown: string | null): string {
  const runs: { from: Day; to: Day; text: string }[] = [];
  let previous: string | null = null;
  let lastDay = -2;
  for (const day of days) {
    const at = DAYS.indexOf(day);
    const text = dayText(hours[day]) ?? unknown;
    // A run is of days next to each other: Mon and Wed changed, Tue not, are two.
    if (at !== lastDay + 1) previous = null;
    lastDay = at;
    const last = runs.at(-1);
    if (text !== null && text === previous && last !== undefined) last.to = day;
    else if (text !== null) runs.push({ from: day, to: day, text });
    previous = text;
  }
  return runs
    .map(({ from, to, text }) => `${from === to ? dayLabel(from) : `${dayLabel(from)}–${dayLabel(to)}`} ${text}`)
    .join(' · ');
}
