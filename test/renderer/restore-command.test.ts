import { describe, expect, it } from 'vitest';
import { folderOf, restoreCommand, shellWord } from '../../renderer/src/backups/restore-command.js';

describe('the Backups page: the folder and the restore command, from a backup path', () => {
  it('a Linux server: the folder, and the command with the path as it is', () => {
    const backup = { path: '/home/ana/.local/share/agency-desk/backups/manual-2026-11-24T23-26-35Z.db' };
    expect(folderOf(backup)).toBe('/home/ana/.local/share/agency-desk/backups');
    expect(restoreCommand(backup)).toBe(
      'agency-desk restore /home/ana/.local/share/agency-desk/backups/manual-2026-11-24T23-26-35Z.db',
    );
  });

  it("the desktop app's folder on a Mac (a space) is quoted, and a quote in it kept", () => {
    const backup = {
      path: "/Users/ana o'neil/Library/Application Support/Agency Desk/backups/auto-2026-11-24T23-17-02Z.db",
    };
    expect(folderOf(backup)).toBe("/Users/ana o'neil/Library/Application Support/Agency Desk/backups");
    expect(restoreCommand(backup)).toBe(
      `agency-desk restore '/Users/ana o'\\''neil/Library/Application Support/Agency Desk/backups/auto-2026-11-24T23-17-02Z.db'`,
    );
  });

  it('a Windows server: backslashes, and double quotes around a path with a space', () => {
    const backup = {
      path: 'C:\\Users\\Ana Lima\\AppData\\Roaming\\Agency Desk\\backups\\manual-2026-11-24T23-26-35Z.db',
    };
    expect(folderOf(backup)).toBe('C:\\Users\\Ana Lima\\AppData\\Roaming\\Agency Desk\\backups');
    expect(restoreCommand(backup)).toBe(`agency-desk restore "${backup.path}"`);
    expect(shellWord('D:\\agency\\backups\\auto-2026-01-02T03-04-05Z-2.db')).toBe(
      'D:\\agency\\backups\\auto-2026-01-02T03-04-05Z-2.db',
    );
  });
});
