import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileErrorInWords } from '../file-words.js';

/**
 * How the database is unlocked. The headless server reads it from the environment or a key file;
 * the desktop shell hands in one kept wrapped by the OS keychain. Nothing else knows where it came from.
 */
export type DatabaseKey = { kind: 'raw'; hex: string } | { kind: 'passphrase'; passphrase: string };

export class KeyError extends Error {
  override name = 'KeyError';
}

const RAW_KEY = /^[0-9a-fA-F]{64}$/;

/** 64 hex digits are a raw 256-bit key (no key derivation); anything else is a passphrase. */
export function parseKey(text: string, source: string): DatabaseKey {
  const value = text.trim();
  if (RAW_KEY.test(value)) return { kind: 'raw', hex: value.toLowerCase() };
  // SQLCipher accepts any passphrase, but an empty or trivially short one protects nothing.
  if (value.length < 8) throw new KeyError(`${source}: a passphrase needs at least 8 characters`);
  if (value.includes('\0')) throw new KeyError(`${source}: the key contains a NUL character`);
  return { kind: 'passphrase', passphrase: value };
}

export function generateRawKey(): DatabaseKey {
  return { kind: 'raw', hex: randomBytes(32).toString('hex') };
}

/** The value for `PRAGMA key`, quoted for SQL; raw keys use SQLCipher's x'...' blob literal. */
export function keyPragmaValue(key: DatabaseKey): string {
  if (key.kind === 'raw') {
    if (!RAW_KEY.test(key.hex)) throw new KeyError('a raw key is 64 hex digits');
    return `"x'${key.hex}'"`;
  }
  return `'${key.passphrase.replaceAll("'", "''")}'`;
}

export interface HeadlessKeyOptions {
  dbKey: string | undefined;
  keyFile: string | undefined;
  dataDir: string;
  databaseFile: string;
  log: (message: string) => void;
}

/**
 * The headless order (issue 2, "Storage"): AGENCY_DESK_DB_KEY, else AGENCY_DESK_KEY_FILE, else
 * <dataDir>/db.key, created with mode 0600 on first run only. A database without its key is never
 * replaced by a new one.
 */
export function headlessKey(options: HeadlessKeyOptions): DatabaseKey {
  if (options.dbKey !== undefined) return parseKey(options.dbKey, 'AGENCY_DESK_DB_KEY');
  if (options.keyFile !== undefined) return parseKey(readKeyFile(options.keyFile), 'AGENCY_DESK_KEY_FILE');
  const defaultFile = path.join(options.dataDir, 'db.key');
  if (fs.existsSync(defaultFile)) return parseKey(readKeyFile(defaultFile), defaultFile);
  if (fs.existsSync(options.databaseFile)) {
    throw new KeyError(
      `${options.databaseFile} exists but no key was given: set AGENCY_DESK_DB_KEY or AGENCY_DESK_KEY_FILE, or restore ${defaultFile}`,
    );
  }
  const key = generateRawKey();
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // 'wx': never overwrite a key file that appeared since the check above.
  fs.writeFileSync(defaultFile, `${key.kind === 'raw' ? key.hex : ''}\n`, { mode: 0o600, flag: 'wx' });
  options.log(
    `Created a new random database key in ${defaultFile} (mode 0600). Back it up: without it the data cannot be read.`,
  );
  return key;
}

/** A key file's text; a file that cannot be read is a KeyError saying why in words, not Node's (a walk). */
export function readKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KeyError(`Cannot read the key file ${file}: ${fileErrorInWords(error, 'reading')}`);
  }
}
