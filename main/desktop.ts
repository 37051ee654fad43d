import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindowConstructorOptions, Dialog, MenuItemConstructorOptions, Shell } from 'electron';
import type { BackupSchedule } from '../server/backups/backups.js';
import { backupDatabase } from '../server/db/backup.js';
import type { DatabaseKey } from '../server/db/key.js';
import { WrongKeyError } from '../server/db/open.js';
import { rekeyDatabase } from '../server/db/rekey.js';
import { databaseFileIn, startServer, type RunningServer, type StartOptions } from '../server/start.js';
import type { DesktopApi, KeyProtection, MenuCommand } from './desktop-api.js';
import { agencyDeskVersion, writeRuntimeFile } from './discovery.js';
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
  readKeyRecord,
  type KeystoreOptions,
  type SafeStorageApi,
} from './keystore.js';
import { Lifecycle, type DesktopState } from './lifecycle.js';
import { menuTemplate } from './menu.js';
import { restoreFromBackup } from './restore-menu.js';
import { unlockPageUrl, type UnlockPrompt } from './unlock-page.js';
import { adoptDatabase, tryAdoptingKey } from './adopt.js';
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
  /** Automatic backups (AGENCY_DESK_BACKUP_*); none when absent (the tests). */
  backupSchedule?: BackupSchedule | null;
  /** Injected so tests can observe start options; the real one is the server's startServer. */
  startServer?: (options: StartOptions) => Promise<RunningServer>;
  now?: () => Date;
}

export interface Desktop {
  /** Resolves once the dashboard window shows (or the app gave up and quits). */
  ready: Promise<void>;
  server(): RunningServer | null;
  keyProtection(): KeyProtection | null;
  /** The states the app went through, in order (main/lifecycle.ts). */
  history(): readonly string[];
}

// The desktop listens on the loopback interface only, whatever AGENCY_DESK_HOST says.
const HOST = '127.0.0.1';

/**
 * The shell: its state is the Lifecycle (locked, unlocking, serving, rekeying, restoring, quitting,
 * quit); besides it, only the windows, the key's protection and the discovery file's remover.
 */
export class DesktopShell {
  readonly life = new Lifecycle();
  protection: KeyProtection | null = null;
  mainWindow: WindowApi | null = null;
  private unlockWindow: WindowApi | null = null;
  private removeRuntimeFile: (() => void) | null = null;
  /** The change of state under way (unlock, rekey, restore, quit): the next one waits for it. */
  private busy: Promise<unknown> = Promise.resolve();
  readonly databaseFile: string;
  private readonly start: (options: StartOptions) => Promise<RunningServer>;
  readonly now: () => Date;
  // No server, no origin: while it is stopped the dashboard may neither navigate nor call IPC.
  readonly appOrigin: AppOrigin = () => this.life.server?.url ?? null;

  constructor(
    readonly electron: DesktopElectron,
    readonly options: DesktopOptions,
  ) {
    this.databaseFile = databaseFileIn(options.dataDir);
    this.start = options.startServer ?? startServer;
    this.now = options.now ?? (() => new Date());
  }

  /** Runs `work` once the change of state before it has ended. */
  during<T>(work: () => Promise<T>): Promise<T> {
    const result = this.busy.then(work);
    this.busy = result.catch(() => undefined);
    return result;
  }

  /** unlocking, rekeying or restoring -> serving: the server on the database with `key`. */
  async serve(key: DatabaseKey, port: number): Promise<void> {
    const server = await this.start({
      dataDir: this.options.dataDir,
      key,
      host: HOST,
      port,
      fallbackToFreePort: true,
      logger: { level: this.options.logLevel },
      nativeBinding: this.options.nativeBinding,
      backupSchedule: this.options.backupSchedule ?? null,
    });
    this.life.to({ name: 'serving', server });
    this.removeRuntimeFile = writeRuntimeFile(this.options.dataDir, {
      url: server.url,
      pid: this.options.pid,
      started_at: this.now().toISOString(),
      version: agencyDeskVersion(),
    });
  }

  /** serving -> `next`: requests finish and the database closes; the discovery file goes first. */
  async stopServing(next: DesktopState): Promise<void> {
    const running = this.life.server;
    this.life.to(next);
    this.removeRuntimeFile?.();
    this.removeRuntimeFile = null;
    await running?.close();
  }

  /** Tries a key: unlocking, then serving, or back to locked when it is wrong. */
  async unlockWith(key: DatabaseKey, port: number): Promise<void> {
    this.life.to({ name: 'unlocking' });
    try {
      await this.serve(key, port);
    } catch (error) {
      this.life.to({ name: 'locked' });
      throw error;
    }
  }

  /** The dashboard's page follows the server when a restart gave it another port. */
  followServer(previousPort: number): void {
    const server = this.life.server;
    if (server !== null && server.port !== previousPort) void this.mainWindow?.loadURL(server.url);
  }

  /** Quits from any state: the change under way ends first, then the server stops and the app quits. */
  onBeforeQuit(event: { preventDefault(): void }): void {
    if (this.life.is('quit')) return;
    if (this.life.is('locked')) {
      // Nothing is open yet: the quit goes through at once.
      this.life.to({ name: 'quitting' });
      this.life.to({ name: 'quit' });
      return;
    }
    event.preventDefault();
    if (this.life.is('quitting')) return;
    void this.during(async () => {
      if (this.life.is('quit', 'quitting')) return;
      await this.stopServing({ name: 'quitting' });
      this.life.to({ name: 'quit' });
    }).finally(() => this.electron.app.quit());
  }

  /** A failure the user must see before the app ends. */
  fail(title: string, error: unknown): void {
    this.electron.dialog.showErrorBox(title, error instanceof Error ? error.message : String(error));
    if (!this.life.is('quitting', 'quit')) this.life.to({ name: 'quitting' });
    if (!this.life.is('quit')) this.life.to({ name: 'quit' });
    this.electron.app.exit(1);
  }

  keystore(): KeystoreOptions {
    return {
      safeStorage: this.electron.safeStorage,
      platform: this.options.platform,
      userDataDir: this.electron.app.getPath('userData'),
    };
  }

  async openDashboard(): Promise<void> {
    const server = this.life.server;
    if (server === null) return;
    const window = this.electron.createWindow(dashboardWindowOptions(this.options.preloadFile));
    this.mainWindow = window;
    guardNavigation(window.webContents, this.appOrigin, (url) => this.electron.shell.openExternal(url));
    window.on('closed', () => {
      if (this.mainWindow === window) this.mainWindow = null;
    });
    const shown = new Promise<void>((resolve) => window.once('ready-to-show', resolve));
    await window.loadURL(server.url);
    await shown;
    window.show();
    this.unlockWindow?.close();
    this.unlockWindow = null;
  }

  focusWindow(): void {
    const window = this.mainWindow ?? this.unlockWindow;
    if (window === null || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  /**
   * locked: the unlock window asks for the passphrase (or, to adopt a database made elsewhere, its key)
   * until one opens the database or the window closes.
   */
  askPassphrase(prompt: UnlockPrompt = 'passphrase'): Promise<void> {
    return new Promise((resolve) => {
      const window = this.electron.createWindow({
        ...dashboardWindowOptions(this.options.unlockPreloadFile),
        width: 440,
        height: 340,
        minWidth: 360,
        minHeight: 300,
        resizable: false,
        title: prompt === 'adopt' ? 'Open a database made elsewhere' : 'Unlock Agency Desk',
      });
      this.unlockWindow = window;
      // The unlock page is a data: URL, an opaque origin: it may not navigate anywhere or open anything.
      guardNavigation(
        window.webContents,
        () => null,
        (url) => this.electron.shell.openExternal(url),
      );
      let unlocked = false;
      const unregister = registerUnlockHandler(
        this.electron.ipcMain,
        (event: InvokeEvent) => event.sender.id === window.webContents.id,
        async (passphrase): Promise<UnlockResult> => {
          const result = await (prompt === 'adopt' ? this.tryAdopting(passphrase) : this.tryPassphrase(passphrase));
          if (!result.ok) return result;
          unlocked = true;
          unregister();
          // The unlock window stays until the dashboard's is open: closing the last window quits the app.
          resolve();
          return result;
        },
      );
      window.on('closed', () => {
        if (unlocked) return;
        unregister();
        this.unlockWindow = null;
        this.electron.app.quit();
        resolve();
      });
      window.once('ready-to-show', () => window.show());
      void window.loadURL(unlockPageUrl(prompt));
    });
  }

  private tryAdopting(text: string): Promise<UnlockResult> {
    return this.during(() => tryAdoptingKey(this, text));
  }

  private tryPassphrase(passphrase: string): Promise<UnlockResult> {
    return this.during(async () => {
      if (!this.life.is('locked')) return { ok: false, message: 'Agency Desk is closing.' };
      try {
        await this.unlockWith({ kind: 'passphrase', passphrase }, this.options.preferredPort);
        return { ok: true };
      } catch (error) {
        if (error instanceof WrongKeyError)
          return { ok: false, message: 'That passphrase does not open the database.' };
        return { ok: false, message: (error as Error).message };
      }
    });
  }

  /** locked -> serving with the keychain's key (or the key of a passphrase switch that never happened). */
  async unlockDatabase(): Promise<boolean> {
    const keystore = this.keystore();
    if (readKeyRecord(keystore.userDataDir) === null && fs.existsSync(this.databaseFile)) return adoptDatabase(this);
    const unlocked = loadOrCreateKey(keystore, fs.existsSync(this.databaseFile));
    this.protection = unlocked.protection;
    if (unlocked.state === 'unlocked') {
      await this.unlockWith(unlocked.key, this.options.preferredPort);
      return true;
    }
    const previous = interruptedSwitchKey(keystore);
    if (previous !== null) {
      try {
        await this.unlockWith(previous, this.options.preferredPort);
        abandonPassphraseSwitch(keystore.userDataDir);
        this.protection = loadOrCreateKey(keystore, true).protection;
        return true;
      } catch (error) {
        if (!(error instanceof WrongKeyError)) throw error;
        // The rekey had finished: the database is under the passphrase now.
        finishPassphraseSwitch(keystore.userDataDir);
      }
    }
    await this.askPassphrase();
    return this.life.server !== null;
  }

  sendMenuCommand(command: MenuCommand): void {
    this.mainWindow?.webContents.send(CHANNELS.menuCommand, command);
  }

  async backUpDatabase(): Promise<string | null> {
    const server = this.life.server;
    if (server === null) return null;
    const stamp = this.now().toISOString().slice(0, 10);
    const choice = await this.electron.dialog.showSaveDialog({
      title: 'Back up database',
      defaultPath: path.join(this.electron.app.getPath('documents'), `agency-desk-backup-${stamp}.db`),
      filters: [{ name: 'Agency Desk database', extensions: ['db'] }],
    });
    if (choice.canceled || !choice.filePath) return null;
    backupDatabase(server.store.db, choice.filePath);
    return choice.filePath;
  }

  async usePassphrase(passphrase: string): ReturnType<DesktopApi['usePassphrase']> {
    if (this.life.server === null) return { ok: false, message: 'The database is not open.' };
    let next: DatabaseKey;
    try {
      next = passphraseKey(passphrase);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    // Any script in the page can call this: only the user, in a dialog the page cannot draw or click,
    // may put the database under a passphrase (one the page chose would lock them out).
    if (!(await this.confirmPassphraseSwitch()))
      return { ok: false, message: 'The database keeps its current protection: the change was not confirmed.' };
    return this.during(() => this.rekey(next));
  }

  /** serving -> rekeying -> serving, under the new key, or the old one when the rekey fails. */
  private async rekey(next: DatabaseKey): ReturnType<DesktopApi['usePassphrase']> {
    const server = this.life.server;
    if (server === null) return { ok: false, message: 'The database is not open.' };
    const userDataDir = this.electron.app.getPath('userData');
    const { key: current, port } = { key: server.store.key, port: server.port };
    beginPassphraseSwitch(userDataDir);
    await this.stopServing({ name: 'rekeying', port });
    try {
      rekeyDatabase(this.databaseFile, current, next);
    } catch (error) {
      abandonPassphraseSwitch(userDataDir);
      await this.serve(current, port);
      return { ok: false, message: `The database could not be re-encrypted: ${(error as Error).message}` };
    }
    finishPassphraseSwitch(userDataDir);
    this.protection = PASSPHRASE_PROTECTION;
    await this.serve(next, port);
    this.followServer(port);
    return { ok: true };
  }

  private confirmPassphraseSwitch(): Promise<boolean> {
    return this.confirm({
      title: 'Protect with a passphrase',
      message: 'Re-encrypt the database with the passphrase you just typed?',
      detail:
        'Agency Desk will ask for it at every start. Without it nobody, not even Agency Desk, can open the database or its backups.',
      action: 'Use the passphrase',
    });
  }

  /** A native warning with Cancel first and as the default: only a deliberate click goes ahead. */
  async confirm(question: { title: string; message: string; detail: string; action: string }): Promise<boolean> {
    const { response } = await this.electron.dialog.showMessageBox({
      type: 'warning',
      title: question.title,
      message: question.message,
      detail: question.detail,
      buttons: ['Cancel', question.action],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  }
}

function registerHandlers(shell: DesktopShell): void {
  const { electron, options } = shell;
  const { app, dialog } = electron;
  registerDashboardHandlers(
    electron.ipcMain,
    {
      appVersion: () => app.getVersion(),
      keyProtection: () => shell.protection ?? PASSPHRASE_PROTECTION,
      usePassphrase: (passphrase) => shell.usePassphrase(passphrase),
      openDataFolder: async () => {
        await electron.shell.openPath(options.dataDir);
      },
      backUpDatabase: () => shell.backUpDatabase(),
    },
    shell.appOrigin,
  );
  const report = (title: string) => (error: Error) => dialog.showErrorBox(title, error.message);
  electron.setApplicationMenu(
    menuTemplate(
      {
        importCsv: () => shell.sendMenuCommand('import-csv'),
        backUpDatabase: () => {
          shell
            .backUpDatabase()
            .then(
              (file) =>
                file && void dialog.showMessageBox({ type: 'info', message: 'Backup saved', detail: backupNote(file) }),
              report('The backup failed'),
            );
        },
        restoreFromBackup: () => void restoreFromBackup(shell).catch(report('The restore failed')),
        openDataFolder: () => void electron.shell.openPath(options.dataDir),
        openApiDocs: () => {
          const server = shell.life.server;
          if (server) void electron.shell.openExternal(`${server.url}/api/docs`);
        },
        showAbout: () => app.showAboutPanel(),
      },
      options.platform,
    ),
  );
}

async function main(shell: DesktopShell): Promise<void> {
  const { app } = shell.electron;
  await app.whenReady();
  secureSession(shell.electron.defaultSession(), shell.appOrigin);
  app.setAboutPanelOptions({ applicationName: 'Agency Desk', applicationVersion: app.getVersion() });
  try {
    if (!(await shell.unlockDatabase())) return;
  } catch (error) {
    shell.fail('Agency Desk cannot open its database', error);
    return;
  }
  registerHandlers(shell);
  await shell.openDashboard();
}

export function runDesktop(electron: DesktopElectron, options: DesktopOptions): Desktop {
  const { app } = electron;
  const shell = new DesktopShell(electron, options);
  const view = {
    server: () => shell.life.server,
    keyProtection: () => shell.protection,
    history: () => shell.life.history,
  };
  if (!app.requestSingleInstanceLock()) {
    // Another instance holds the lock; it receives 'second-instance' and comes to the front.
    app.quit();
    return { ready: Promise.resolve(), ...view, keyProtection: () => null };
  }
  app.on('second-instance', () => shell.focusWindow());
  app.on('window-all-closed', () => app.quit());
  // Holds the quit until the server has finished its requests and the database is closed.
  app.on('before-quit', (event) => shell.onBeforeQuit(event));
  const ready = main(shell).catch((error: unknown) => shell.fail('Agency Desk could not start', error));
  return { ready, ...view };
}

function backupNote(file: string): string {
  return `${file}\n\nThe copy is encrypted with the same key as your database: keep your passphrase, or this computer's keychain, to open it.`;
}
