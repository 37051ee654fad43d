import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseKey } from '../../server/db/key.js';
import { openDatabase, WrongKeyError } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { insertClient } from '../../server/clients/queries.js';
import { insertOrganization } from '../../server/users/queries.js';
import { IllegalTransitionError, Lifecycle, TRANSITIONS } from '../../main/lifecycle.js';
import type { DesktopApi, KeyProtection } from '../../main/desktop-api.js';
import { runDesktop, type Desktop } from '../../main/desktop.js';
import { agencyDeskVersion, findRunningApp, runtimeFileFor } from '../../main/discovery.js';
import { CHANNELS, UntrustedSenderError } from '../../main/ipc.js';
import { beginPassphraseSwitch, readKeyRecord } from '../../main/keystore.js';
import { rekeyDatabase } from '../../server/db/rekey.js';
import { randomKey, tempDir } from '../helpers/app.js';
import { NODE_DRIVER_BUILD } from '../helpers/native-driver.js';
import { randomHexKey } from '../helpers/server-process.js';
import { FakeElectron, FakeSafeStorage, type FakeWindow } from './fake-electron.js';

interface Machine {
  userData: string;
  dataDir: string;
  documents: string;
  safeStorage: FakeSafeStorage;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function machine(safeStorage = new FakeSafeStorage()): Machine {
  const root = tempDir('agency-desk-desktop-');
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const dirs = {
    userData: path.join(root, 'user-data'),
    dataDir: path.join(root, 'data'),
    documents: path.join(root, 'documents'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  return { ...dirs, safeStorage };
}

/** Starts the shell with fake Electron APIs over the real server, database and files. */
function launch(on: Machine, options: { preferredPort?: number; hasLock?: boolean; nativeBinding?: string } = {}) {
  const electron = new FakeElectron({ userData: on.userData, documents: on.documents }, on.safeStorage);
  electron.app.hasLock = options.hasLock ?? true;
  const desktop = runDesktop(electron, {
    platform: 'linux',
    pid: process.pid,
    dataDir: on.dataDir,
    preferredPort: options.preferredPort ?? 0,
    logLevel: 'silent',
    preloadFile: '/app/dist/main/preload.cjs',
    unlockPreloadFile: '/app/dist/main/unlock-preload.cjs',
    nativeBinding: options.nativeBinding,
  });
  cleanups.push(() => quit(electron, desktop));
  return { electron, desktop };
}

/** Quits as the menu or the OS does, and waits until the app really quits. */
async function quit(electron: FakeElectron, desktop: Desktop): Promise<void> {
  await desktop.ready;
  if (electron.app.listenerCount('before-quit') === 0 || desktop.server() === null) return;
  const quitted = electron.app.quitted();
  electron.app.quit();
  await quitted;
}

function dashboard(electron: FakeElectron): FakeWindow {
  const window = electron.windows.find((candidate) =>
    candidate.options.webPreferences?.preload?.endsWith('/preload.cjs'),
  );
  if (!window) throw new Error('no dashboard window');
  return window;
}

/** Calls a DesktopApi function as the dashboard page would. */
function callFromDashboard<K extends keyof Omit<DesktopApi, 'onMenuCommand'>>(
  electron: FakeElectron,
  name: K,
  ...args: Parameters<DesktopApi[K]>
): ReturnType<DesktopApi[K]> {
  return electron.ipcMain.invoke(CHANNELS[name], dashboard(electron).webContents.invokeEvent(), ...args) as ReturnType<
    DesktopApi[K]
  >;
}

async function health(url: string): Promise<number> {
  return (await fetch(`${url}/health`)).status;
}

describe('the desktop app', () => {
  it('starts the server on 127.0.0.1 and shows the dashboard from it in a secure window', async () => {
    const on = machine();
    const { electron, desktop } = launch(on);
    await desktop.ready;
    const server = desktop.server();
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await health(server!.url)).toBe(200);
    const window = dashboard(electron);
    expect(window.loadedUrls).toEqual([server!.url]);
    expect(window.shown).toBe(true);
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    // The guard and the session rules are in place on the real window and session.
    expect(window.webContents.navigate('https://example.com/')).toBe(false);
    expect(electron.openedExternal).toEqual(['https://example.com/']);
    expect(electron.session.respond(`${server!.url}/missing`, {})).toHaveProperty('Content-Security-Policy');
    expect(fs.existsSync(databaseFileIn(on.dataDir))).toBe(true);
  });

  it('opens the database with the driver build npm start hands it (AGENCY_DESK_NATIVE_BINDING)', async () => {
    const on = machine();
    const addon = path.join(on.userData, 'better_sqlite3.node');
    fs.copyFileSync(NODE_DRIVER_BUILD, addon);
    const { desktop } = launch(on, { nativeBinding: addon });
    await desktop.ready;
    expect(desktop.server()?.store.nativeBinding).toBe(addon);
    expect(await health(desktop.server()!.url)).toBe(200);
  });

  it('falls back to a free port when the preferred one is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const taken = (blocker.address() as net.AddressInfo).port;

    const { desktop } = launch(machine(), { preferredPort: taken });
    await desktop.ready;
    const server = desktop.server()!;
    expect(server.port).not.toBe(taken);
    expect(await health(server.url)).toBe(200);
  });

  it('writes the discovery file for local scripts, and quitting closes everything cleanly', async () => {
    const on = machine();
    const { electron, desktop } = launch(on);
    await desktop.ready;
    const server = desktop.server()!;
    const store = server.store;
    expect(findRunningApp(on.dataDir)).toEqual({
      url: server.url,
      pid: process.pid,
      started_at: expect.any(String),
      version: agencyDeskVersion(),
    });

    await quit(electron, desktop);

    expect(fs.existsSync(runtimeFileFor(on.dataDir, process.pid))).toBe(false);
    expect(store.db.open).toBe(false);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    // The quit was held once for the shutdown, then let through.
    expect(electron.app.quitCalls).toBe(2);
    // A closed data directory is the database file alone (the WAL was folded back).
    expect(fs.existsSync(`${databaseFileIn(on.dataDir)}-wal`)).toBe(false);
  });

  it('is single-instance: a second launch quits, and the first window comes to the front', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    const window = dashboard(first.electron);
    window.minimized = true;

    const second = launch(on, { hasLock: false });
    await second.desktop.ready;
    expect(second.electron.app.quitCalls).toBe(1);
    expect(second.electron.windows).toEqual([]);
    expect(second.desktop.server()).toBeNull();

    first.electron.app.emit('second-instance');
    expect(window.minimized).toBe(false);
    expect(window.focused).toBe(1);
  });

  it('uses the same key at the next start: the data survives', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    insertOrganization(first.desktop.server()!.store.db, 'Kept Agency', Date.now());
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await second.desktop.ready;
    const names = second.desktop.server()!.store.db.prepare('SELECT name FROM organizations').all();
    expect(names).toEqual([{ name: 'Kept Agency' }]);
  });

  it('tells the dashboard its key protection, plainly when the keyring falls back to basic_text', async () => {
    const { electron, desktop } = launch(machine(new FakeSafeStorage(true, 'basic_text')));
    await desktop.ready;
    const protection: KeyProtection = await callFromDashboard(electron, 'keyProtection');
    expect(protection.level).toBe('weak');
    expect(await callFromDashboard(electron, 'appVersion')).toBe('0.1.0-test');
  });

  it('while the server is stopped, the dashboard may neither navigate nor call IPC, from any page', async () => {
    const { electron, desktop } = launch(machine());
    await desktop.ready;
    const window = dashboard(electron);
    const url = desktop.server()!.url;
    await quit(electron, desktop);
    expect(desktop.server()).toBeNull();

    for (const target of ['file:///etc/passwd', 'data:text/html,hi', 'about:blank', 'javascript:alert(1)', url])
      expect(window.webContents.navigate(target), target).toBe(false);
    for (const page of ['file:///home/user/evil.html', 'about:blank', `${url}/`]) {
      window.webContents.mainFrame.url = page;
      await expect(callFromDashboard(electron, 'appVersion'), page).rejects.toThrow(UntrustedSenderError);
    }
  });

  it('never gives a database without its key a new one: it asks for the key, and quits when the window closes', async () => {
    const on = machine();
    openDatabase(databaseFileIn(on.dataDir), randomKey(), { create: true }).close();
    const before = sha256(databaseFileIn(on.dataDir));
    const { electron, desktop } = launch(on);
    await expect.poll(() => electron.windows.length).toBe(1);
    expect(electron.windows[0]!.loadedUrls[0]).toContain(encodeURIComponent('Open a database made elsewhere'));
    electron.windows[0]!.close();
    await desktop.ready;
    expect(electron.app.hasQuit).toBe(true);
    expect(readKeyRecord(on.userData)).toBeNull();
    expect(sha256(databaseFileIn(on.dataDir))).toBe(before);
  });
});

describe('the menu', () => {
  it('asks the dashboard to open its import, opens the data folder and the API documentation', async () => {
    const on = machine();
    const { electron, desktop } = launch(on);
    await desktop.ready;
    electron.clickMenu('import-csv');
    expect(dashboard(electron).webContents.sent).toEqual([{ channel: CHANNELS.menuCommand, args: ['import-csv'] }]);
    electron.clickMenu('open-data-folder');
    expect(electron.openedPaths).toEqual([on.dataDir]);
    electron.clickMenu('api-docs');
    const docs = electron.openedExternal.at(-1)!;
    expect(docs).toBe(`${desktop.server()!.url}/api/docs`);
    expect((await fetch(docs)).status).toBe(200);
    electron.clickMenu('about');
    expect(electron.app.aboutShown).toBe(1);
  });
});

describe('backing up the database', () => {
  it('writes an encrypted copy while the app runs, which opens with the key and only with it', async () => {
    const on = machine();
    const { electron, desktop } = launch(on);
    await desktop.ready;
    const server = desktop.server()!;
    insertOrganization(server.store.db, 'Backed-up Agency', Date.now());
    const target = path.join(on.documents, 'backup.db');
    electron.saveDialogAnswer = target;

    expect(await callFromDashboard(electron, 'backUpDatabase')).toBe(target);

    expect(await health(server.url)).toBe(200);
    const copy = openDatabase(target, server.store.key);
    expect(copy.prepare('SELECT name FROM organizations').all()).toEqual([{ name: 'Backed-up Agency' }]);
    copy.close();
    expect(() => openDatabase(target, randomKey())).toThrow(WrongKeyError);
    expect(fs.readFileSync(target).subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    if (process.platform !== 'win32') expect(fs.statSync(target).mode & 0o777).toBe(0o600);
  });

  it('from the menu confirms where the copy went; a cancelled dialog writes nothing', async () => {
    const on = machine();
    const { electron, desktop } = launch(on);
    await desktop.ready;
    expect(await callFromDashboard(electron, 'backUpDatabase')).toBeNull();
    expect(fs.readdirSync(on.documents)).toEqual([]);

    const target = path.join(on.documents, 'from-menu.db');
    electron.saveDialogAnswer = target;
    electron.clickMenu('backup');
    await expect.poll(() => electron.messageBoxes.length).toBe(1);
    expect(electron.messageBoxes[0]?.detail).toContain(target);
    expect(fs.existsSync(target)).toBe(true);
  });
});

describe('switching to a passphrase', () => {
  it('re-encrypts the database, and the next start asks for the passphrase in the unlock window', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    insertOrganization(first.desktop.server()!.store.db, 'Secret Agency', Date.now());
    expect(await callFromDashboard(first.electron, 'usePassphrase', 'short')).toEqual({
      ok: false,
      message: expect.stringMatching(/8 characters/),
    });
    expect(first.electron.messageBoxes).toEqual([]);
    first.electron.messageBoxAnswer = 1;
    expect(await callFromDashboard(first.electron, 'usePassphrase', 'correct horse battery')).toEqual({ ok: true });
    expect(first.electron.messageBoxes).toEqual([
      expect.objectContaining({ buttons: ['Cancel', 'Use the passphrase'], cancelId: 0, defaultId: 0 }),
    ]);
    expect((await callFromDashboard(first.electron, 'keyProtection')).level).toBe('passphrase');
    expect(await health(first.desktop.server()!.url)).toBe(200);
    expect(readKeyRecord(on.userData)).toEqual({ format: 1, protection: 'passphrase' });
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await expect.poll(() => second.electron.windows.length).toBe(1);
    const unlockWindow = second.electron.windows[0]!;
    expect(unlockWindow.options.webPreferences?.preload).toBe('/app/dist/main/unlock-preload.cjs');
    expect(unlockWindow.options.webPreferences?.sandbox).toBe(true);
    expect(unlockWindow.loadedUrls[0]).toMatch(/^data:text\/html/);
    // The unlock page, itself a data: URL, may go nowhere: not to another data:, file: or about: page.
    for (const target of ['data:text/html,hi', 'file:///etc/passwd', 'about:blank', 'javascript:alert(1)'])
      expect(unlockWindow.webContents.navigate(target), target).toBe(false);
    const unlock = (passphrase: string) =>
      second.electron.ipcMain.invoke(CHANNELS.unlock, unlockWindow.webContents.invokeEvent(), passphrase);

    expect(await unlock('wrong passphrase')).toEqual({
      ok: false,
      message: 'That passphrase does not open the database.',
    });
    expect(second.desktop.server()).toBeNull();
    expect(await unlock('correct horse battery')).toEqual({ ok: true });
    await second.desktop.ready;
    // The dashboard opened before the unlock window closed, so the app never saw all windows closed.
    expect(unlockWindow.destroyed).toBe(true);
    expect(second.electron.app.quitCalls).toBe(0);
    const server = second.desktop.server()!;
    expect(server.store.db.prepare('SELECT name FROM organizations').all()).toEqual([{ name: 'Secret Agency' }]);
    expect(dashboard(second.electron).loadedUrls).toEqual([server.url]);
  });

  it('asks the user first: a page alone cannot put the database under a passphrase', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    const server = first.desktop.server()!;
    insertOrganization(server.store.db, 'Kept Agency', Date.now());

    first.electron.messageBoxAnswer = 0;
    expect(await callFromDashboard(first.electron, 'usePassphrase', 'a passphrase the user never saw')).toEqual({
      ok: false,
      message: expect.stringMatching(/not confirmed/),
    });
    expect(first.electron.messageBoxes).toHaveLength(1);
    expect(first.electron.messageBoxes[0]?.message).toMatch(/passphrase/);
    // Nothing changed: the same server, the same key, still in the keychain.
    expect(first.desktop.server()).toBe(server);
    expect(await health(server.url)).toBe(200);
    expect((await callFromDashboard(first.electron, 'keyProtection')).level).toBe('os-keychain');
    expect(readKeyRecord(on.userData)?.protection).toBe('safe-storage');
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await second.desktop.ready;
    expect(dashboard(second.electron).shown).toBe(true);
    const names = second.desktop.server()!.store.db.prepare('SELECT name FROM organizations').all();
    expect(names).toEqual([{ name: 'Kept Agency' }]);
  });

  it('quits when the unlock window is closed without a passphrase', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    first.electron.messageBoxAnswer = 1;
    await callFromDashboard(first.electron, 'usePassphrase', 'correct horse battery');
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await expect.poll(() => second.electron.windows.length).toBe(1);
    second.electron.windows[0]!.close();
    await second.desktop.ready;
    expect(second.electron.app.hasQuit).toBe(true);
    expect(second.desktop.server()).toBeNull();
  });

  it('interrupted before the rekey keeps the old key; interrupted after it asks for the passphrase', async () => {
    const on = machine();
    const first = launch(on);
    await first.desktop.ready;
    const oldKey = first.desktop.server()!.store.key;
    await quit(first.electron, first.desktop);

    beginPassphraseSwitch(on.userData);
    const before = launch(on);
    await before.desktop.ready;
    expect(before.electron.windows).toHaveLength(1);
    expect(before.desktop.server()?.store.key).toEqual(oldKey);
    expect(readKeyRecord(on.userData)?.protection).toBe('safe-storage');
    await quit(before.electron, before.desktop);

    beginPassphraseSwitch(on.userData);
    rekeyDatabase(databaseFileIn(on.dataDir), oldKey, { kind: 'passphrase', passphrase: 'correct horse battery' });
    const after = launch(on);
    await expect.poll(() => after.electron.windows.length).toBe(1);
    expect(after.electron.windows[0]!.options.webPreferences?.preload).toBe('/app/dist/main/unlock-preload.cjs');
    expect(readKeyRecord(on.userData)).toEqual({ format: 1, protection: 'passphrase' });
    after.electron.windows[0]!.close();
  });
});

describe('the lifecycle, written down (main/lifecycle.ts)', () => {
  it('goes locked -> unlocking -> serving at start, and quitting -> quit at the end', async () => {
    const { electron, desktop } = launch(machine());
    await desktop.ready;
    expect(desktop.history()).toEqual(['locked', 'unlocking', 'serving']);
    await quit(electron, desktop);
    expect(desktop.history()).toEqual(['locked', 'unlocking', 'serving', 'quitting', 'quit']);
  });

  it('refuses a transition the table does not list', () => {
    const life = new Lifecycle();
    expect(() => life.to({ name: 'rekeying', port: 1 })).toThrow(IllegalTransitionError);
    expect(life.state).toEqual({ name: 'locked' });
    for (const [from, targets] of Object.entries(TRANSITIONS)) {
      // Every state but the last can quit, and none leads back to itself.
      if (from !== 'quit' && from !== 'quitting') expect(targets, from).toContain('quitting');
      expect(targets, from).not.toContain(from);
    }
  });

  it('a passphrase switch is serving -> rekeying -> serving', async () => {
    const { electron, desktop } = launch(machine());
    await desktop.ready;
    electron.messageBoxAnswer = 1;
    expect(await callFromDashboard(electron, 'usePassphrase', 'correct horse battery')).toEqual({ ok: true });
    expect(desktop.history()).toEqual(['locked', 'unlocking', 'serving', 'rekeying', 'serving']);
  });
});

describe('File > Restore from backup…', () => {
  async function withBackup(on: Machine) {
    const launched = launch(on);
    await launched.desktop.ready;
    const server = launched.desktop.server()!;
    const organizationId = insertOrganization(server.store.db, 'Agency', Date.now());
    insertClient(server.store.db, organizationId, { name: 'In The Backup', industry: null, website: null }, Date.now());
    const backup = await server.backups.backUpNow();
    insertClient(server.store.db, organizationId, { name: 'Made Later', industry: null, website: null }, Date.now());
    return { ...launched, backup, organizationId };
  }
  const clientNames = (desktop: Desktop) =>
    desktop.server()!.store.db.prepare('SELECT name FROM clients ORDER BY name').pluck().all();

  it('lists the backups with date and counts, and restores the one chosen with the server stopped for the moment', async () => {
    const on = machine();
    const { electron, desktop } = await withBackup(on);
    const before = desktop.server()!;
    electron.messageBoxAnswer = 1;
    electron.clickMenu('restore');
    await expect.poll(() => electron.messageBoxes.length, { timeout: 20_000 }).toBe(3);
    const [list, confirmation, done] = electron.messageBoxes;
    expect(list?.buttons?.[0]).toBe('Cancel');
    expect(list?.buttons?.[1]).toMatch(/ · 1 client · 0 locations$/);
    expect(confirmation?.buttons).toEqual(['Cancel', 'Restore']);
    expect(done?.message).toBe('The backup is restored.');
    expect(clientNames(desktop)).toEqual(['In The Backup']);
    expect(desktop.history().slice(-3)).toEqual(['serving', 'restoring', 'serving']);
    expect(before.store.db.open).toBe(false);
    // The database it replaced is kept; the dashboard loaded again; scripts find the new server.
    expect(fs.readdirSync(path.join(on.dataDir, 'backups')).some((name) => name.startsWith('before-restore-'))).toBe(
      true,
    );
    expect(dashboard(electron).loadedUrls.at(-1)).toBe(desktop.server()!.url);
    expect(findRunningApp(on.dataDir)?.url).toBe(desktop.server()!.url);
  });

  it('changes nothing when the user cancels, and says so when there is no backup', async () => {
    const empty = launch(machine());
    await empty.desktop.ready;
    empty.electron.clickMenu('restore');
    await expect.poll(() => empty.electron.messageBoxes.length, { timeout: 20_000 }).toBe(1);
    expect(empty.electron.messageBoxes[0]?.message).toBe('There is no backup yet.');

    const { electron, desktop } = await withBackup(machine());
    const server = desktop.server();
    electron.messageBoxAnswer = 0;
    electron.clickMenu('restore');
    await expect.poll(() => electron.messageBoxes.length, { timeout: 20_000 }).toBe(1);
    expect(desktop.server()).toBe(server);
    expect(clientNames(desktop)).toEqual(['In The Backup', 'Made Later']);
  });

  it('refuses a damaged backup: the database stays as it was and the app serves it again', async () => {
    const on = machine();
    const { electron, desktop, backup } = await withBackup(on);
    const file = path.join(on.dataDir, 'backups', backup.name);
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 8192));
    electron.messageBoxAnswer = 1;
    electron.clickMenu('restore');
    await expect.poll(() => electron.errorBoxes.length, { timeout: 20_000 }).toBe(1);
    expect(electron.errorBoxes[0]).toEqual({
      title: 'The backup was not restored',
      content: expect.stringMatching(/damaged or truncated.*Nothing was changed\.$/),
    });
    expect(clientNames(desktop)).toEqual(['In The Backup', 'Made Later']);
    expect(desktop.history().at(-1)).toBe('serving');
    expect(await health(desktop.server()!.url)).toBe(200);
  });
});

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('adopting a database made elsewhere (the headless server, another computer)', () => {
  /** A database as `agency-desk serve` leaves it: its key in <data dir>/db.key. */
  function headlessDatabase(on: Machine, keyText = randomHexKey()): string {
    fs.writeFileSync(path.join(on.dataDir, 'db.key'), `${keyText}\n`, { mode: 0o600 });
    const store = openStore(databaseFileIn(on.dataDir), parseKey(keyText, 'db.key'));
    insertOrganization(store.db, 'Headless Agency', Date.now());
    store.close();
    return keyText;
  }
  const organizations = (desktop: Desktop) =>
    desktop.server()!.store.db.prepare('SELECT name FROM organizations').pluck().all();

  it('offers db.key, checks it opens the database, keeps it in the keychain: the next start asks nothing', async () => {
    const on = machine();
    headlessDatabase(on);
    const first = launch(on);
    first.electron.messageBoxAnswer = 1;
    await first.desktop.ready;
    expect(first.electron.messageBoxes[0]?.buttons).toEqual(['Quit', 'Use db.key', 'Type the key…']);
    expect(first.desktop.history()).toEqual(['locked', 'unlocking', 'serving']);
    expect(organizations(first.desktop)).toEqual(['Headless Agency']);
    expect(readKeyRecord(on.userData)?.protection).toBe('safe-storage');
    expect((await callFromDashboard(first.electron, 'keyProtection')).level).toBe('os-keychain');
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await second.desktop.ready;
    expect(second.electron.messageBoxes).toEqual([]);
    expect(organizations(second.desktop)).toEqual(['Headless Agency']);
  });

  it('a db.key that does not open it is never kept: the key is asked for, and a wrong one refused', async () => {
    const on = machine();
    const keyText = headlessDatabase(on);
    fs.writeFileSync(path.join(on.dataDir, 'db.key'), `${randomHexKey()}\n`);
    const { electron, desktop } = launch(on);
    electron.messageBoxAnswer = 1;
    await expect.poll(() => electron.windows.length, { timeout: 20_000 }).toBe(1);
    expect(electron.errorBoxes[0]?.title).toBe('db.key does not open the database');
    expect(readKeyRecord(on.userData)).toBeNull();
    const window = electron.windows[0]!;
    const submit = (text: string) => electron.ipcMain.invoke(CHANNELS.unlock, window.webContents.invokeEvent(), text);
    expect(await submit('short')).toEqual({ ok: false, message: expect.stringMatching(/8 characters/) });
    expect(await submit(randomHexKey())).toEqual({ ok: false, message: 'That key does not open the database.' });
    expect(readKeyRecord(on.userData)).toBeNull();
    expect(await submit(keyText.toUpperCase())).toEqual({ ok: true });
    await desktop.ready;
    expect(organizations(desktop)).toEqual(['Headless Agency']);
    expect(readKeyRecord(on.userData)?.protection).toBe('safe-storage');
  });

  it('a database under a passphrase from another computer: typed once, then kept like the app’s own', async () => {
    const on = machine();
    const passphrase = 'a passphrase from elsewhere';
    const store = openStore(databaseFileIn(on.dataDir), { kind: 'passphrase', passphrase });
    insertOrganization(store.db, 'Travelling Agency', Date.now());
    store.close();
    const first = launch(on);
    await expect.poll(() => first.electron.windows.length, { timeout: 20_000 }).toBe(1);
    const window = first.electron.windows[0]!;
    expect(await first.electron.ipcMain.invoke(CHANNELS.unlock, window.webContents.invokeEvent(), passphrase)).toEqual({
      ok: true,
    });
    await first.desktop.ready;
    expect(organizations(first.desktop)).toEqual(['Travelling Agency']);
    await quit(first.electron, first.desktop);

    const second = launch(on);
    await second.desktop.ready;
    expect(second.electron.windows).toHaveLength(1);
    expect(organizations(second.desktop)).toEqual(['Travelling Agency']);
  });

  it('quitting at the offer changes nothing', async () => {
    const on = machine();
    headlessDatabase(on);
    const before = sha256(databaseFileIn(on.dataDir));
    const { electron, desktop } = launch(on);
    electron.messageBoxAnswer = 0;
    await desktop.ready;
    expect(electron.app.hasQuit).toBe(true);
    expect(desktop.server()).toBeNull();
    expect(readKeyRecord(on.userData)).toBeNull();
    expect(sha256(databaseFileIn(on.dataDir))).toBe(before);
  });
});
