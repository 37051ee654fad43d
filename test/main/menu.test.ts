import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuActions } from '../../main/menu.js';
import { menuItems } from './fake-electron.js';

function actions() {
  const clicked: string[] = [];
  const record = (name: string) => () => void clicked.push(name);
  const all: MenuActions = {
    importCsv: record('importCsv'),
    backUpDatabase: record('backUpDatabase'),
    restoreFromBackup: record('restoreFromBackup'),
    openDataFolder: record('openDataFolder'),
    openApiDocs: record('openApiDocs'),
    showAbout: record('showAbout'),
  };
  return { all, clicked };
}

describe('the native menu', () => {
  it.each(['linux', 'win32', 'darwin'] as const)('on %s has each command once, wired to its action', (platform) => {
    const { all, clicked } = actions();
    const items = menuItems(menuTemplate(all, platform));
    const ids = ['import-csv', 'backup', 'restore', 'open-data-folder', 'api-docs', 'about'];
    for (const id of ids) {
      const matching = items.filter((item) => item.id === id);
      expect(matching, id).toHaveLength(1);
      (matching[0]?.click as () => void)();
    }
    expect(clicked).toEqual([
      'importCsv',
      'backUpDatabase',
      'restoreFromBackup',
      'openDataFolder',
      'openApiDocs',
      'showAbout',
    ]);
    expect(items.find((item) => item.id === 'import-csv')?.label).toBe('Import locations…');
    expect(items.find((item) => item.id === 'backup')?.label).toBe('Back up database…');
    expect(items.find((item) => item.id === 'restore')?.label).toBe('Restore from backup…');
    expect(items.some((item) => item.role === 'quit')).toBe(true);
  });

  it('puts the app menu first on macOS only', () => {
    const { all } = actions();
    expect(menuTemplate(all, 'darwin')[0]?.label).toBe('Agency Desk');
    expect(menuTemplate(all, 'linux')[0]?.label).toBe('&File');
  });

  it('offers no developer tools', () => {
    const { all } = actions();
    const roles = menuItems(menuTemplate(all, 'linux')).map((item) => item.role);
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('forceReload');
  });
});
