import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './open.js';

/**
 * An encrypted, consistent copy of the live database, made while the app runs. VACUUM INTO writes it
 * with the same cipher and key (SQLite's backup API refuses differing cipher settings). The copy is
 * written beside the target and renamed, so a failed backup never leaves a half-written file.
 */
export function backupDatabase(db: Db, target: string): void {
  const file = path.resolve(target);
  const temporary = `${file}.partial-${process.pid}`;
  // A crashed backup's leftover goes first (with the journal SQLite keeps beside it while it writes):
  // VACUUM INTO writes only into a missing or empty file.
  removeTemporary(temporary);
  createPrivateEmptyFile(temporary);
  try {
    db.prepare('VACUUM INTO ?').run(temporary);
    // On disk before it takes the final name, and the name on disk too: a crash or power loss never leaves
    // a file called like a backup that holds only part of one.
    flushToDisk(temporary);
    fs.renameSync(temporary, file);
    flushToDisk(path.dirname(file));
  } catch (error) {
    removeTemporary(temporary);
    throw error;
  }
}

function removeTemporary(temporary: string): void {
  for (const file of [temporary, `${temporary}-journal`]) fs.rmSync(file, { force: true });
}

/** fsync, so that a rename after it never names a file whose bytes are not on disk yet. */
export function flushToDisk(file: string): void {
  // Windows cannot open a folder to flush it; NTFS journals the rename itself.
  if (process.platform === 'win32' && fs.statSync(file).isDirectory()) return;
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A backup's file name from its time, sortable and free of characters Windows refuses (`:`). */
export function backupFileName(at: Date, prefix = 'agency-desk'): string {
  return `${prefix}-${at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-')}.db`;
}

/**
 * `name` in `dir`, or the first free `<name>-2.db`, `-3`...: two backups made within one second are two
 * files, never one replacing the other.
 */
export function freeBackupFile(dir: string, name: string): string {
  let file = path.join(dir, name);
  for (let sequence = 2; fs.existsSync(file); sequence++)
    file = path.join(dir, name.replace(/\.db$/, `-${sequence}.db`));
  return file;
}

/**
 * The copy is 0600 before SQLite writes a byte into it, never readable by others even for a moment:
 * created exclusively ('wx', which also refuses a symlink planted there), then set to exactly 0600
 * whatever the umask.
 */
function createPrivateEmptyFile(file: string): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
  } finally {
    fs.closeSync(fd);
  }
}
