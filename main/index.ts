import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { loadConfig } from '../server/config.js';
import { runDesktop, type DesktopElectron } from './desktop.js';
import { NATIVE_BINDING_ENV } from './electron-driver.js';

// The Electron entry: the real APIs wired into runDesktop, which holds all the behaviour (and its tests).
const here = import.meta.dirname;

// Checklist 4: every renderer is sandboxed, whatever a window's options say.
app.enableSandbox();

const electron: DesktopElectron = {
  app,
  safeStorage,
  shell,
  dialog,
  ipcMain,
  defaultSession: () => session.defaultSession,
  createWindow: (options) => new BrowserWindow(options),
  setApplicationMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
};

try {
  const config = loadConfig();
  runDesktop(electron, {
    platform: process.platform,
    pid: process.pid,
    dataDir: config.dataDir,
    preferredPort: config.port,
    logLevel: config.logLevel,
    backupSchedule: config.backups,
    preloadFile: path.join(here, 'preload.cjs'),
    unlockPreloadFile: path.join(here, 'unlock-preload.cjs'),
    // Set only by npm start (launch.ts) in a checkout; installers carry an Electron build in node_modules.
    nativeBinding: process.env[NATIVE_BINDING_ENV] || undefined,
  });
} catch (error) {
  // A bad AGENCY_DESK_* variable: say which, then leave.
  void app.whenReady().then(() => {
    dialog.showErrorBox('Agency Desk cannot start', (error as Error).message);
    app.exit(1);
  });
}

// A logout or `kill` quits like the menu does: requests finish, the database closes, the runtime file goes.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => app.quit());
