import fs from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { keyPragmaValue, type DatabaseKey } from './key.js';

export type Db = Database.Database;

/** How long a statement of a worker or the CLI waits for another connection's write lock. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * The writer thread's page cache: 100,000-row inserts walk big indexes (the server's own keeps 4 MiB).
 * 16 MiB imports and upserts some 5% faster than 8 MiB (32 MiB no faster), for about 8 MB more at the
 * memory peak of an import, which stays well under its 300 MB (npm run bench).
 */
export const WRITER_CACHE_MIB = 16;

export class WrongKeyError extends Error {
  override name = 'WrongKeyError';
}

export interface OpenOptions {
  /** Create the file when it does not exist (the server's own connection); workers never create. */
  create?: boolean;
  /** Reads only, and leaves the file exactly as it is (a backup being listed or checked): no WAL switch. */
  readOnly?: boolean;
  /** Decrypted pages kept in memory; the writer, which walks the indexes of 100,000-row inserts, wants more. */
  cacheMiB?: number;
  /**
   * The driver's compiled addon (a better_sqlite3.node) to load instead of the one in node_modules: the
   * desktop app from a checkout runs an Electron build of it while node_modules keeps Node's.
   */
  nativeBinding?: string | undefined;
}

/**
 * Opens the SQLCipher database. SQLCipher 4 settings (`cipher='sqlcipher'`, `legacy=4`) keep the file
 * readable by standard SQLCipher tools with the same key. A wrong key throws WrongKeyError before any
 * write, so the file is left exactly as it was.
 */
export function openDatabase(file: string, key: DatabaseKey, options: OpenOptions = {}): Db {
  const value = keyPragmaValue(key);
  const existed = fs.existsSync(file);
  const db = openWithDriver(file, options);
  try {
    db.pragma(`cipher='sqlcipher'`);
    db.pragma('legacy=4');
    db.pragma(`key=${value}`);
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_NOTADB') {
        throw new WrongKeyError(
          existed
            ? `The database key is wrong for ${file} (or the file is not an Agency Desk database). Nothing was changed.`
            : `Cannot create the database ${file}`,
        );
      }
      throw error;
    }
    // A new database is its owner's alone, as db.key is (encrypted all the same); its -wal and -shm files
    // take its mode from SQLite.
    if (!existed && !options.readOnly) fs.chmodSync(file, 0o600);
    if (!options.readOnly) db.pragma('journal_mode = WAL');
    // NORMAL is durable in WAL mode except for the last transactions on power loss (SQLite docs, "WAL").
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Temporary tables and sort spills stay in memory: no plaintext temp files beside the database.
    db.pragma('temp_store = MEMORY');
    db.pragma(`cache_size = -${(options.cacheMiB ?? 4) * 1024}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function openWithDriver(file: string, options: OpenOptions): Db {
  const readonly = options.readOnly ?? false;
  if (options.nativeBinding === undefined) return new Database(file, { fileMustExist: !options.create, readonly });
  const { nativeBinding } = options;
  try {
    return new Database(file, { fileMustExist: !options.create, readonly, nativeBinding });
  } catch (error) {
    // A missing file, or one built for another runtime (NODE_MODULE_VERSION): name the file at fault.
    if ((error as { code?: string }).code?.startsWith('SQLITE_')) throw error;
    throw new Error(`The database driver ${nativeBinding} could not be loaded: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
