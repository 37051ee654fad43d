import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importCsv(): void;
  backUpDatabase(): void;
  restoreFromBackup(): void;
  openDataFolder(): void;
  openApiDocs(): void;
  showAbout(): void;
}

/** The native menu. macOS gets its app menu first; elsewhere About lives under Help. */
export function menuTemplate(actions: MenuActions, platform: NodeJS.Platform): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: 'About Agency Desk', click: () => actions.showAbout() };
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'import-csv', label: 'Import locations…', accelerator: 'CmdOrCtrl+I', click: () => actions.importCsv() },
      { type: 'separator' },
      { id: 'backup', label: 'Back up database…', click: () => actions.backUpDatabase() },
      { id: 'restore', label: 'Restore from backup…', click: () => actions.restoreFromBackup() },
      { id: 'open-data-folder', label: 'Open data folder', click: () => actions.openDataFolder() },
      ...(isMac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { id: 'api-docs', label: 'API documentation', click: () => actions.openApiDocs() },
      ...(isMac ? [] : [{ type: 'separator' } as const, { ...about, id: 'about' }]),
    ],
  };
  return [
    ...(isMac
      ? [
          {
            label: 'Agency Desk',
            submenu: [
              { ...about, id: 'about' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    file,
    { role: 'editMenu' },
    {
      label: '&View',
      // No dev tools in a packaged app's menu; reload stays for a stuck page.
      submenu: [
        { role: 'reload' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    help,
  ];
}
