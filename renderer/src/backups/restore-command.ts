import type { BackupRow } from './queries.js';

/** The folder a backup is in, from its path (GET /api/backups): `<data dir>/backups` on the server's computer. */
export function folderOf(backup: Pick<BackupRow, 'path'>): string {
  // A backup's name holds neither separator (server/backups/folder.ts): the last one ends the folder.
  const end = Math.max(backup.path.lastIndexOf('/'), backup.path.lastIndexOf('\\'));
  return backup.path.slice(0, end);
}

/**
 * A path as a shell reads it back as one word: as it is when plain, else quoted. Single quotes on Unix,
 * which keep every character (a ' closes, is escaped and reopens); double quotes on Windows, whose paths
 * hold no ". macOS keeps the desktop app's data in "Application Support": a space.
 */
export function shellWord(path: string): string {
  if (/^[\w@+=:,./\\-]+$/.test(path)) return path;
  if (path.startsWith('/')) return `'${path.replaceAll("'", `'\\''`)}'`;
  return `"${path}"`;
}

/** The command that restores this backup, to run with Agency Desk stopped (README: "Restoring a backup"). */
export function restoreCommand(backup: Pick<BackupRow, 'path'>): string {
  return `agency-desk restore ${shellWord(backup.path)}`;
}
