import type { DatabaseKey } from './key.js';
import { migrate } from './migrate.js';
import { openDatabase, type Db } from './open.js';

/** The open database of this process, with what a worker needs to open its own connection to it. */
export interface Store {
  db: Db;
  file: string;
  key: DatabaseKey;
  /** The driver's addon when it is not node_modules' own (OpenOptions.nativeBinding); workers load the same. */
  nativeBinding: string | undefined;
  close(): void;
}

/** Opens (creating on first run) and migrates. Throws WrongKeyError or DatabaseTooNewError untouched. */
export function openStore(file: string, key: DatabaseKey, options: { nativeBinding?: string | undefined } = {}): Store {
  const { nativeBinding } = options;
  const db = openDatabase(file, key, { create: true, nativeBinding });
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    db,
    file,
    key,
    nativeBinding,
    close: () => {
      if (!db.open) return;
      // Folds the WAL back into the database so that a closed data directory is one file.
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
