import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseKey } from '../../server/db/key.js';
import { openDatabase, WrongKeyError } from '../../server/db/open.js';
import { rekeyDatabase } from '../../server/db/rekey.js';
import { randomKey, tempDir } from '../helpers/app.js';

const PASSPHRASE: DatabaseKey = { kind: 'passphrase', passphrase: 'correct horse battery' };

const dirs: string[] = [];
function databaseFile(): string {
  const dir = tempDir('agency-desk-rekey-');
  dirs.push(dir);
  return path.join(dir, 'agency-desk.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('rekeyDatabase', () => {
  it('re-encrypts the real database: the new key opens it with its data, the old one no longer does', () => {
    const file = databaseFile();
    const old = randomKey();
    const db = openDatabase(file, old, { create: true });
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')");
    db.close();

    rekeyDatabase(file, old, PASSPHRASE);

    const reopened = openDatabase(file, PASSPHRASE);
    expect(reopened.prepare('SELECT text FROM notes').get()).toEqual({ text: 'kept' });
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
    reopened.close();
    expect(() => openDatabase(file, old)).toThrow(WrongKeyError);
  });

  it('refuses a wrong current key and leaves the file as it was', () => {
    const file = databaseFile();
    openDatabase(file, randomKey(), { create: true }).close();
    const before = fs.readFileSync(file);
    expect(() => rekeyDatabase(file, randomKey(), PASSPHRASE)).toThrow(WrongKeyError);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});
