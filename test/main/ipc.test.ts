import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { DesktopApi, KeyProtection, MenuCommand } from '../../main/desktop-api.js';
import {
  CHANNELS,
  registerDashboardHandlers,
  registerUnlockHandler,
  UntrustedSenderError,
  type DashboardActions,
} from '../../main/ipc.js';
import { FakeFrame, FakeIpcMain, FakeWebContents } from './fake-electron.js';

const ORIGIN = 'http://127.0.0.1:4870';
const PROTECTION: KeyProtection = { level: 'os-keychain', message: 'protected' };

function setUp(appOrigin: () => string | null = () => ORIGIN) {
  const ipc = new FakeIpcMain();
  const calls: string[] = [];
  const actions: DashboardActions = {
    appVersion: () => '1.2.3',
    keyProtection: () => PROTECTION,
    usePassphrase: async (passphrase) => {
      calls.push(`usePassphrase:${passphrase}`);
      return { ok: true };
    },
    openDataFolder: async () => {
      calls.push('openDataFolder');
    },
    backUpDatabase: async () => '/backups/agency.db',
  };
  registerDashboardHandlers(ipc, actions, appOrigin);
  const page = new FakeWebContents();
  page.mainFrame.url = `${ORIGIN}/settings`;
  return { ipc, calls, page };
}

describe('the dashboard IPC handlers', () => {
  it('answer the main frame of the app page', async () => {
    const { ipc, calls, page } = setUp();
    const event = page.invokeEvent();
    expect(await ipc.invoke(CHANNELS.appVersion, event)).toBe('1.2.3');
    expect(await ipc.invoke(CHANNELS.keyProtection, event)).toEqual(PROTECTION);
    expect(await ipc.invoke(CHANNELS.backUpDatabase, event)).toBe('/backups/agency.db');
    await ipc.invoke(CHANNELS.openDataFolder, event);
    expect(await ipc.invoke(CHANNELS.usePassphrase, event, 'correct horse')).toEqual({ ok: true });
    expect(calls).toEqual(['openDataFolder', 'usePassphrase:correct horse']);
  });

  it('refuse a page of another origin, a subframe and a destroyed frame', async () => {
    const { ipc, calls, page } = setUp();
    page.mainFrame.url = 'https://evil.example/';
    await expect(ipc.invoke(CHANNELS.openDataFolder, page.invokeEvent())).rejects.toThrow(UntrustedSenderError);
    page.mainFrame.url = `${ORIGIN}/`;
    const subframe = new FakeFrame(`${ORIGIN}/embedded`);
    await expect(ipc.invoke(CHANNELS.openDataFolder, page.invokeEvent(subframe))).rejects.toThrow(UntrustedSenderError);
    await expect(ipc.invoke(CHANNELS.usePassphrase, page.invokeEvent(null), 'correct horse')).rejects.toThrow(
      UntrustedSenderError,
    );
    expect(calls).toEqual([]);
  });

  it.each([
    ['null:', () => 'null:'],
    ['none', () => null],
  ])(
    'refuse every frame while the app has no origin (%s): file:, data:, about:blank, javascript:',
    async (_name, origin) => {
      const { ipc, calls, page } = setUp(origin);
      for (const url of [
        'file:///home/user/evil.html',
        'data:text/html,<script>1</script>',
        'about:blank',
        'javascript:void 0',
        `${ORIGIN}/`,
      ]) {
        page.mainFrame.url = url;
        await expect(ipc.invoke(CHANNELS.openDataFolder, page.invokeEvent()), url).rejects.toThrow(
          UntrustedSenderError,
        );
        await expect(ipc.invoke(CHANNELS.usePassphrase, page.invokeEvent(), 'correct horse')).rejects.toThrow(
          UntrustedSenderError,
        );
      }
      expect(calls).toEqual([]);
    },
  );

  it('validate the passphrase argument before acting', async () => {
    const { ipc, calls, page } = setUp();
    for (const bad of [undefined, 42, { passphrase: 'x' }, '', 'x'.repeat(1025)]) {
      await expect(ipc.invoke(CHANNELS.usePassphrase, page.invokeEvent(), bad)).rejects.toThrow(TypeError);
    }
    expect(calls).toEqual([]);
  });
});

describe('the unlock handler', () => {
  it('accepts only the unlock window, and can be removed', async () => {
    const ipc = new FakeIpcMain();
    const unlockPage = new FakeWebContents();
    const other = new FakeWebContents();
    const received: string[] = [];
    const remove = registerUnlockHandler(
      ipc,
      (event) => event.sender.id === unlockPage.id,
      async (passphrase) => {
        received.push(passphrase);
        return { ok: true };
      },
    );
    await expect(ipc.invoke(CHANNELS.unlock, other.invokeEvent(), 'correct horse')).rejects.toThrow(
      UntrustedSenderError,
    );
    const subframe = new FakeFrame('data:text/html,');
    await expect(ipc.invoke(CHANNELS.unlock, unlockPage.invokeEvent(subframe), 'x')).rejects.toThrow(
      UntrustedSenderError,
    );
    expect(await ipc.invoke(CHANNELS.unlock, unlockPage.invokeEvent(), 'correct horse')).toEqual({ ok: true });
    expect(received).toEqual(['correct horse']);
    remove();
    expect(ipc.handlers.has(CHANNELS.unlock)).toBe(false);
  });
});

describe('the preloads', () => {
  const source = path.resolve(import.meta.dirname, '../../main');

  /** Runs a preload as Electron's sandbox does: a CommonJS script that may require only 'electron'. */
  function runPreload(file: string) {
    const compiled = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const exposed: Record<string, unknown> = {};
    const invoked: { channel: string; args: unknown[] }[] = [];
    const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => invoked.push({ channel, args }),
        on: (channel: string, listener: (...args: unknown[]) => void) =>
          listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
        removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
          listeners.set(
            channel,
            (listeners.get(channel) ?? []).filter((candidate) => candidate !== listener),
          ),
      },
    };
    const module = { exports: {} };
    const sandboxRequire = (name: string) => {
      if (name !== 'electron') throw new Error(`module not found: ${name}`);
      return electron;
    };
    vm.runInNewContext(compiled, { require: sandboxRequire, module, exports: module.exports });
    return { exposed, invoked, listeners };
  }

  it('dashboard preload exposes exactly the DesktopApi, each function on its channel', async () => {
    const { exposed, invoked, listeners } = runPreload(path.join(source, 'preload.cts'));
    expect(Object.keys(exposed)).toEqual(['agencyDesk']);
    const api = exposed.agencyDesk as DesktopApi;
    expect(Object.keys(api).sort()).toEqual(
      ['appVersion', 'backUpDatabase', 'keyProtection', 'onMenuCommand', 'openDataFolder', 'usePassphrase'].sort(),
    );
    await api.appVersion();
    await api.keyProtection();
    await api.usePassphrase('correct horse');
    await api.openDataFolder();
    await api.backUpDatabase();
    expect(invoked).toEqual([
      { channel: CHANNELS.appVersion, args: [] },
      { channel: CHANNELS.keyProtection, args: [] },
      { channel: CHANNELS.usePassphrase, args: ['correct horse'] },
      { channel: CHANNELS.openDataFolder, args: [] },
      { channel: CHANNELS.backUpDatabase, args: [] },
    ]);

    const commands: MenuCommand[] = [];
    const stop = api.onMenuCommand((command) => commands.push(command));
    const relay = listeners.get(CHANNELS.menuCommand)?.[0];
    relay?.({}, 'import-csv');
    relay?.({}, 'format-disk');
    expect(commands).toEqual(['import-csv']);
    stop();
    expect(listeners.get(CHANNELS.menuCommand)).toEqual([]);
  });

  it('unlock preload exposes one submit function on the unlock channel', async () => {
    const { exposed, invoked } = runPreload(path.join(source, 'unlock-preload.cts'));
    expect(Object.keys(exposed)).toEqual(['agencyDeskUnlock']);
    await (exposed.agencyDeskUnlock as { submit(passphrase: string): Promise<unknown> }).submit('correct horse');
    expect(invoked).toEqual([{ channel: CHANNELS.unlock, args: ['correct horse'] }]);
  });
});
