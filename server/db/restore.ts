import fs from 'node:fs';
import path from 'node:path';
import { backupDatabase, flushToDisk } from './backup.js';
import { keyPragmaValue, type DatabaseKey } from './key.js';
import { migrations } from './migrations/index.js';
import { openDatabase, WrongKeyError, type Db } from './open.js';

/** A restore refused or failed before the swap: the live database is exactly as it was. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

export interface DatabaseCounts {
  clients: number;
  locations: number;
}

export function countsOf(db: Db): DatabaseCounts {
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  return { clients: count('clients'), locations: count('locations') };
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
// SQLCipher 4's page size: every whole database file is a number of pages.
const PAGE_SIZE = 4096;
const TABLES = ['organizations', 'users', 'clients', 'locations'];

/** What the bytes alone say is wrong with a file offered as a backup, if anything. */
function refuseByContent(file: string): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw new RestoreError(`${file} does not exist`);
  if (!stat.isFile()) throw new RestoreError(`${file} is not a file`);
  if (stat.size === 0) throw new RestoreError(`${file} is empty: it is not a backup`);
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(16);
  try {
    fs.readSync(fd, head, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.equals(SQLITE_HEADER)) {
    throw new RestoreError(`${file} is a plain, unencrypted SQLite file, not an Agency Desk backup`);
  }
  if (stat.size % PAGE_SIZE !== 0) {
    throw new RestoreError(`${file} is truncated or is not a database (its size is not a whole number of pages)`);
  }
}

/**
 * Opens the candidate (a private copy: the user's file is never written) and checks it through; returns
 * its counts. The copy may be in WAL mode (a live database copied by hand); closing folds its WAL in.
 */
function checkCandidate(file: string, key: DatabaseKey): DatabaseCounts {
  let db: Db;
  try {
    db = openDatabase(file, key);
  } catch (error) {
    if (error instanceof WrongKeyError) {
      throw new RestoreError(
        'The backup does not open with this key: the key is wrong (a backup of another installation: give its key with --key-file or --ask-key), or the file is not an Agency Desk database',
      );
    }
    if ((error as { code?: string }).code?.startsWith('SQLITE_')) {
      throw new RestoreError(`The backup is damaged or truncated (${(error as Error).message})`);
    }
    throw error;
  }
  try {
    return checkOpened(db);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`The backup is damaged or truncated (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

function checkOpened(db: Db): DatabaseCounts {
  const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  if (problems[0]?.integrity_check !== 'ok') {
    // SQLite's report opens with a "*** in database main ***" line and runs on for many: the CLI says one line.
    const lines = problems.flatMap((problem) => problem.integrity_check.split('\n'));
    const first = lines.find((line) => line.trim() !== '' && !line.startsWith('***')) ?? lines[0];
    throw new RestoreError(`The backup is damaged (integrity check: ${first?.trim()}): it was not restored`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)!.version;
  if (version > latest) {
    throw new RestoreError(`The backup was made by a newer Agency Desk (schema ${version}, this one knows ${latest})`);
  }
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (version < 1 || TABLES.some((table) => !tables.includes(table))) {
    throw new RestoreError('The file is an encrypted database, but not an Agency Desk one');
  }
  return countsOf(db);
}

const removeWithSidecars = (file: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
};

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that number.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The copies a restore killed halfway left beside the live file (`.restoring-<pid>`), their process gone. */
function sweepInterrupted(liveFile: string): void {
  const prefix = `${path.basename(liveFile)}.restoring-`;
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(liveFile));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^(\d+)$/.exec(name.slice(prefix.length))?.[1];
    if (name.startsWith(prefix) && pid !== undefined && !isRunning(Number(pid)))
      removeWithSidecars(path.join(path.dirname(liveFile), name));
  }
}

export interface RestoreRequest {
  /** The live database (`<data dir>/agency-desk.db`); it may not exist yet (a new machine). */
  liveFile: string;
  /** Its key, which it keeps: a backup under another key is re-encrypted to it. */
  liveKey: DatabaseKey;
  /** The backup file to restore; it is only read. */
  source: string;
  /** The backup's key, when it is not the live one (a backup from another machine). */
  sourceKey?: DatabaseKey;
  /** Where the current database is kept before it is replaced. */
  keepPreviousAs: string;
  /**
   * Changes to the restored copy, with the database it replaces open beside it (when that one opens),
   * made in one transaction before the copy goes live: what the app keeps across a restore
   * (backups/after-restore.ts). The data layer knows no feature: the caller brings them.
   */
  adjust?: (restored: Db, previous: Db) => void;
}

export interface RestoreResult {
  counts: DatabaseCounts;
  /** The copy of the database that was replaced, or null when there was none. */
  previous: string | null;
}

/**
 * Replaces the live database by a backup, with the server stopped. The backup is copied beside the
 * live file and checked there (opens with the key, PRAGMA integrity_check, an Agency Desk schema no
 * newer than this code), re-encrypted to the live key if it had another, then the current database is
 * kept as a backup and the checked copy renamed over it: a refusal or a crash before the rename leaves
 * the live database exactly as it was, and after it the new one is whole.
 */
export function restoreDatabase(request: RestoreRequest): RestoreResult {
  const { liveFile, liveKey } = request;
  const sourceKey = request.sourceKey ?? liveKey;
  refuseByContent(request.source);
  sweepInterrupted(liveFile);
  const candidate = `${liveFile}.restoring-${process.pid}`;
  removeWithSidecars(candidate);
  try {
    fs.copyFileSync(request.source, candidate, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(candidate, 0o600);
    const counts = checkCandidate(candidate, sourceKey);
    if (keyPragmaValue(sourceKey) !== keyPragmaValue(liveKey)) rekeyCandidate(candidate, sourceKey, liveKey);
    if (request.adjust) adjustCandidate(candidate, liveFile, liveKey, request.adjust);
    flushToDisk(candidate);
    const previous = keepPrevious(liveFile, liveKey, request.keepPreviousAs);
    // The old database's WAL and shared memory belong to it: read with the new file they would corrupt it.
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${liveFile}${suffix}`, { force: true });
    fs.renameSync(candidate, liveFile);
    flushToDisk(path.dirname(liveFile));
    return { counts, previous };
  } finally {
    removeWithSidecars(candidate);
  }
}

/** The caller's changes to the candidate (RestoreRequest.adjust), when the live database opens to read. */
function adjustCandidate(
  candidate: string,
  liveFile: string,
  key: DatabaseKey,
  adjust: NonNullable<RestoreRequest['adjust']>,
) {
  let previous: Db;
  try {
    previous = openDatabase(liveFile, key, { readOnly: true });
  } catch {
    // None (a new machine; openDatabase opens only a file that exists), or one that no longer opens, kept
    // as it is (keepPrevious): there is nothing to carry.
    return;
  }
  const restored = openDatabase(candidate, key);
  try {
    restored.pragma('journal_mode = DELETE');
    restored.transaction(() => adjust(restored, previous))();
  } finally {
    restored.close();
    previous.close();
  }
}

/** SQLite3 Multiple Ciphers rekeys only outside WAL mode; the candidate is in rollback mode until it is live. */
function rekeyCandidate(file: string, from: DatabaseKey, to: DatabaseKey): void {
  const db = openDatabase(file, from);
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma(`rekey=${keyPragmaValue(to)}`);
  } finally {
    db.close();
  }
}

/**
 * The current database, copied consistently (with what its WAL holds) into `target`. One that no longer
 * opens with the key is copied byte for byte, WAL included, so that nothing is ever lost by a restore.
 */
function keepPrevious(liveFile: string, key: DatabaseKey, target: string): string | null {
  if (!fs.existsSync(liveFile)) return null;
  let db: Db | undefined;
  try {
    db = openDatabase(liveFile, key);
  } catch {
    fs.copyFileSync(liveFile, target);
    if (fs.existsSync(`${liveFile}-wal`)) fs.copyFileSync(`${liveFile}-wal`, `${target}-wal`);
    return target;
  }
  try {
    backupDatabase(db, target);
    // Folds the WAL in: the live files are then the database file alone, ready to be replaced.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return target;
}
