import fs from 'node:fs';
import path from 'node:path';
import type { SafeStorage } from 'electron';
import { generateRawKey, parseKey, type DatabaseKey } from '../server/db/key.js';
import type { KeyProtection } from './desktop-api.js';

/** The part of Electron's safeStorage the keystore uses; tests hand in a fake with the same types. */
export type SafeStorageApi = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

/**
 * What `<userData>/database-key.json` holds. The raw key itself is written only wrapped by safeStorage,
 * except where safeStorage cannot encrypt at all: then it is a 0600 file like the headless server's
 * db.key, and the dashboard says so. `previous` keeps the old record while a switch to a passphrase is
 * under way, so a crash between the rekey and the record's rewrite never locks the user out.
 */
export type KeyRecord =
  | { format: 1; protection: 'safe-storage'; wrapped: string }
  | { format: 1; protection: 'plain'; hex: string }
  | { format: 1; protection: 'passphrase'; previous?: KeyRecord };

export const KEY_RECORD_FILE = 'database-key.json';

export class KeyMissingError extends Error {
  override name = 'KeyMissingError';
}

export interface KeystoreOptions {
  safeStorage: SafeStorageApi;
  platform: NodeJS.Platform;
  /** Electron's app.getPath('userData'). */
  userDataDir: string;
}

export type UnlockedKey =
  | { state: 'unlocked'; key: DatabaseKey; protection: KeyProtection }
  /** Passphrase mode: ask the user (after trying `interruptedSwitchKey`). */
  | { state: 'needs-passphrase'; protection: KeyProtection };

/**
 * How well safeStorage protects a wrapped key here. On Linux, `basic_text` means Chromium found no
 * secret service and encrypts with a hard-coded password (Electron docs, safeStorage): obfuscation only.
 */
export function safeStorageProtection(safeStorage: SafeStorageApi, platform: NodeJS.Platform): KeyProtection {
  if (!safeStorage.isEncryptionAvailable()) return UNAVAILABLE_PROTECTION;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
    return {
      level: 'weak',
      message:
        'No keyring (GNOME Keyring, KWallet) is running, so the database key is only obfuscated on disk, not protected. Anyone with a copy of your files can read your data. Start a keyring, or choose a passphrase to protect it.',
    };
  }
  return {
    level: 'os-keychain',
    message: `The database key is protected by ${keychainName(platform)}.`,
  };
}

export const UNAVAILABLE_PROTECTION: KeyProtection = {
  level: 'unavailable',
  message:
    'This computer offers no keychain to the app, so the database key is stored unencrypted in a file that only your user account can read. Anyone with access to your account or a copy of your disk can read your data. Choose a passphrase to protect it.',
};

export const PASSPHRASE_PROTECTION: KeyProtection = {
  level: 'passphrase',
  message: 'The database is encrypted with your passphrase, asked at every start. Without it the data cannot be read.',
};

export function keyRecordFile(userDataDir: string): string {
  return path.join(userDataDir, KEY_RECORD_FILE);
}

/**
 * The key for the database, created on first run. Call after the app's `ready` event (safeStorage
 * is unavailable before it on Windows and Linux). An existing database without a record is never
 * given a fresh key: that would make the data unreadable.
 */
export function loadOrCreateKey(options: KeystoreOptions, databaseExists: boolean): UnlockedKey {
  const record = readKeyRecord(options.userDataDir);
  if (record === null) {
    if (databaseExists) {
      throw new KeyMissingError(
        `A database already exists but the desktop app has no key for it (${keyRecordFile(options.userDataDir)} is missing). If the headless server created it, its key is in db.key beside it: run it with agency-desk serve, or restore ${KEY_RECORD_FILE} from a backup.`,
      );
    }
    const key = generateRawKey();
    writeKeyRecord(options.userDataDir, recordFor(key, options));
    return { state: 'unlocked', key, protection: protectionOf(readKeyRecord(options.userDataDir), options) };
  }
  if (record.protection === 'passphrase') return { state: 'needs-passphrase', protection: PASSPHRASE_PROTECTION };
  const key = keyOf(record, options);
  // A keyring that appeared since the first run now protects a key that was stored in the clear.
  if (
    record.protection === 'plain' &&
    safeStorageProtection(options.safeStorage, options.platform).level === 'os-keychain'
  ) {
    writeKeyRecord(options.userDataDir, recordFor(key, options));
  }
  return { state: 'unlocked', key, protection: protectionOf(readKeyRecord(options.userDataDir), options) };
}

/**
 * The key in use before a switch to a passphrase that was interrupted (the app quit between writing
 * the passphrase marker and finishing the rekey), or null. The shell tries it first: if it still
 * opens the database, the rekey never happened and the switch is abandoned.
 */
export function interruptedSwitchKey(options: KeystoreOptions): DatabaseKey | null {
  const record = readKeyRecord(options.userDataDir);
  if (record?.protection !== 'passphrase' || !record.previous || record.previous.protection === 'passphrase')
    return null;
  return keyOf(record.previous, options);
}

/** Step 1 of a switch to a passphrase: from now on ask for it, but keep the old key until the rekey is done. */
export function beginPassphraseSwitch(userDataDir: string): void {
  const current = readKeyRecord(userDataDir);
  const previous = current?.protection === 'passphrase' ? current.previous : (current ?? undefined);
  writeKeyRecord(userDataDir, { format: 1, protection: 'passphrase', ...(previous ? { previous } : {}) });
}

/** Step 2, after the database is rekeyed: forget the old key. */
export function finishPassphraseSwitch(userDataDir: string): void {
  writeKeyRecord(userDataDir, { format: 1, protection: 'passphrase' });
}

/** Undoes step 1 when the rekey failed, so the next start uses the old key again. */
export function abandonPassphraseSwitch(userDataDir: string): void {
  const record = readKeyRecord(userDataDir);
  if (record?.protection === 'passphrase' && record.previous) writeKeyRecord(userDataDir, record.previous);
}

/**
 * Keeps the key of a database this app did not make (the headless server's db.key, a passphrase, or a
 * raw key from another computer) like its own: wrapped by the keychain, or in the 0600 file where there
 * is none. A passphrase is kept as its text; keyOf reads either form back through parseKey.
 */
export function adoptKey(options: KeystoreOptions, key: DatabaseKey): KeyProtection {
  const text = key.kind === 'raw' ? key.hex : key.passphrase;
  const record: KeyRecord = options.safeStorage.isEncryptionAvailable()
    ? { format: 1, protection: 'safe-storage', wrapped: options.safeStorage.encryptString(text).toString('base64') }
    : { format: 1, protection: 'plain', hex: text };
  writeKeyRecord(options.userDataDir, record);
  return protectionOf(record, options);
}

/** A passphrase as the database accepts it (the server's rules: 8 characters at least, no NUL). */
export function passphraseKey(passphrase: string): DatabaseKey {
  const key = parseKey(passphrase, 'The passphrase');
  // 64 hex digits would be taken as a raw key at the headless server; keep passphrases unambiguous.
  if (key.kind !== 'passphrase') throw new Error('The passphrase must not be 64 hexadecimal digits');
  return key;
}

export function readKeyRecord(userDataDir: string): KeyRecord | null {
  let text: string;
  try {
    text = fs.readFileSync(keyRecordFile(userDataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const record = JSON.parse(text) as KeyRecord;
  if (record.format !== 1) throw new Error(`${keyRecordFile(userDataDir)} has an unknown format; update the app`);
  return record;
}

function writeKeyRecord(userDataDir: string, record: KeyRecord): void {
  fs.mkdirSync(userDataDir, { recursive: true, mode: 0o700 });
  const file = keyRecordFile(userDataDir);
  const temporary = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

function recordFor(key: DatabaseKey, options: KeystoreOptions): KeyRecord {
  if (key.kind !== 'raw') throw new Error('only a raw key is stored; a passphrase is asked for');
  if (!options.safeStorage.isEncryptionAvailable()) return { format: 1, protection: 'plain', hex: key.hex };
  return {
    format: 1,
    protection: 'safe-storage',
    wrapped: options.safeStorage.encryptString(key.hex).toString('base64'),
  };
}

function keyOf(record: Exclude<KeyRecord, { protection: 'passphrase' }>, options: KeystoreOptions): DatabaseKey {
  if (record.protection === 'plain') return parseKey(record.hex, KEY_RECORD_FILE);
  if (!options.safeStorage.isEncryptionAvailable()) {
    throw new KeyMissingError(
      'The database key is wrapped by the keychain, but the keychain is not available now. Unlock or start your keychain (GNOME Keyring, KWallet, macOS Keychain) and open the app again.',
    );
  }
  let hex: string;
  try {
    hex = options.safeStorage.decryptString(Buffer.from(record.wrapped, 'base64'));
  } catch (error) {
    throw new KeyMissingError(
      `The keychain could not unwrap the database key (${(error as Error).message}). It was wrapped by another keychain or user account: unlock the keychain used at the first run and open the app again.`,
    );
  }
  return parseKey(hex, KEY_RECORD_FILE);
}

function protectionOf(record: KeyRecord | null, options: KeystoreOptions): KeyProtection {
  if (record?.protection === 'passphrase') return PASSPHRASE_PROTECTION;
  if (record?.protection === 'plain') return UNAVAILABLE_PROTECTION;
  return safeStorageProtection(options.safeStorage, options.platform);
}

function keychainName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'Windows (DPAPI, tied to your user account)';
  return 'your desktop keyring';
}
