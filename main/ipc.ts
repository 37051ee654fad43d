import type { DesktopApi, KeyProtection } from './desktop-api.js';
import { isAppUrl, type AppOrigin } from './window.js';

/**
 * Every IPC channel, in one place (the preloads restate these strings under a type that must equal
 * this one, since a sandboxed preload cannot import other files).
 */
export const CHANNELS = {
  appVersion: 'agency-desk:app-version',
  keyProtection: 'agency-desk:key-protection',
  usePassphrase: 'agency-desk:use-passphrase',
  openDataFolder: 'agency-desk:open-data-folder',
  backUpDatabase: 'agency-desk:back-up-database',
  /** main -> dashboard: a menu item that acts inside the dashboard. */
  menuCommand: 'agency-desk:menu-command',
  /** The unlock window's one call. */
  unlock: 'agency-desk:unlock',
} as const;

export type Channels = typeof CHANNELS;

export type UnlockResult = { ok: true } | { ok: false; message: string };

/** What the handlers do; the shell supplies the real actions, the tests fakes. */
export interface DashboardActions {
  appVersion(): string;
  keyProtection(): KeyProtection;
  usePassphrase(passphrase: string): ReturnType<DesktopApi['usePassphrase']>;
  openDataFolder(): Promise<void>;
  backUpDatabase(): Promise<string | null>;
}

/** The part of an InvokeEvent the checks read. */
export interface InvokeEvent {
  sender: { id: number; mainFrame: unknown };
  senderFrame: { url: string } | null;
}

/** The part of ipcMain the shell uses (index.ts checks that the real one fits). */
export interface IpcRegistry {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Electron's own signature: arguments arrive untyped
  handle(channel: string, listener: (event: InvokeEvent, ...args: any[]) => unknown): void;
  removeHandler(channel: string): void;
}

export class UntrustedSenderError extends Error {
  override name = 'UntrustedSenderError';
}

/** Longer than any passphrase a person types; keeps a hostile page from sending megabytes. */
const MAX_PASSPHRASE_LENGTH = 1024;

/**
 * Registers the dashboard's handlers (checklist 17): each checks that the call comes from the main
 * frame of a page on the app's origin, then validates its arguments before acting. While the app has
 * no origin (the server is stopped), every call is refused.
 */
export function registerDashboardHandlers(ipc: IpcRegistry, actions: DashboardActions, appOrigin: AppOrigin): void {
  const trusted =
    <A extends unknown[], R>(handler: (...args: A) => R) =>
    (event: InvokeEvent, ...args: unknown[]): R => {
      assertFromApp(event, appOrigin());
      return handler(...(args as A));
    };
  for (const name of ['appVersion', 'keyProtection', 'openDataFolder', 'backUpDatabase'] as const) {
    ipc.handle(
      CHANNELS[name],
      trusted(() => actions[name]()),
    );
  }
  ipc.handle(
    CHANNELS.usePassphrase,
    trusted((passphrase: unknown) => actions.usePassphrase(validPassphrase(passphrase))),
  );
}

/** The unlock window's handler: only that window's own main frame may call it. */
export function registerUnlockHandler(
  ipc: IpcRegistry,
  isUnlockWindow: (event: InvokeEvent) => boolean,
  unlock: (passphrase: string) => Promise<UnlockResult>,
): () => void {
  ipc.handle(CHANNELS.unlock, (event, passphrase: unknown) => {
    if (!isUnlockWindow(event) || event.senderFrame === null || event.senderFrame !== event.sender.mainFrame) {
      throw new UntrustedSenderError('unlock is only accepted from the unlock window');
    }
    return unlock(validPassphrase(passphrase));
  });
  return () => ipc.removeHandler(CHANNELS.unlock);
}

export function assertFromApp(event: InvokeEvent, origin: string | null): void {
  const frame = event.senderFrame;
  // A destroyed frame (null), a subframe, a page that navigated away, or a file:, data: or about:blank
  // page (an opaque origin) never reaches a handler.
  if (frame === null || frame !== event.sender.mainFrame || !isAppUrl(frame.url, origin)) {
    throw new UntrustedSenderError(`IPC refused from ${frame?.url ?? 'a destroyed frame'}`);
  }
}

function validPassphrase(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PASSPHRASE_LENGTH) {
    throw new TypeError(`a passphrase is a string of 1 to ${MAX_PASSPHRASE_LENGTH} characters`);
  }
  return value;
}
