/**
 * What the preload exposes to the dashboard as `window.agencyDesk` (only inside the desktop app; the
 * same dashboard in a browser has no such object). The preload object `satisfies` this type, and the
 * renderer imports it as a type only.
 */
export type KeyProtection =
  /** Wrapped by the OS keychain through Electron's safeStorage. */
  | { level: 'os-keychain'; message: string }
  /** safeStorage fell back to Linux's basic_text backend: the key is only obfuscated on disk. */
  | { level: 'weak'; message: string }
  /** safeStorage cannot encrypt at all on this machine. */
  | { level: 'unavailable'; message: string }
  /** The user chose a passphrase, asked at every start. */
  | { level: 'passphrase'; message: string };

export type MenuCommand = 'import-csv';

export interface DesktopApi {
  appVersion(): Promise<string>;
  keyProtection(): Promise<KeyProtection>;
  /** Re-encrypts the database under a passphrase the user will type at each start. */
  usePassphrase(passphrase: string): Promise<{ ok: true } | { ok: false; message: string }>;
  openDataFolder(): Promise<void>;
  /**
   * Asks where to save a backup and writes an encrypted copy there (the same as the menu's "Back up
   * database..."): the path written, or null when the user cancels.
   */
  backUpDatabase(): Promise<string | null>;
  /** Menu items that act inside the dashboard; returns a function that stops listening. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}

declare global {
  interface Window {
    agencyDesk?: DesktopApi;
  }
}
