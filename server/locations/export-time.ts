/**
 * The time a location was last changed, as the export writes it in its Updated column
 * ("2026-12-06T18:25:26.123Z"), read back from a re-imported file: an update to a location changed since
 * would put back the file's older values (the dry run's changed_since, README: "Changed since the export").
 * A spreadsheet may rewrite it as "2026-12-06 18:25:26" or add an offset ("+01:00"): both are read; a time
 * without a zone is taken as UTC, the zone the export writes.
 */
const EXPORT_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)? ?(Z|UTC|[+-]\d{2}(?::?\d{2})?)?$/i;

export const EXPORT_TIME_WORDS =
  'must be the time the export wrote in its Updated column, such as 2026-12-06T18:25:26.123Z, or blank; ' +
  'a column of other dates is not read (choose Don’t import for it in the column step, or leave it out of the rows)';

/**
 * A time an export wrote, read back: its epoch milliseconds, and how fine it was written (a spreadsheet may
 * have cut its milliseconds or seconds: 60,000 for "2026-12-06 18:25").
 */
export interface ExportTime {
  at: number;
  unit: number;
}

/**
 * The time in `text`, trimmed already (rows.ts trims it to tell a blank or a placeholder first); null for
 * text that is not such a time (a day that does not exist too).
 */
export function exportTime(text: string): ExportTime | null {
  const parts = EXPORT_TIME.exec(text);
  if (parts === null) return null;
  const [, year, month, day, hour, minute, second, fraction, zone = 'Z'] = parts;
  const date = Date.UTC(Number(year), Number(month) - 1, Number(day));
  // Date.UTC rolls 2026-02-30 over into March: a day the month does not have is no time.
  if (new Date(date).getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59) return null;
  if (second !== undefined && Number(second) > 59) return null;
  const digits = Math.min(fraction?.length ?? 0, 3);
  const unit = second === undefined ? 60_000 : 10 ** (3 - digits);
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const minutes = Number(hour) * 60 + Number(minute) - zoneMinutes(zone.toUpperCase());
  return { at: date + (minutes * 60 + Number(second ?? 0)) * 1000 + millis, unit };
}

/** Whether a location changed at `changedAt` (ISO, as stored) was changed after the file's time was written. */
export function changedAfter(changedAt: string, seen: ExportTime): boolean {
  return Date.parse(changedAt) - seen.at >= seen.unit;
}

/** "+01:00", "+0100" or "+01" in minutes east of UTC; Z and UTC are 0. */
function zoneMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'UTC') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return zone.startsWith('-') ? -minutes : minutes;
}
