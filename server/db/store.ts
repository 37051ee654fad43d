import type { DatabaseKey } from './key.js';
import { migrate } from './migrate.js';
import { openDatabase, type Db } from './open.js';

/** The open database of this process, with what a worker needs to open its own connection to it. */
export interface Store {
  db: Db;
  file: string;
  key: DatabaseKey;
  close(): void;
}

/** Opens (creating on first run) and migrates. Throws WrongKeyError or DatabaseTooNewError untouched. */
export function openStore(file: string, key: DatabaseKey): Store {
  const db = openDatabase(file, key, { create: true });
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
    close: () => {
      if (!db.open) return;
      // Folds the WAL back into the database so that a closed data directory is one file.
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
