import { type BackupInfo } from '../server/backups/backups.js';
import { BEFORE_RESTORE, newBackupFile, parseBackupName } from '../server/backups/folder.js';
import { countWords } from '../server/cli/count-words.js';
import { restoreDatabase } from '../server/db/restore.js';
import type { DesktopShell } from './desktop.js';
import { afterRestore } from '../server/backups/after-restore.js';

// A message box is no list: the newest backups fit as its buttons; older ones stay in the folder.
const SHOWN = 8;

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const numbers = new Intl.NumberFormat();
// Automatic backups are the usual ones: only the others say what they are.
const KIND_WORDS: Record<BackupInfo['kind'], string> = {
  auto: '',
  manual: ' (made with Back up now)',
  'before-restore': ' (before a restore)',
};

/** "23 Nov 2026, 18:00 · 3 clients · 1,204 locations" (counts unknown: made under another key). */
export function backupLabel(backup: BackupInfo): string {
  const when = dateTime.format(new Date(backup.created_at));
  const kind = KIND_WORDS[backup.kind];
  if (backup.clients === null || backup.locations === null) return `${when}${kind} · another key`;
  const counted = (count: number, one: string) => countWords(count, one, undefined, (n) => numbers.format(n));
  return `${when}${kind} · ${counted(backup.clients, 'client')} · ${counted(backup.locations, 'location')}`;
}

async function chooseBackup(shell: DesktopShell, backups: BackupInfo[]): Promise<BackupInfo | null> {
  const { dialog } = shell.electron;
  if (backups.length === 0) {
    await dialog.showMessageBox({
      type: 'info',
      title: 'Restore from backup',
      message: 'There is no backup yet.',
      detail: 'Agency Desk makes one every day while it runs, and keeps them in the backups folder of its data folder.',
    });
    return null;
  }
  const shown = backups.slice(0, SHOWN);
  const { response } = await dialog.showMessageBox({
    type: 'question',
    title: 'Restore from backup',
    message: 'Which backup should replace the database?',
    detail: 'The newest first. The current database is kept in the backups folder before it is replaced.',
    buttons: ['Cancel', ...shown.map(backupLabel)],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  return response > 0 ? (shown[response - 1] ?? null) : null;
}

function confirmRestore(shell: DesktopShell, backup: BackupInfo): Promise<boolean> {
  return shell.confirm({
    title: 'Restore from backup',
    message: `Replace the database with the backup of ${backupLabel(backup)}?`,
    detail:
      'Changes made since that backup will no longer show. The current database is first kept in the backups folder, so this can be undone by restoring that copy.',
    action: 'Restore',
  });
}

/**
 * File > Restore from backup…: the backups of the data folder with their date and counts, a confirmation, then
 * the same steps as `agency-desk restore` (server/db/restore.ts) with the app's own server stopped for
 * the moment (serving -> restoring -> serving). A backup that is refused leaves the database as it was.
 */
export async function restoreFromBackup(shell: DesktopShell): Promise<void> {
  const server = shell.life.server;
  if (server === null) return;
  const backup = await chooseBackup(shell, await server.backups.list());
  if (backup === null || !(await confirmRestore(shell, backup))) return;
  const { dataDir } = shell.options;
  const source = parseBackupName(dataDir, backup.name)!.file;
  const refusal = await shell.during(async () => {
    const running = shell.life.server;
    if (running === null) return new Error('Agency Desk is closing.');
    const { key, port } = { key: running.store.key, port: running.port };
    await shell.stopServing({ name: 'restoring', port });
    let failure: Error | null = null;
    try {
      restoreDatabase({
        liveFile: shell.databaseFile,
        liveKey: key,
        source,
        keepPreviousAs: newBackupFile(dataDir, BEFORE_RESTORE, shell.now()),
        adjust: afterRestore(backup.name, shell.now().getTime()),
      });
    } catch (error) {
      failure = error as Error;
    }
    await shell.serve(key, port);
    shell.followServer(port);
    // The dashboard's data changed under it: it loads again.
    if (failure === null) void shell.mainWindow?.loadURL(shell.life.server!.url);
    return failure;
  });
  if (refusal !== null) {
    shell.electron.dialog.showErrorBox('The backup was not restored', `${refusal.message}. Nothing was changed.`);
    return;
  }
  await shell.electron.dialog.showMessageBox({
    type: 'info',
    title: 'Restore from backup',
    message: 'The backup is restored.',
    detail: `${backupLabel(backup)}. The database it replaced is kept in the backups folder.`,
  });
}
