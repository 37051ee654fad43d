import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { backupDatabase } from '../db/backup.js';
import { openDatabase } from '../db/open.js';
import { countsOf } from '../db/restore.js';
import type { BackupAnswer, BackupRequest, BackupThreadData } from './thread.js';

/**
 * The backup thread: its own connection, so that VACUUM INTO (seconds for a big database) never holds
 * the server's event loop; WAL lets the server read and write meanwhile, and the copy is one consistent
 * snapshot. It also counts what backups hold, which means decrypting every page of them.
 */
const { file, key, nativeBinding } = workerData as BackupThreadData;
const port = parentPort!;

function countsIn(backup: string) {
  try {
    const db = openDatabase(backup, key, { readOnly: true, nativeBinding });
    try {
      return countsOf(db);
    } finally {
      db.close();
    }
  } catch {
    // Made under another key (before a passphrase switch), or damaged: listed, without counts.
    return null;
  }
}

function handle(request: BackupRequest): BackupAnswer {
  if (request.kind === 'counts') {
    return { id: request.id, kind: 'counts', counts: request.files.map(countsIn) };
  }
  const db = openDatabase(file, key, { nativeBinding });
  try {
    backupDatabase(db, request.target);
  } finally {
    db.close();
  }
  return { id: request.id, kind: 'made', size: fs.statSync(request.target).size, counts: countsIn(request.target) };
}

port.on('message', (message: BackupRequest | 'close') => {
  if (message === 'close') return port.close();
  try {
    port.postMessage(handle(message));
  } catch (error) {
    port.postMessage({ id: message.id, kind: 'failed', message: (error as Error).message } satisfies BackupAnswer);
  }
});
port.postMessage('ready');
