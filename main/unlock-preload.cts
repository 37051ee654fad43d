// The unlock window's preload: one function, sandboxed like the dashboard's.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is CommonJS
import electron = require('electron');
const { contextBridge, ipcRenderer } = electron;
import type { Channels, UnlockResult } from './ipc.js';

const UNLOCK: Channels['unlock'] = 'agency-desk:unlock';

contextBridge.exposeInMainWorld('agencyDeskUnlock', {
  submit: (passphrase: string): Promise<UnlockResult> => ipcRenderer.invoke(UNLOCK, String(passphrase)),
});
