/** How many automatic backups are kept (README: "Automatic backups"; server/config.ts). */
export interface RetentionPolicy {
  /** The newest backup of each of the last `keepDaily` days that have one. */
  keepDaily: number;
  /** And the newest of each of the last `keepWeekly` weeks (Monday to Sunday, UTC) that have one. */
  keepWeekly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepDaily: 7, keepWeekly: 4 };

const DAY_MS = 24 * 60 * 60 * 1000;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The Monday (UTC) that starts the week of `at`. */
function weekOf(at: Date): string {
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return dayOf(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - sinceMonday * DAY_MS));
}

/** The newest item of each of the `count` newest periods. */
function newestPerPeriod<T extends { at: Date }>(
  items: readonly T[],
  period: (at: Date) => string,
  count: number,
): T[] {
  const newest = new Map<string, T>();
  for (const item of [...items].sort((a, b) => b.at.getTime() - a.at.getTime())) {
    const key = period(item.at);
    if (!newest.has(key)) newest.set(key, item);
  }
  return [...newest.values()].slice(0, count);
}

/**
 * The automatic backups the rotation removes: every one that is neither of the day before the newest,
 * nor the newest of one of the last `keepDaily` days, nor of one of the last `keepWeekly` weeks (the
 * grandfather-father-son scheme of restic's --keep-within/--keep-daily/--keep-weekly). Periods count
 * only when they hold a backup, so a machine that was off for a month keeps its old backups until new
 * ones replace them.
 */
export function backupsToRemove<T extends { at: Date }>(backups: readonly T[], policy: RetentionPolicy): T[] {
  // Every backup of the last day before the newest stays too (restic's --keep-within 1d): with a schedule
  // of hours (AGENCY_DESK_BACKUP_EVERY_MINUTES) the day's are all kept. Manual ones never reach this rule.
  const newest = Math.max(...backups.map((backup) => backup.at.getTime()));
  const kept = new Set([
    ...backups.filter((backup) => newest - backup.at.getTime() < DAY_MS),
    ...newestPerPeriod(backups, dayOf, policy.keepDaily),
    ...newestPerPeriod(backups, weekOf, policy.keepWeekly),
  ]);
  return backups.filter((backup) => !kept.has(backup));
}
