import fs from 'node:fs';
import path from 'node:path';
import { backupDatabase, backupFileName, freeBackupFile } from '../db/backup.js';
import type { Command } from './command.js';
import { CliError } from './errors.js';
import { withStore } from './store.js';
import { fileErrorInWords } from '../file-words.js';
import { realPathOf, refuseProtectedTarget } from './targets.js';
import { backupsDirIn, MANUAL, newBackupFile } from '../backups/folder.js';

/**
 * A folder that exists gets a file named after the time (`-2`, `-3`... after another of that second);
 * anything else is the file itself. Into the installation's own backups folder, it is a manual backup
 * (`manual-<time>.db`), which the dashboard lists and the rotation keeps: named otherwise it sat there
 * unlisted (a walk).
 */
export function backupTarget(target: string, now: Date, dataDir?: string): string {
  const resolved = path.resolve(target);
  const isFolder = fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (isFolder && dataDir !== undefined && realPathOf(resolved) === realPathOf(backupsDirIn(dataDir)))
    return newBackupFile(dataDir, MANUAL, now);
  return isFolder ? freeBackupFile(resolved, backupFileName(now)) : resolved;
}

export const backup: Command = {
  name: 'backup',
  summary: 'write an encrypted copy of the database (same key) to a file, or into a folder',
  details:
    'The copy is consistent even while the server runs (VACUUM INTO), written under a temporary name, flushed to disk and then renamed: it is complete or absent. Into a folder, the file is named agency-desk-<UTC time>.db (-2, -3... for another made in the same second).',
  args: [{ name: 'TARGET', description: 'a file (replaced if it exists), or an existing folder' }],
  async run({ args, config: readConfig }) {
    const config = readConfig();
    await withStore(config, (store) => {
      const file = backupTarget(args[0]!, new Date(), config.dataDir);
      refuseProtectedTarget(args[0]!, file, config);
      try {
        backupDatabase(store.db, file);
      } catch (error) {
        throw new CliError(`Cannot write the backup to ${file}: ${fileErrorInWords(error)}`);
      }
      console.log(`Wrote an encrypted copy of the database to ${file}; it opens with the same key.`);
    });
  },
};
