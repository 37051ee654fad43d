/**
 * Regular weekly opening hours (README: "Hours"): `{ mon: [["09:00", "17:00"]], ..., sun: [] }`. A day
 * with intervals is open then; an empty day is closed; a day left out is unknown. A closing time at or
 * before the opening time runs past midnight ("18:00"-"02:00"); "24:00" closes at the end of the day.
 */
export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export type Interval = [string, string];
export type Hours = Partial<Record<Day, Interval[]>>;

/** A part of the text in a message, cut short: a message quoted a whole 1,000-character value (a probe). */
function quoted(text: string): string {
  return `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`;
}

/** A reason hours cannot be read; `formHint` when showing the forms that can be would help. */
export class HoursError extends Error {
  constructor(
    message: string,
    readonly formHint = true,
  ) {
    super(message);
  }
}

/**
 * The most intervals a day holds (a split shift, a lunch break and a late opening are three): the bound
 * on what one bulk edit copies onto every location, and what the export's one line of hours can carry
 * back into an import.
 */
export const MAX_INTERVALS = 8;

export const HOURS_FORMS =
  'e.g. "Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed", or per day "09:00-12:00,13:00-17:00", "9am-5pm", "x" (closed)';

// English and OpenStreetMap-style names and abbreviations, as sheets write them, then French, German,
// Spanish and Italian ones (the column step reads those languages' headers: their cells come too).
const DAY_NAMES: Record<string, Day> = {};
for (const [day, names] of [
  ['mon', 'mo mon monday lun lundi montag lunes lunedì lunedi'],
  ['tue', 'tu tue tues tuesday mar mardi di dienstag martes martedì martedi'],
  ['wed', 'we wed weds wednesday mer mercredi mi mittwoch mié mie miércoles miercoles mercoledì mercoledi'],
  ['thu', 'th thu thur thurs thursday jeu jeudi do donnerstag jue jueves gio giovedì giovedi'],
  ['fri', 'fr fri friday ven vendredi freitag vie viernes venerdì venerdi'],
  ['sat', 'sa sat saturday sam samedi samstag sonnabend sáb sab sábado sabado sabato'],
  ['sun', 'su sun sunday dim dimanche so sonntag dom domingo domenica'],
] as const) {
  for (const name of names.split(' ')) DAY_NAMES[name] = day;
}

const CLOSED = /^(x|closed|close|geschlossen|ruhetag|fermé|ferme|cerrado|chiuso|gesloten)$/i;

/**
 * "By appointment" in the languages of the sheets: no regular hours, which a listing's hours cannot say;
 * read as hours unknown (the day, or the week), as a placeholder is (found by a probe).
 */
export const BY_APPOINTMENT =
  /^(by appointment( only)?|by appt\.?|appointment only|nach vereinbarung|termine nach vereinbarung|sur rendez-vous|con cita( previa)?|su appuntamento|op afspraak)$/i;

/**
 * Holidays named beside the days ("So & Feiertage geschlossen", "Mon-Fri 9-5, holidays closed"): holiday
 * hours are not regular hours, so the mention is left out and the days are read (found by a probe).
 */
const HOLIDAYS = String.raw`(?:an\s+)?(?:feiertag(?:e|en|s)?|holidays?|public holidays|bank holidays|jours f[eé]ri[eé]s|f[eé]ri[eé]s|festivos|festivi)`;
// Over text whose spaces are single (a run of spaces made these patterns slow: found by a review).
// A part of its own that names holidays, with whatever it says of them ("holidays closed", "Feiertage
// 10-12"), and holidays joined to a day ("So & Feiertage geschlossen": the day keeps what is said).
const HOLIDAYS_ALONE = new RegExp(String.raw`(^|[,;] ?)(?:closed on )?${HOLIDAYS}\b[^,;]*(?=[,;]|$)`, 'gi');
const HOLIDAYS_BESIDE_DAY = new RegExp(
  String.raw` ?(?:&|\+|/|\bund\b|\band\b|\bet\b|\by\b|\be\b) ?${HOLIDAYS}\b`,
  'gi',
);

/** The week's text (its spaces single) without its mentions of holidays. */
function withoutHolidays(text: string): string {
  return text
    .replace(HOLIDAYS_ALONE, '$1')
    .replace(HOLIDAYS_BESIDE_DAY, '')
    .replace(/[,;] ?$/, '')
    .trim();
}
// All day, as sheets and exports say it: "24 hours", Yext's "24hr", "open 24h", "24/7", French "24h/24",
// German "24 Stunden" and "rund um die Uhr", Spanish "24 horas", Italian "24 ore".
const ALL_DAY =
  /^(?:open )?(?:24 ?(?:h|hr|hrs|hours?|std|stunden|horas|ore)|24\/7|24 ?h ?\/ ?24|all day|rund um die uhr|ganztägig|0?0:00\s*-\s*24:00)$/i;
// 9 | 09 | 9:30 | 9.30 | 17h | 17h30 | 9am | 9:30 pm | 09:00:00 (Yext's seconds, always :00) | 12 noon | midnight
const TIME = /^(\d{1,2})(?:[:.h](\d{2})?(?::00)?)?\s*(am|pm|a\.m\.|p\.m\.|a|p)?$/i;
// A 24-hour clock without a separator, as Yext documents it: 1500, 0930.
const MILITARY = /^([01]\d|2[0-4])([0-5]\d)$/;

function time(text: string): string {
  // "16 Uhr": German sheets may say the hour's word.
  const word = text
    .trim()
    .toLowerCase()
    .replace(/\s*uhr$/, '');
  if (word === 'noon') return '12:00';
  if (word === 'midnight') return '24:00';
  const match = TIME.exec(word) ?? MILITARY.exec(word);
  if (match === null) throw new HoursError(`${quoted(text.trim())} is not a time`);
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? '0');
  const meridiem = match[3]?.[0];
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) throw new HoursError(`${quoted(text.trim())} is not a time`);
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  if (hour > 24 || minute > 59 || (hour === 24 && minute > 0))
    throw new HoursError(`${quoted(text.trim())} is not a time`);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

const RANGE = /\s*(?:-|–|—|to|until|bis|à)\s*/i;

// A closing hour written short: 1 to 11, no leading zero, no am/pm, at most minutes ("5", "5:30").
const SHORT_CLOSE = /^([1-9]|1[01])(?:[:.]\d{2})?$/;
const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

/**
 * US sheets write the afternoon without pm: "9-5", "10-2", "11-9:30", "7-7", "9am-5". A closing time
 * written short (SHORT_CLOSE) at or before the opening is read in the afternoon when that still closes
 * after the opening: 9-5 is 09:00-17:00. "22-2", "9pm-5" and "18-1" stay past midnight (the afternoon
 * would close before they open), and "09:00-05:00", a 24-hour clock's, is kept as written.
 */
function shortAfternoon(closeText: string, open: string, close: string): string {
  if (!SHORT_CLOSE.test(closeText.trim())) return close;
  const [from, to] = [minutesOf(open), minutesOf(close)];
  return to <= from && to + 720 > from ? `${String(Number(close.slice(0, 2)) + 12)}${close.slice(2)}` : close;
}

// An opening hour written short: 1 to 4, no leading zero, no am/pm, at most minutes ("1", "2:30"). Not 5
// and later: "5-11" may be a breakfast's morning as well as a dinner's evening, and stays as written.
const SHORT_OPEN = /^[1-4](?:[:.]\d{2})?$/;
// A closing time that reads on a 12-hour clock: short (SHORT_CLOSE, or 12) or in the afternoon ("5pm").
const TWELVE_HOUR_CLOSE = /^(?:([1-9]|1[0-2])(?:[:.]\d{2})?|\d{1,2}(?:[:.]\d{2})?\s*(?:pm|p\.m\.|p))$/i;

/**
 * US sheets write an afternoon opening short too: "Sun 1-5", "8-12, 1-5", "1-5pm" open at 13:00 (a walk's
 * were stored as 01:00-05:00). An opening hour of 1 to 4 written short, before a closing time on a
 * 12-hour clock, is the afternoon's; "1-5am", "01:00-05:00" and "1-17" (a 24-hour clock's) are kept.
 */
function shortAfternoonOpen(openText: string, closeText: string, open: string): string {
  if (!SHORT_OPEN.test(openText.trim()) || !TWELVE_HOUR_CLOSE.test(closeText.trim())) return open;
  return `${String(Number(open.slice(0, 2)) + 12)}${open.slice(2)}`;
}

/** One day's value: "09:00-17:00", "9am-12pm, 1pm-5pm", "x", "closed", "24 hours". */
export function dayIntervals(text: string): Interval[] {
  const value = text.trim();
  if (CLOSED.test(value)) return [];
  if (ALL_DAY.test(value)) return [['00:00', '24:00']];
  // "9-13, 15-19", "9-13 & 15-19", and "and" in the languages the day names are read in ("8-12 und 14-18 Uhr").
  const parts = value.split(/\s*(?:,|;|&|\b(?:and|und|et|y|e)\b|\/)\s*/i);
  if (parts.length > MAX_INTERVALS)
    throw new HoursError(
      `a day holds at most ${MAX_INTERVALS} intervals; "${value.slice(0, 40)}…" has ${parts.length}`,
      false,
    );
  return parts.map((part) => {
    const ends = part.split(RANGE);
    if (ends.length !== 2 || ends[0] === '' || ends[1] === '')
      throw new HoursError(`${quoted(part)} is not a time range such as 09:00-17:00`);
    const open = shortAfternoonOpen(ends[0]!, ends[1]!, time(ends[0]!));
    // "Midnight-2am" opens at the start of the day; "24:00-02:00" at its end, which is the next day's start.
    if (open === '24:00' && !/^\s*midnight/i.test(ends[0]!))
      throw new HoursError(
        `${quoted(part)} opens at 24:00, the end of the day: write the hours after midnight on the next day, from 00:00`,
        false,
      );
    const close = shortAfternoon(ends[1]!, open, time(ends[1]!));
    // "12:00 AM - 12:00 AM" is Yext's documented all day; "00:00-00:00" others'.
    if (open === '00:00' && close === '00:00' && parts.length === 1) return ['00:00', '24:00'] as Interval;
    if (open === close) throw new HoursError(`${quoted(part)} opens and closes at the same time`);
    return [open === '24:00' ? '00:00' : open, close === '00:00' ? '24:00' : close] as Interval;
  });
}

/** An interval's minutes from Monday 00:00; one that closes at or before it opens runs into the next day. */
function weekSpan(day: number, [open, close]: Interval): [number, number] {
  const [from, to] = [minutesOf(open), minutesOf(close)];
  return [day * 1440 + from, day * 1440 + to + (to <= from ? 1440 : 0)];
}

/**
 * Refuses intervals that overlap (Google's rule: a listing's periods may not), within a day or across
 * midnight into the next one, Sunday's into Monday's: "Mon 12:00-18:00 overlaps Mon 09:00-17:00".
 */
export function refuseOverlaps(hours: Hours): void {
  const spans = DAYS.flatMap((day, at) =>
    (hours[day] ?? []).map((interval) => ({ day, interval, span: weekSpan(at, interval) })),
  ).sort((a, b) => a.span[0] - b.span[0]);
  const words = (each: (typeof spans)[number]) => `${dayLabel(each.day)} ${each.interval.join('-')}`;
  const overlap = (next: (typeof spans)[number], earlier: (typeof spans)[number]) =>
    new HoursError(`${words(next)} overlaps ${words(earlier)}: a listing's hours may not overlap`, false);
  /** The span seen so far that closes last. */
  let reach: (typeof spans)[number] | undefined;
  for (const next of spans) {
    if (reach !== undefined && next.span[0] < reach.span[1]) throw overlap(next, reach);
    if (reach === undefined || next.span[1] > reach.span[1]) reach = next;
  }
  // Sunday's past midnight is Monday's: what closes last, a week earlier, against what opens first.
  const [first] = spans;
  if (first !== undefined && reach !== undefined && first.span[0] < reach.span[1] - 7 * 1440)
    throw overlap(first, reach);
}

function dayOf(word: string): Day | undefined {
  return DAY_NAMES[word.trim().toLowerCase().replace(/\.$/, '')];
}

/** "Mon-Fri", "Mon, Wed & Fri", "Sa": the days, in week order from the first. */
function daysOf(text: string): Day[] {
  const days: Day[] = [];
  for (const part of text.split(/\s*(?:,|&|\+|\/|\b(?:and|et|und)\b)\s*/i)) {
    const ends = part.split(/\s*(?:-|–|—|\b(?:to|through|thru|au|bis|al?)\b)\s*/i);
    const first = dayOf(ends[0]!);
    const last = ends.length === 2 ? dayOf(ends[1]!) : first;
    if (first === undefined || last === undefined || ends.length > 2)
      throw new HoursError(`${quoted(part)} is not a day`);
    for (let at = DAYS.indexOf(first); ; at = (at + 1) % 7) {
      days.push(DAYS[at]!);
      if (DAYS[at] === last) break;
    }
  }
  return days;
}

// Any day name above, the longest first (so that "monday" is not read as "mo" and a stray "nday").
const DAY_WORD = `(?:${Object.keys(DAY_NAMES)
  .sort((a, b) => b.length - a.length)
  .join('|')})\\.?`;
// Between two day words only: "Lunes a viernes" (its "a" is no separator anywhere else).
const DAY_SEPARATOR = '\\s*(?:-|–|—|to|through|thru|au|bis|al?|,|&|and|et|und|\\+|/)\\s*';
/** A run of days that starts a group: "Mon-Fri", "Sat & Sun", "Monday:". */
const DAY_RUN = new RegExp(`\\b${DAY_WORD}(?:${DAY_SEPARATOR}${DAY_WORD})*(?![a-z])\\s*:?`, 'gi');

// Uberall's form: "MONDAY=08:00-16:00;TUESDAY=08:00-15:00&17:00-19:00;SATURDAY;SUNDAY" or with "Mo=", a
// day alone being closed (its location export's openingHours column).
const UBERALL_DAY = /^\s*([a-z]+)\s*(?:=(.*))?$/i;

function uberallHours(value: string): Hours {
  const hours: Hours = {};
  for (const part of value.split(';')) {
    if (part.trim() === '') continue;
    const match = UBERALL_DAY.exec(part);
    const day = match === null ? undefined : dayOf(match[1]!);
    if (match === null || day === undefined) throw new HoursError(`${quoted(part.trim())} is not a day`);
    const times = match[2]?.trim() ?? '';
    addDay(hours, day, times === '' ? [] : dayIntervals(times));
  }
  return hours;
}

/**
 * A day's intervals added to what an earlier mention of it said: "Mon 9:00-12:00, Mon 14:00-18:00" is both,
 * while a day both closed and open is an error (which one is meant?). `replace`: the earlier mention is
 * let go ("Daily 9-17, Sun closed": a day named alone after a run of days says how that day differs).
 */
function addDay(hours: Hours, day: Day, intervals: Interval[], replace = false): void {
  const earlier = hours[day];
  if (earlier === undefined || replace) {
    hours[day] = [...intervals];
    return;
  }
  if ((earlier.length === 0) !== (intervals.length === 0)) {
    throw new HoursError(`${dayLabel(day)} is said to be both closed and open`);
  }
  if (earlier.length + intervals.length > MAX_INTERVALS)
    throw new HoursError(`${dayLabel(day)} is given more than ${MAX_INTERVALS} intervals, the most a day holds`, false);
  earlier.push(...intervals);
}

// Yext's legacy form (its Locations API and older exports' hours cell): "2:9:00:17:00,3:9:00:17:00,1:closed",
// d:oh:om:ch:cm with d from 1 (Sunday) to 7 (Saturday); a day twice is split hours, 00:00 to 00:00 all day.
const YEXT_DAY = String.raw`\s*[1-7]\s*:\s*(?:closed|\d{1,2}:\d{2}\s*:\s*\d{1,2}:\d{2})\s*`;
const YEXT_LEGACY = new RegExp(String.raw`^${YEXT_DAY}(?:,${YEXT_DAY})*$`, 'i');
const YEXT_DAYS: readonly Day[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Yext's legacy hours; a day it leaves out is closed, as Yext documents it, once one day is given. */
function yextLegacyHours(text: string): Hours {
  const hours: Hours = {};
  for (const part of text.split(',')) {
    const [day, ...times] = part.split(':').map((piece) => piece.trim());
    const intervals = /^closed$/i.test(times[0]!)
      ? []
      : dayIntervals(`${times[0]}:${times[1]}-${times[2]}:${times[3]}`);
    addDay(hours, YEXT_DAYS[Number(day) - 1]!, intervals);
  }
  for (const day of DAYS) hours[day] ??= [];
  return hours;
}

/** The week in one text, "Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed" (README: "Hours"). */
export function weekHours(text: string): Hours {
  if (/^\s*[a-z]+\s*=/i.test(text)) return uberallHours(text);
  if (YEXT_LEGACY.test(text)) return yextLegacyHours(text);
  const hours: Hours = {};
  if (BY_APPOINTMENT.test(text.trim())) return hours;
  const value = withoutHolidays(text.trim().replace(/\s+/g, ' '))
    .replace(/^(daily|every ?day|all week|7 days)\b:?/i, 'Mon-Sun')
    // US sheets' shorthands: "M-F 9-5", "Weekdays 9-5; Weekends closed" (single letters are no day
    // names anywhere else: the "m" of "p.m." would read as Monday).
    .replace(/\b(?:weekdays?|m ?- ?f)\b/gi, 'Mon-Fri')
    .replace(/\bweekends?\b/gi, 'Sat-Sun');
  if (value === '') return hours;
  // "24/7", "Open 24 hours": every day, all day.
  if (ALL_DAY.test(value)) return Object.fromEntries(DAYS.map((day) => [day, [['00:00', '24:00']]]));
  const runs = [...value.matchAll(DAY_RUN)];
  if (runs.length === 0 || runs[0]!.index !== 0) throw new HoursError(`${quoted(value)} does not start with a day`);
  /** The days a run of several named: a day named alone later says how it differs from them. */
  const fromRuns = new Set<Day>();
  runs.forEach((run, i) => {
    const end = i + 1 < runs.length ? runs[i + 1]!.index : value.length;
    const times = value
      .slice(run.index + run[0].length, end)
      .trim()
      .replace(/[,;|/]$/, '')
      .trim();
    if (times === '') throw new HoursError(`no hours after ${quoted(run[0].trim())}`);
    const intervals = intervalsAfterDays(times);
    const days = daysOf(run[0].replace(/:$/, ''));
    for (const day of days) {
      addDay(hours, day, intervals, days.length === 1 && fromRuns.has(day));
      if (days.length === 1) fromRuns.delete(day);
      else fromRuns.add(day);
    }
  });
  return hours;
}

/**
 * The intervals written after a run of days. A word there that is neither a time nor "closed" is most
 * likely a day this reader does not know ("Sun closed, Funday 9-5"): the error names that part.
 */
function intervalsAfterDays(times: string): Interval[] {
  try {
    return dayIntervals(times);
  } catch (error) {
    const stray = times
      .split(/\s*[,;]\s*/)
      .find(
        (part) =>
          /^\p{L}{2,}/u.test(part) && !CLOSED.test(part) && !ALL_DAY.test(part) && !/^(noon|midnight)\b/i.test(part),
      );
    if (stray !== undefined) throw new HoursError(`${quoted(stray)} does not start with a day`);
    throw error;
  }
}

/**
 * An import's hours over a location's, a day at a time, when blank cells keep what is stored (README,
 * "Blank cells"): a day the row gives replaces that day, and a day it leaves out (a blank "Saturday hours"
 * cell, a day its one "Hours" text does not name) keeps the stored one. `given` itself when it keeps no
 * stored day (the usual row gives the whole week); else a new week, whose days may overlap where the kept
 * ones meet the given ones (Friday's stored hours past midnight into Saturday's new ones): the import
 * checks that week.
 */
export function hoursByDay(stored: Hours, given: Hours): Hours {
  let kept = false;
  for (const day of DAYS) kept ||= given[day] === undefined && stored[day] !== undefined;
  if (!kept) return given;
  const merged: Hours = {};
  for (const day of DAYS) {
    const intervals = given[day] ?? stored[day];
    if (intervals !== undefined) merged[day] = intervals;
  }
  return merged;
}

/** Hours in their stored order (Monday first), or null when no day is known. */
export function orderedHours(hours: Hours): Hours | null {
  const ordered: Hours = {};
  let known = false;
  for (const day of DAYS) {
    const intervals = hours[day];
    if (intervals === undefined) continue;
    ordered[day] = [...intervals].sort((a, b) => a[0].localeCompare(b[0]));
    known = true;
  }
  return known ? ordered : null;
}

const DAY_WORDS: Record<Day, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** The forms one day's value takes (a sheet's "Wednesday hours" cell): the week's forms would mislead there. */
const DAY_FORMS = 'e.g. "09:00-17:00", "09:00-12:00,13:00-17:00", "9am-5pm", or "x" (closed)';

/**
 * One day's value read (dayIntervals), its error naming the day and the forms of a day: a walk's
 * "Wednesday hours" cell was refused for the row's hours, and a week's form in a day's cell was told to
 * write the week's form.
 */
export function oneDayIntervals(day: Day, text: string): Interval[] {
  try {
    return dayIntervals(text);
  } catch (error) {
    if (!(error instanceof HoursError)) throw error;
    const hint = error.formHint ? `: write ${DAY_WORDS[day]}'s hours alone, ${DAY_FORMS}` : '';
    throw new HoursError(`${DAY_WORDS[day]}: ${error.message}${hint}`, false);
  }
}

/** "Mon" for mon: how a day is written back, in the export's line and the dashboard's. */
export const dayLabel = (day: Day): string => day[0]!.toUpperCase() + day.slice(1);

/** Hours as one line, the form weekHours reads back: "Mon 09:00-17:00; Tue 09:00-17:00; Sun closed". */
export function hoursText(hours: Hours): string {
  return DAYS.filter((day) => hours[day] !== undefined)
    .map((day) => {
      const intervals = hours[day]!;
      return `${dayLabel(day)} ${intervals.length === 0 ? 'closed' : intervals.map(([a, b]) => `${a}-${b}`).join(',')}`;
    })
    .join('; ');
}
