import type { DatabaseKey } from '../db/key.js';
import type { DatabaseCounts } from '../db/restore.js';
import { outsideAsar, RequestThread } from '../db/thread.js';
import type { Store } from '../db/store.js';

export interface BackupThreadData {
  file: string;
  key: DatabaseKey;
  nativeBinding: string | undefined;
}

export type BackupJob = { kind: 'backup'; target: string } | { kind: 'counts'; files: string[] };
export type BackupRequest = BackupJob & { id: number };

export type BackupAnswer =
  | { id: number; kind: 'made'; size: number; counts: DatabaseCounts | null }
  | { id: number; kind: 'counts'; counts: (DatabaseCounts | null)[] }
  | { id: number; kind: 'failed'; message: string };

const fromSources = import.meta.url.endsWith('.ts');
const WORKER_URL = outsideAsar(new URL(`./backup-worker${fromSources ? '.ts' : '.js'}`, import.meta.url));

/** A backup thread over the store's database, started for a job and closed when idle (backups are daily). */
export function backupThread(store: Store, onError: (error: Error) => void) {
  const data: BackupThreadData = { file: store.file, key: store.key, nativeBinding: store.nativeBinding };
  return new RequestThread<BackupRequest, BackupAnswer>(
    WORKER_URL,
    data,
    // VACUUM INTO streams pages through SQLite's own cache: the thread needs little heap.
    { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    (id, code) => ({ id, kind: 'failed', message: `the backup thread stopped (exit code ${code})` }),
    onError,
  );
}
