import { keyPragmaValue, type DatabaseKey } from './key.js';
import { openDatabase } from './open.js';

/**
 * Re-encrypts the database under a new key, offline: the server must be stopped. SQLite3 Multiple
 * Ciphers cannot rekey a database in WAL mode, so the journal goes to DELETE for the rekey and back
 * to WAL afterwards. Throws WrongKeyError (file untouched) when `from` does not open it.
 */
export function rekeyDatabase(file: string, from: DatabaseKey, to: DatabaseKey): void {
  const db = openDatabase(file, from);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.pragma(`rekey=${keyPragmaValue(to)}`);
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}
