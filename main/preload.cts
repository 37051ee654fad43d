// The dashboard's preload: sandboxed, so CommonJS and only `electron` may be required; channel
// names are restated here under the `Channels` type, which makes the compiler check them.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is CommonJS
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';
import type { DesktopApi, MenuCommand } from './desktop-api.js';
import type { Channels } from './ipc.js';

const { contextBridge, ipcRenderer } = electron;

const CHANNELS: Omit<Channels, 'unlock'> = {
  appVersion: 'agency-desk:app-version',
  keyProtection: 'agency-desk:key-protection',
  usePassphrase: 'agency-desk:use-passphrase',
  openDataFolder: 'agency-desk:open-data-folder',
  backUpDatabase: 'agency-desk:back-up-database',
  menuCommand: 'agency-desk:menu-command',
};

const MENU_COMMANDS: readonly MenuCommand[] = ['import-csv'];

// Checklist 20: each function passes only its own arguments; the page never sees ipcRenderer itself.
const api = {
  appVersion: () => ipcRenderer.invoke(CHANNELS.appVersion),
  keyProtection: () => ipcRenderer.invoke(CHANNELS.keyProtection),
  usePassphrase: (passphrase: string) => ipcRenderer.invoke(CHANNELS.usePassphrase, String(passphrase)),
  openDataFolder: () => ipcRenderer.invoke(CHANNELS.openDataFolder),
  backUpDatabase: () => ipcRenderer.invoke(CHANNELS.backUpDatabase),
  onMenuCommand: (listener: (command: MenuCommand) => void) => {
    const relay = (_event: IpcRendererEvent, command: unknown) => {
      if (MENU_COMMANDS.includes(command as MenuCommand)) listener(command as MenuCommand);
    };
    ipcRenderer.on(CHANNELS.menuCommand, relay);
    return () => {
      ipcRenderer.removeListener(CHANNELS.menuCommand, relay);
    };
  },
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('agencyDesk', api);
