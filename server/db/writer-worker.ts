import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { deleteClient } from '../clients/queries.js';
import { errorBody } from '../http/errors.js';
import { commitImport, insertRows, openImport, rollbackImport, type OpenedImport } from '../locations/import-write.js';
import type { DatabaseKey } from './key.js';
import { openDatabase, WRITER_CACHE_MIB } from './open.js';
import {
  failedJob,
  pieceInserted,
  type Connect,
  type RowsMessage,
  type WriterMessage,
  type WriterRequest,
} from './writer-jobs.js';

/**
 * The writer thread: its own connection to the database, so that a 100,000-row import (one write
 * transaction fed by the parser thread) or the deletion of a big client never blocks the server's event
 * loop, while WAL lets the server's reads go on. server/db/writer.ts sends one job at a time; an import's
 * transaction stays open across its messages, the parser's rows among them, until 'end' or 'rollback'.
 */
export interface WorkerData {
  file: string;
  key: DatabaseKey;
  /** The server connection's driver addon (Store.nativeBinding): both threads must load the same build. */
  nativeBinding: string | undefined;
}

const { file, key, nativeBinding } = workerData as WorkerData;
const db = openDatabase(file, key, { cacheMiB: WRITER_CACHE_MIB, nativeBinding });
// This thread does the checkpoints of the server's connections, after answering (see checkpoint()).
db.pragma('wal_autocheckpoint = 0');
const port = parentPort!;

/** The import whose transaction is open, by job id. */
let open: { id: number; opened: OpenedImport; progress: Int32Array } | undefined;

const post = (message: WriterMessage) => port.postMessage(message);

function handle(message: WriterRequest | RowsMessage): void {
  switch (message.kind) {
    case 'delete-client': {
      // The schema's ON DELETE CASCADE takes the locations and the Client Viewers with their sessions.
      const outcome = deleteClient(db, message.organizationId, message.clientId)
        ? { statusCode: 200, payload: JSON.stringify({ success: true }) }
        : { statusCode: 404, payload: JSON.stringify(errorBody(404, 'No client with this id')) };
      post({ id: message.id, kind: 'outcome', outcome });
      return checkpoint();
    }
    case 'checkpoint':
      checkpoint();
      return post({ id: message.id, kind: 'outcome', outcome: { statusCode: 200, payload: '{}' } });
    case 'open': {
      const result = openImport(db, message, (json) => post({ id: message.id, kind: 'existing', json }));
      if ('statusCode' in result) return post({ id: message.id, kind: 'outcome', outcome: result });
      if (result.opened !== undefined) open = { id: message.id, opened: result.opened, progress: message.progress };
      return post({ id: message.id, kind: 'opened' });
    }
    case 'rows':
      // After a failure or a rollback, the rows still on their way are dropped.
      if (open?.id !== message.id) return;
      insertRows(db, open.opened, message.json);
      return pieceInserted(open.progress);
    case 'end':
      if (open?.id !== message.id) return;
      commitImport(db, open.opened, message.count);
      open = undefined;
      post({ id: message.id, kind: 'committed', count: message.count, pieces: message.pieces });
      return checkpoint();
    case 'rollback':
      // Nothing to do when the import has committed, failed or never opened: its answer went already.
      if (open?.id !== message.id) return;
      rollbackImport(db);
      open = undefined;
      return post({ id: message.id, kind: 'rolledBack' });
  }
}

/**
 * Copies the WAL's new pages into the database file. SQLite would do it inside the COMMIT of a big
 * import (a third of its time for 100,000 rows); here it runs once the answer has gone, and on this
 * thread only: the server's own connection never checkpoints (server/app.ts), so its event loop never
 * copies an import's pages. PASSIVE: it never waits for readers, and what it cannot copy now the next
 * checkpoint copies.
 */
function checkpoint(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Nothing depends on it: the pages stay in the WAL, where every connection reads them, until the
    // next checkpoint copies them. The job it follows has been answered already.
  }
}

/** The channel from the parser thread (server/db/writer.ts connects the two). */
let parser: MessagePort | undefined;

function receive(message: WriterRequest | RowsMessage): void {
  try {
    handle(message);
  } catch (error) {
    rollbackImport(db);
    open = undefined;
    post({ id: message.id, kind: 'outcome', outcome: failedJob(error) });
  }
}

let closed = false;

port.on('message', (message: WriterRequest | Connect | 'close') => {
  // Node still delivers messages queued behind 'close': a channel listened to then would keep this
  // thread alive for ever, so after 'close' a channel is closed and anything else dropped.
  if (closed) {
    if (message !== 'close' && message.kind === 'connect') message.port.close();
    return;
  }
  if (message === 'close') {
    closed = true;
    rollbackImport(db);
    db.close();
    parser?.close();
    port.close();
    return;
  }
  if (message.kind === 'connect') {
    parser?.close();
    parser = message.port;
    parser.on('message', receive);
    return;
  }
  receive(message);
});
port.postMessage('ready');
