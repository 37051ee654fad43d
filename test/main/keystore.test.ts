import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  abandonPassphraseSwitch,
  beginPassphraseSwitch,
  finishPassphraseSwitch,
  interruptedSwitchKey,
  keyRecordFile,
  KeyMissingError,
  loadOrCreateKey,
  passphraseKey,
  readKeyRecord,
  type KeystoreOptions,
} from '../../main/keystore.js';
import { tempDir } from '../helpers/app.js';
import { FakeSafeStorage } from './fake-electron.js';

const dirs: string[] = [];
function keystore(safeStorage = new FakeSafeStorage(), platform: NodeJS.Platform = 'linux'): KeystoreOptions {
  const userDataDir = tempDir('agency-desk-keystore-');
  dirs.push(userDataDir);
  return { safeStorage, platform, userDataDir };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function unlockedKey(options: KeystoreOptions, databaseExists: boolean) {
  const result = loadOrCreateKey(options, databaseExists);
  if (result.state !== 'unlocked') throw new Error(`expected an unlocked key, got ${result.state}`);
  return result;
}

describe('the database key', () => {
  it('is created on first run as a random 256-bit key, stored only wrapped by safeStorage', () => {
    const options = keystore();
    const { key, protection } = unlockedKey(options, false);
    expect(key.kind).toBe('raw');
    const hex = key.kind === 'raw' ? key.hex : '';
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    const stored = fs.readFileSync(keyRecordFile(options.userDataDir), 'utf8');
    expect(stored).not.toContain(hex);
    expect(readKeyRecord(options.userDataDir)?.protection).toBe('safe-storage');
    expect(protection.level).toBe('os-keychain');
    if (process.platform !== 'win32') expect(fs.statSync(keyRecordFile(options.userDataDir)).mode & 0o777).toBe(0o600);
  });

  it('is unwrapped to the same key at the next start, and differs between installations', () => {
    const options = keystore();
    const first = unlockedKey(options, false).key;
    expect(unlockedKey(options, true).key).toEqual(first);
    expect(unlockedKey(keystore(), false).key).not.toEqual(first);
  });

  it("is reported as weak when Linux's safeStorage falls back to basic_text", () => {
    const { protection } = unlockedKey(keystore(new FakeSafeStorage(true, 'basic_text')), false);
    expect(protection.level).toBe('weak');
    expect(protection.message).toMatch(/only obfuscated/);
    expect(protection.message).toMatch(/passphrase/);
  });

  it('is not called weak for basic_text off Linux (the backend exists only there)', () => {
    const { protection } = unlockedKey(keystore(new FakeSafeStorage(true, 'basic_text'), 'darwin'), false);
    expect(protection).toEqual({
      level: 'os-keychain',
      message: 'The database key is protected by the macOS Keychain.',
    });
  });

  it('is kept in a 0600 file, and said to be unprotected, where safeStorage cannot encrypt at all', () => {
    const options = keystore(new FakeSafeStorage(false));
    const { key, protection } = unlockedKey(options, false);
    expect(protection.level).toBe('unavailable');
    expect(protection.message).toMatch(/unencrypted/);
    expect(readKeyRecord(options.userDataDir)).toEqual({
      format: 1,
      protection: 'plain',
      hex: key.kind === 'raw' && key.hex,
    });
  });

  it('stored in the clear is wrapped as soon as a keychain is available', () => {
    const safeStorage = new FakeSafeStorage(false);
    const options = keystore(safeStorage);
    const { key } = unlockedKey(options, false);
    safeStorage.available = true;
    const again = unlockedKey(options, true);
    expect(again.key).toEqual(key);
    expect(again.protection.level).toBe('os-keychain');
    expect(readKeyRecord(options.userDataDir)?.protection).toBe('safe-storage');
  });

  it('is never replaced when a database exists without its record', () => {
    const options = keystore();
    expect(() => loadOrCreateKey(options, true)).toThrow(KeyMissingError);
    expect(fs.existsSync(keyRecordFile(options.userDataDir))).toBe(false);
  });

  it('wrapped by a keychain that is now unavailable or different fails with a plain explanation', () => {
    const options = keystore();
    unlockedKey(options, false);
    expect(() => loadOrCreateKey({ ...options, safeStorage: new FakeSafeStorage(false) }, true)).toThrow(
      /keychain is not available/,
    );
    expect(() => loadOrCreateKey({ ...options, safeStorage: new FakeSafeStorage() }, true)).toThrow(KeyMissingError);
  });
});

describe('a passphrase', () => {
  it('needs 8 characters and may not look like a raw hex key', () => {
    expect(passphraseKey('correct horse')).toEqual({ kind: 'passphrase', passphrase: 'correct horse' });
    expect(() => passphraseKey('short')).toThrow(/8 characters/);
    expect(() => passphraseKey('ab'.repeat(32))).toThrow(/64 hexadecimal/);
  });

  it('mode is remembered as a marker only: the next start asks for it', () => {
    const options = keystore();
    unlockedKey(options, false);
    beginPassphraseSwitch(options.userDataDir);
    finishPassphraseSwitch(options.userDataDir);
    expect(readKeyRecord(options.userDataDir)).toEqual({ format: 1, protection: 'passphrase' });
    expect(loadOrCreateKey(options, true)).toEqual({
      state: 'needs-passphrase',
      protection: expect.objectContaining({ level: 'passphrase' }),
    });
    expect(interruptedSwitchKey(options)).toBeNull();
  });

  it('switch interrupted before its end still knows the old key, and can be abandoned', () => {
    const options = keystore();
    const { key } = unlockedKey(options, false);
    beginPassphraseSwitch(options.userDataDir);
    expect(loadOrCreateKey(options, true).state).toBe('needs-passphrase');
    expect(interruptedSwitchKey(options)).toEqual(key);
    abandonPassphraseSwitch(options.userDataDir);
    expect(unlockedKey(options, true).key).toEqual(key);
  });
});
