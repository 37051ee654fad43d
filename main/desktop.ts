import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindowConstructorOptions, Dialog, MenuItemConstructorOptions, Shell } from 'electron';
import { backupDatabase } from '../server/db/backup.js';
import type { DatabaseKey } from '../server/db/key.js';
import { WrongKeyError } from '../server/db/open.js';
import { databaseFileIn, startServer, type RunningServer, type StartOptions } from '../server/start.js';
import type { DesktopApi, KeyProtection, MenuCommand } from './desktop-api.js';
import { writeRuntimeFile } from './discovery.js';
import {
  CHANNELS,
  registerDashboardHandlers,
  registerUnlockHandler,
  type InvokeEvent,
  type IpcRegistry,
  type UnlockResult,
} from './ipc.js';
import {
  abandonPassphraseSwitch,
  beginPassphraseSwitch,
  finishPassphraseSwitch,
  interruptedSwitchKey,
  loadOrCreateKey,
  PASSPHRASE_PROTECTION,
  passphraseKey,
  type SafeStorageApi,
} from './keystore.js';
import { menuTemplate } from './menu.js';
import { rekeyDatabase } from '../server/db/rekey.js';
import { unlockPageUrl } from './unlock-page.js';
import {
  dashboardWindowOptions,
  guardNavigation,
  secureSession,
  type AppOrigin,
  type GuardedContents,
  type GuardedSession,
} from './window.js';

/**
 * The desktop shell's lifecycle, written against the few Electron APIs it uses so that tests can run
 * it with fakes; index.ts hands in the real ones, and the compiler checks they fit.
 */
export interface AppApi {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(exitCode?: number): void;
  getPath(name: 'userData' | 'documents'): string;
  getVersion(): string;
  setAboutPanelOptions(options: { applicationName?: string; applicationVersion?: string; copyright?: string }): void;
  showAboutPanel(): void;
}

export interface WindowApi {
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  close(): void;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  webContents: GuardedContents & { id: number; send(channel: string, ...args: unknown[]): void };
}

export interface DesktopElectron {
  app: AppApi;
  safeStorage: SafeStorageApi;
  shell: Pick<Shell, 'openExternal' | 'openPath'>;
  dialog: Pick<Dialog, 'showErrorBox'> & {
    showSaveDialog(options: Electron.SaveDialogOptions): Promise<Electron.SaveDialogReturnValue>;
    showMessageBox(options: Electron.MessageBoxOptions): Promise<Pick<Electron.MessageBoxReturnValue, 'response'>>;
  };
  ipcMain: IpcRegistry;
  /** session.defaultSession, which exists only once the app is ready. */
  defaultSession(): GuardedSession;
  createWindow(options: BrowserWindowConstructorOptions): WindowApi;
  setApplicationMenu(template: MenuItemConstructorOptions[]): void;
}

export interface DesktopOptions {
  platform: NodeJS.Platform;
  pid: number;
  dataDir: string;
  /** AGENCY_DESK_PORT, else 4870; taken ports fall back to a free one. */
  preferredPort: number;
  logLevel: string;
  preloadFile: string;
  unlockPreloadFile: string;
  /** An Electron build of the database driver, outside node_modules (npm start from a checkout); else node_modules' own. */
  nativeBinding?: string | undefined;
  /** Injected so tests can observe start options; the real one is the server's startServer. */
  startServer?: (options: StartOptions) => Promise<RunningServer>;
  now?: () => Date;
}

export interface Desktop {
  /** Resolves once the dashboard window shows (or the app gave up and quits). */
  ready: Promise<void>;
  server(): RunningServer | null;
  keyProtection(): KeyProtection | null;
}

// The desktop listens on the loopback interface only, whatever AGENCY_DESK_HOST says.
const HOST = '127.0.0.1';

export function runDesktop(electron: DesktopElectron, options: DesktopOptions): Desktop {
  const { app, dialog, shell } = electron;
  const start = options.startServer ?? startServer;
  const now = options.now ?? (() => new Date());
  const databaseFile = databaseFileIn(options.dataDir);
  let server: RunningServer | null = null;
  let removeRuntimeFile: (() => void) | null = null;
  let protection: KeyProtection | null = null;
  let mainWindow: WindowApi | null = null;
  let unlockWindow: WindowApi | null = null;
  let shutdown: Promise<void> | null = null;
  let closed = false;
  // No server, no origin: while it is stopped the dashboard may neither navigate nor call IPC.
  const appOrigin: AppOrigin = () => server?.url ?? null;

  const single = app.requestSingleInstanceLock();
  if (!single) {
    // Another instance holds the lock; it receives 'second-instance' and comes to the front.
    app.quit();
    return { ready: Promise.resolve(), server: () => null, keyProtection: () => null };
  }

  app.on('second-instance', () => {
    const window = mainWindow ?? unlockWindow;
    if (window === null || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (closed) return;
    // Hold the quit until the server has finished its requests and the database is closed.
    event.preventDefault();
    shutdown ??= stopServer().finally(() => {
      closed = true;
      app.quit();
    });
  });

  async function startDesktopServer(key: DatabaseKey, port: number): Promise<void> {
    server = await start({
      dataDir: options.dataDir,
      key,
      host: HOST,
      port,
      fallbackToFreePort: true,
      logger: { level: options.logLevel },
      nativeBinding: options.nativeBinding,
    });
    removeRuntimeFile = writeRuntimeFile(options.dataDir, {
      url: server.url,
      pid: options.pid,
      started_at: now().toISOString(),
    });
  }

  async function stopServer(): Promise<void> {
    removeRuntimeFile?.();
    removeRuntimeFile = null;
    const running = server;
    server = null;
    await running?.close();
  }

  function fail(title: string, error: unknown): void {
    dialog.showErrorBox(title, error instanceof Error ? error.message : String(error));
    closed = true;
    app.exit(1);
  }

  async function openDashboard(): Promise<void> {
    if (server === null) return;
    const window = electron.createWindow(dashboardWindowOptions(options.preloadFile));
    mainWindow = window;
    guardNavigation(window.webContents, appOrigin, (url) => shell.openExternal(url));
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null;
    });
    const shown = new Promise<void>((resolve) => window.once('ready-to-show', resolve));
    await window.loadURL(server.url);
    await shown;
    window.show();
  }

  function sendMenuCommand(command: MenuCommand): void {
    mainWindow?.webContents.send(CHANNELS.menuCommand, command);
  }

  async function backUpDatabase(): Promise<string | null> {
    if (server === null) return null;
    const stamp = now().toISOString().slice(0, 10);
    const choice = await dialog.showSaveDialog({
      title: 'Back up database',
      defaultPath: path.join(app.getPath('documents'), `agency-desk-backup-${stamp}.db`),
      filters: [{ name: 'Agency Desk database', extensions: ['db'] }],
    });
    if (choice.canceled || !choice.filePath) return null;
    backupDatabase(server.store.db, choice.filePath);
    return choice.filePath;
  }

  async function usePassphrase(passphrase: string): ReturnType<DesktopApi['usePassphrase']> {
    if (server === null) return { ok: false, message: 'The database is not open.' };
    let next: DatabaseKey;
    try {
      next = passphraseKey(passphrase);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    // Any script in the page can call this: only the user, in a dialog the page cannot draw or click,
    // may put the database under a passphrase (one the page chose would lock them out).
    if (!(await confirmPassphraseSwitch()))
      return { ok: false, message: 'The database keeps its current protection: the change was not confirmed.' };
    if (server === null) return { ok: false, message: 'The database is not open.' };
    const userDataDir = app.getPath('userData');
    const current = server.store.key;
    const port = server.port;
    beginPassphraseSwitch(userDataDir);
    await stopServer();
    try {
      rekeyDatabase(databaseFile, current, next);
    } catch (error) {
      abandonPassphraseSwitch(userDataDir);
      await startDesktopServer(current, port);
      return { ok: false, message: `The database could not be re-encrypted: ${(error as Error).message}` };
    }
    finishPassphraseSwitch(userDataDir);
    protection = PASSPHRASE_PROTECTION;
    await startDesktopServer(next, port);
    // The same port is preferred, but if another program took it meanwhile the dashboard must follow.
    if (server !== null && (server as RunningServer).port !== port)
      void mainWindow?.loadURL((server as RunningServer).url);
    return { ok: true };
  }

  async function confirmPassphraseSwitch(): Promise<boolean> {
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      title: 'Protect with a passphrase',
      message: 'Re-encrypt the database with the passphrase you just typed?',
      detail:
        'Agency Desk will ask for it at every start. Without it nobody, not even Agency Desk, can open the database or its backups.',
      buttons: ['Cancel', 'Use the passphrase'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  }

  function askPassphrase(): Promise<void> {
    return new Promise((resolve) => {
      const window = electron.createWindow({
        ...dashboardWindowOptions(options.unlockPreloadFile),
        width: 440,
        height: 340,
        minWidth: 360,
        minHeight: 300,
        resizable: false,
        title: 'Unlock Agency Desk',
      });
      unlockWindow = window;
      // The unlock page is a data: URL, an opaque origin: it may not navigate anywhere or open anything.
      guardNavigation(
        window.webContents,
        () => null,
        (url) => shell.openExternal(url),
      );
      let unlocked = false;
      const unregister = registerUnlockHandler(
        electron.ipcMain,
        (event: InvokeEvent) => event.sender.id === window.webContents.id,
        async (passphrase): Promise<UnlockResult> => {
          try {
            await startDesktopServer({ kind: 'passphrase', passphrase }, options.preferredPort);
          } catch (error) {
            if (error instanceof WrongKeyError)
              return { ok: false, message: 'That passphrase does not open the database.' };
            return { ok: false, message: (error as Error).message };
          }
          unlocked = true;
          unregister();
          // The unlock window stays until the dashboard's is open: closing the last window quits the app.
          resolve();
          return { ok: true };
        },
      );
      window.on('closed', () => {
        if (unlocked) return;
        unregister();
        unlockWindow = null;
        closed = true;
        app.quit();
        resolve();
      });
      window.once('ready-to-show', () => window.show());
      void window.loadURL(unlockPageUrl());
    });
  }

  async function unlockDatabase(): Promise<boolean> {
    const keystore = {
      safeStorage: electron.safeStorage,
      platform: options.platform,
      userDataDir: app.getPath('userData'),
    };
    const unlocked = loadOrCreateKey(keystore, fs.existsSync(databaseFile));
    protection = unlocked.protection;
    if (unlocked.state === 'unlocked') {
      await startDesktopServer(unlocked.key, options.preferredPort);
      return true;
    }
    const previous = interruptedSwitchKey(keystore);
    if (previous !== null) {
      try {
        await startDesktopServer(previous, options.preferredPort);
        abandonPassphraseSwitch(keystore.userDataDir);
        protection = loadOrCreateKey(keystore, true).protection;
        return true;
      } catch (error) {
        if (!(error instanceof WrongKeyError)) throw error;
        // The rekey had finished: the database is under the passphrase now.
        finishPassphraseSwitch(keystore.userDataDir);
      }
    }
    await askPassphrase();
    return server !== null;
  }

  async function main(): Promise<void> {
    await app.whenReady();
    secureSession(electron.defaultSession(), appOrigin);
    app.setAboutPanelOptions({ applicationName: 'Agency Desk', applicationVersion: app.getVersion() });
    try {
      if (!(await unlockDatabase())) return;
    } catch (error) {
      fail('Agency Desk cannot open its database', error);
      return;
    }
    registerDashboardHandlers(
      electron.ipcMain,
      {
        appVersion: () => app.getVersion(),
        keyProtection: () => protection ?? PASSPHRASE_PROTECTION,
        usePassphrase,
        openDataFolder: async () => {
          await shell.openPath(options.dataDir);
        },
        backUpDatabase,
      },
      appOrigin,
    );
    electron.setApplicationMenu(
      menuTemplate(
        {
          importCsv: () => sendMenuCommand('import-csv'),
          backUpDatabase: () => {
            backUpDatabase().then(
              (file) =>
                file && void dialog.showMessageBox({ type: 'info', message: 'Backup saved', detail: backupNote(file) }),
              (error: Error) => dialog.showErrorBox('The backup failed', error.message),
            );
          },
          openDataFolder: () => void shell.openPath(options.dataDir),
          openApiDocs: () => server && void shell.openExternal(`${server.url}/api/docs`),
          showAbout: () => app.showAboutPanel(),
        },
        options.platform,
      ),
    );
    await openDashboard();
    unlockWindow?.close();
    unlockWindow = null;
  }

  const ready = main().catch((error: unknown) => fail('Agency Desk could not start', error));
  return { ready, server: () => server, keyProtection: () => protection };
}

function backupNote(file: string): string {
  return `${file}\n\nThe copy is encrypted with the same key as your database: keep your passphrase, or this computer's keychain, to open it.`;
}
