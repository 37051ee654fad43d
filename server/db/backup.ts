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
  fs.rmSync(temporary, { force: true });
  try {
    db.prepare('VACUUM INTO ?').run(temporary);
    fs.chmodSync(temporary, 0o600);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
