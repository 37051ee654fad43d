import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import type { AppApi, DesktopElectron, WindowApi } from '../../main/desktop.js';
import type { InvokeEvent, IpcRegistry } from '../../main/ipc.js';
import type { SafeStorageApi } from '../../main/keystore.js';
import type { GuardedContents, GuardedSession } from '../../main/window.js';

/**
 * Small fakes of the Electron APIs the shell uses: Electron's binary cannot run here. Everything else
 * in the tests (database, HTTP server, files) is real.
 */

type Backend = ReturnType<NonNullable<SafeStorageApi['getSelectedStorageBackend']>>;

/** A safeStorage that really encrypts (AES-GCM under a per-"machine" secret), like the OS keychain does. */
export class FakeSafeStorage implements SafeStorageApi {
  constructor(
    public available = true,
    public backend: Backend = 'gnome_libsecret',
    private readonly secret = randomBytes(32),
  ) {}
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): Backend {
    return this.backend;
  }
  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available.');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.secret, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }
  decryptString(encrypted: Buffer): string {
    if (!this.available) throw new Error('Decryption is not available.');
    const decipher = createDecipheriv('aes-256-gcm', this.secret, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export class FakeFrame {
  constructor(public url: string) {}
}

/** WebContents: records listeners and what was sent; `navigate` plays a navigation through the guard. */
export class FakeWebContents extends EventEmitter implements GuardedContents {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly mainFrame = new FakeFrame('about:blank');
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  /** Emits a navigation event and says whether the guard let it through. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate' = 'will-navigate'): boolean {
    let prevented = false;
    this.emit(event, {
      url,
      preventDefault: () => {
        prevented = true;
      },
    });
    return !prevented;
  }
  /** An IPC event as Electron builds it for a call from this page's main frame (or a subframe). */
  invokeEvent(frame: FakeFrame | null = this.mainFrame): InvokeEvent {
    return { sender: { id: this.id, mainFrame: this.mainFrame }, senderFrame: frame };
  }
}

export class FakeWindow extends EventEmitter implements WindowApi {
  readonly webContents = new FakeWebContents();
  loadedUrls: string[] = [];
  shown = false;
  focused = 0;
  minimized = false;
  destroyed = false;

  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
    this.webContents.mainFrame.url = url;
    // Electron emits ready-to-show once the first paint is ready.
    setImmediate(() => this.emit('ready-to-show'));
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused += 1;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeApp extends EventEmitter implements AppApi {
  quitCalls = 0;
  /** True once a quit went through (no before-quit listener held it back). */
  hasQuit = false;
  exitCode: number | null = null;
  hasLock = true;
  aboutShown = 0;

  constructor(
    private readonly paths: { userData: string; documents: string },
    private readonly version = '0.1.0-test',
  ) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.hasLock;
  }
  async whenReady(): Promise<void> {}
  /** Electron's app.quit(): emits before-quit, and quits unless a listener prevented it. */
  quit(): void {
    this.quitCalls += 1;
    let prevented = false;
    this.emit('before-quit', {
      preventDefault: () => {
        prevented = true;
      },
    });
    if (!prevented) {
      this.hasQuit = true;
      this.emit('quit');
    }
  }
  exit(exitCode = 0): void {
    this.exitCode = exitCode;
  }
  getPath(name: 'userData' | 'documents'): string {
    return this.paths[name];
  }
  getVersion(): string {
    return this.version;
  }
  setAboutPanelOptions(): void {}
  showAboutPanel(): void {
    this.aboutShown += 1;
  }
  /** Resolves when the app really quits (no listener held it back). */
  quitted(): Promise<void> {
    return new Promise((resolve) => this.once('quit', () => resolve()));
  }
}

type Handler = (event: InvokeEvent, ...args: unknown[]) => unknown;

export class FakeIpcMain implements IpcRegistry {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke would get back. */
  async invoke(channel: string, event: InvokeEvent, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

type HeadersListener = Parameters<GuardedSession['webRequest']['onHeadersReceived']>[0];
type PermissionHandler = Parameters<GuardedSession['setPermissionRequestHandler']>[0];

export class FakeSession implements GuardedSession {
  permissionRequestHandler: PermissionHandler | null = null;
  permissionCheckHandler: (() => boolean) | null = null;
  headersListener: HeadersListener | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: PermissionHandler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: () => boolean): void {
    this.permissionCheckHandler = handler;
  }
  /** Runs a response through the headers listener and returns what Electron would apply. */
  respond(url: string, responseHeaders: Record<string, string[]>): Record<string, string | string[]> {
    let result: Record<string, string | string[]> | undefined;
    this.headersListener?.({ url, responseHeaders }, (response) => {
      result = response.responseHeaders ?? responseHeaders;
    });
    if (result === undefined) throw new Error('the listener did not call back');
    return result;
  }
}

export class FakeElectron implements DesktopElectron {
  readonly app: FakeApp;
  readonly safeStorage: FakeSafeStorage;
  readonly ipcMain = new FakeIpcMain();
  readonly session = new FakeSession();
  readonly windows: FakeWindow[] = [];
  readonly openedExternal: string[] = [];
  readonly openedPaths: string[] = [];
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly messageBoxes: Electron.MessageBoxOptions[] = [];
  menu: MenuItemConstructorOptions[] = [];
  /** What the next save dialog answers. */
  saveDialogAnswer: string | null = null;
  /** The index of the button message boxes answer (0: the first, Cancel where there is one). */
  messageBoxAnswer = 0;

  readonly shell = {
    openExternal: async (url: string) => {
      this.openedExternal.push(url);
    },
    openPath: async (target: string) => {
      this.openedPaths.push(target);
      return '';
    },
  };
  readonly dialog = {
    showErrorBox: (title: string, content: string) => {
      this.errorBoxes.push({ title, content });
    },
    showSaveDialog: async (): Promise<Electron.SaveDialogReturnValue> =>
      this.saveDialogAnswer === null
        ? { canceled: true, filePath: '' }
        : { canceled: false, filePath: this.saveDialogAnswer },
    showMessageBox: async (options: Electron.MessageBoxOptions) => {
      this.messageBoxes.push(options);
      return { response: this.messageBoxAnswer, checkboxChecked: false };
    },
  };

  constructor(paths: { userData: string; documents: string }, safeStorage = new FakeSafeStorage()) {
    this.app = new FakeApp(paths);
    this.safeStorage = safeStorage;
  }
  defaultSession(): GuardedSession {
    return this.session;
  }
  createWindow(options: BrowserWindowConstructorOptions): FakeWindow {
    const window = new FakeWindow(options);
    this.windows.push(window);
    // As in Electron: closing the last open window emits window-all-closed.
    window.on('closed', () => {
      if (this.windows.every((candidate) => candidate.isDestroyed())) this.app.emit('window-all-closed');
    });
    return window;
  }
  setApplicationMenu(template: MenuItemConstructorOptions[]): void {
    this.menu = template;
  }
  /** Clicks a menu item by id, wherever it sits. */
  clickMenu(id: string): void {
    const item = menuItems(this.menu).find((candidate) => candidate.id === id);
    if (!item?.click) throw new Error(`no menu item ${id}`);
    (item.click as () => void)();
  }
}

/** Every item of a menu template, submenus included. */
export function menuItems(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? menuItems(item.submenu) : [])]);
}
