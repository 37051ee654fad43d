import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseCounts } from '../db/restore.js';
import type { Store } from '../db/store.js';
import {
  AUTOMATIC,
  backupsDirIn,
  MANUAL,
  listBackupFiles,
  newBackupFile,
  parseBackupName,
  type BackupFile,
} from './folder.js';
import { backupsToRemove, DEFAULT_RETENTION, type RetentionPolicy } from './rotation.js';
import { processIsAlive } from './running.js';
import type { Backup } from './schemas.js';
import { backupThread, type BackupAnswer, type BackupJob, type BackupRequest } from './thread.js';

/** Where a failed automatic backup is reported (the server's logger). */
export interface BackupLog {
  error(details: object, message: string): void;
}

export interface BackupSchedule extends RetentionPolicy {
  /** How long after the newest automatic backup the next one is made (a day by default). */
  everyMs: number;
  /** After a failed automatic backup, the first wait before it is tried again (a minute), doubled at each failure. */
  firstRetryMs?: number;
}

const FIRST_RETRY_MS = 60_000;

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_SCHEDULE: BackupSchedule = { ...DEFAULT_RETENTION, everyMs: DAY_MS };

/** One backup as GET /api/backups and the desktop menu show it: the schema's shape, written once. */
export type BackupInfo = Backup;

export class BackupFailedError extends Error {
  override name = 'BackupFailedError';
}

// setTimeout's longest delay (about 24.8 days); a longer wait is planned again when it ends.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The rolling set of encrypted backups in `<data dir>/backups`: one when the server starts and the newest
 * is older than the interval, then one each interval while it runs, the oldest removed by the retention
 * policy, and the manual ones of "Back up now", which it never removes. Each is the same consistent copy as `agency-desk backup` (VACUUM INTO, server/db/backup.ts),
 * made on a thread of its own (./backup-worker.ts) so that requests never wait for it. One job at a time.
 */
export class Backups {
  private readonly thread;
  private turn: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Automatic backups failed in a row: each waits longer before the next try (start). */
  private failures = 0;
  /** Counts by name and size: a backup never changes once made, and decrypting one costs a read of it all. */
  private readonly counts = new Map<string, DatabaseCounts | null>();

  constructor(
    private readonly store: Store,
    private readonly schedule: BackupSchedule,
    private readonly log: BackupLog,
    private readonly now: () => number = Date.now,
  ) {
    this.thread = backupThread(store, (error) => log.error({ err: error }, 'backup thread error'));
  }

  get dataDir(): string {
    return path.dirname(this.store.file);
  }

  /**
   * Plans the automatic backups: the first at once when one is due, then every interval. After a failure
   * (a full disk, the backups folder not a folder) the next try waits a minute, then two, four…, at most
   * the interval: it was tried again at once, thousands of times a second, each with its log line (a walk).
   */
  start(): void {
    if (this.closed) return;
    const newest = listBackupFiles(this.dataDir).find((backup) => backup.kind === AUTOMATIC);
    const due = newest === undefined ? this.now() : newest.at.getTime() + this.schedule.everyMs;
    const retry = (this.schedule.firstRetryMs ?? FIRST_RETRY_MS) * 2 ** (this.failures - 1);
    const wait = this.failures === 0 ? 0 : Math.min(retry, this.schedule.everyMs);
    const delay = Math.min(Math.max(wait, due - this.now()), LONGEST_TIMER_MS);
    this.timer = setTimeout(() => {
      const next = () => this.start();
      if (due > this.now()) return next();
      this.backUp(AUTOMATIC).then(
        () => {
          this.failures = 0;
          next();
        },
        (error: unknown) => {
          this.failures++;
          this.log.error({ err: error }, 'the automatic backup failed: it is tried again later');
          next();
        },
      );
    }, delay).unref();
  }

  /**
   * "Back up now": a manual backup, which a person asked for and so keeps until they delete it. It leaves
   * the schedule as it was: the rotation and the next automatic backup count automatic backups only.
   */
  backUpNow(): Promise<BackupInfo> {
    return this.backUp(MANUAL);
  }

  /** Makes a backup of that kind, then applies the retention policy to the automatic ones. */
  private backUp(kind: typeof AUTOMATIC | typeof MANUAL): Promise<BackupInfo> {
    return this.inTurn(async () => {
      const file = newBackupFile(this.dataDir, kind, new Date(this.now()));
      const answer = await this.request({ kind: 'backup', target: file });
      if (answer.kind !== 'made') throw new BackupFailedError(answer.kind === 'failed' ? answer.message : 'no backup');
      const made = parseBackupName(this.dataDir, path.basename(file))!;
      this.counts.set(`${made.name}:${answer.size}`, answer.counts);
      this.removeOld();
      return info({ ...made, size: answer.size }, answer.counts);
    });
  }

  /** Every backup of the folder, newest first, with what it holds. */
  list(): Promise<BackupInfo[]> {
    return this.inTurn(async () => {
      const files = listBackupFiles(this.dataDir);
      const unknown = files.filter((file) => !this.counts.has(countKey(file)));
      if (unknown.length > 0) {
        const answer = await this.request({ kind: 'counts', files: unknown.map((file) => file.file) });
        if (answer.kind === 'counts') unknown.forEach((file, i) => this.counts.set(countKey(file), answer.counts[i]!));
      }
      return files.map((file) => info(file, this.counts.get(countKey(file)) ?? null));
    });
  }

  /** The file of the backup called `name`, or undefined: a name is never a path. */
  fileOf(name: string): BackupFile | undefined {
    return listBackupFiles(this.dataDir).find((backup) => backup.name === name);
  }

  /** Stops the schedule and waits for a backup under way to finish. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.turn.catch(() => undefined);
    await this.thread.close();
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    const result = this.turn.then(async () => {
      if (this.closed) throw new BackupFailedError('The server is stopping');
      try {
        return await job();
      } finally {
        // Backups are daily: the thread (and its connection) is not kept between them.
        await this.thread.close();
      }
    });
    this.turn = result.catch(() => undefined);
    return result;
  }

  private request(job: BackupJob): Promise<BackupAnswer> {
    // RequestThread adds the id; Omit<> over the union would keep only the fields the kinds share.
    return this.thread.request(job as Omit<BackupRequest, 'id'>);
  }

  /**
   * The retention policy on the automatic backups, and the leftovers of backups killed halfway. Manual and
   * before-restore backups are never given to it: nothing but the user removes them.
   */
  private removeOld(): void {
    const automatic = listBackupFiles(this.dataDir).filter((backup) => backup.kind === AUTOMATIC);
    for (const backup of backupsToRemove(automatic, this.schedule)) fs.rmSync(backup.file, { force: true });
    const dir = backupsDirIn(this.dataDir);
    for (const name of fs.readdirSync(dir)) {
      // The partial file, and the journal SQLite may keep beside it while it writes.
      const pid = Number(/\.partial-(\d+)(-journal|-wal|-shm)?$/.exec(name)?.[1]);
      if (Number.isInteger(pid) && !processIsAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}

const countKey = (file: BackupFile) => `${file.name}:${file.size}`;

function info(file: BackupFile, counts: DatabaseCounts | null): BackupInfo {
  return {
    name: file.name,
    path: path.resolve(file.file),
    kind: file.kind,
    created_at: file.at.toISOString(),
    size: file.size,
    clients: counts?.clients ?? null,
    locations: counts?.locations ?? null,
  };
}
