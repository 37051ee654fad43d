import { parentPort, workerData } from 'node:worker_threads';
import { undoOperation } from '../audit/undo.js';
import { authorizeWrite } from '../auth/authorize.js';
import { recordClientEntry } from '../clients/audit.js';
import { clientName, deleteClient } from '../clients/queries.js';
import type { DatabaseKey } from '../db/key.js';
import { openDatabase, WRITER_CACHE_MIB, type Db } from '../db/open.js';
import { HttpError } from '../http/errors.js';
import { NEEDS } from '../http/guards.js';
import { idleCollector } from '../memory.js';
import { runInBackground } from '../thread-priority.js';
import { deleteLocationsOf, editLocationsOf } from '../locations/edit.js';
import { plannedImport } from './planned-import.js';
import type { WriteAnswer, WriteKind, WriteMessage, Writes } from './writes.js';

/**
 * The writer thread: its own connection to the database, so that a 100,000-row import or the deletion
 * of a big client never blocks the server's event loop, while WAL lets the server's reads go on. Each
 * request is one synchronous transaction and one answer (store/writes.ts); nothing stays open between
 * messages.
 */
export interface WorkerData {
  file: string;
  key: DatabaseKey;
  /** The server connection's driver addon (Store.nativeBinding): both threads must load the same build. */
  nativeBinding: string | undefined;
}

const { file, key, nativeBinding } = workerData as WorkerData;
// Below the event loop: the server's answers come first when both want a core (thread-priority.ts).
runInBackground();
const db = openDatabase(file, key, { cacheMiB: WRITER_CACHE_MIB, nativeBinding });
// This thread does the checkpoints of the server's connections, after answering (see checkpoint()).
db.pragma('wal_autocheckpoint = 0');
const port = parentPort!;

type Handlers = { [K in WriteKind]: (db: Db, request: Writes[K]['request']) => Writes[K]['reply'] };

const handlers: Handlers = {
  // The body goes on to the planner thread, which reads it; this thread makes the writes it decides.
  importLocations: (db, { channel, body, ...request }) => plannedImport(db, channel, { request, body }),
  deleteClient: (db, { principal, clientId, now }) =>
    db
      .transaction(() => {
        authorizeWrite(db, principal, { ...NEEDS.clients, clientId }, now);
        const name = clientName(db, clientId);
        // The schema's ON DELETE CASCADE takes the locations and the Client Viewers with their sessions.
        const deleted = deleteClient(db, principal.organizationId, clientId);
        if (deleted) recordClientEntry(db, principal, 'client.deleted', { id: clientId, name: name ?? '' }, null, now);
        return { deleted };
      })
      .immediate(),
  deleteLocations: (db, request) => deleteLocationsOf(db, request),
  editLocations: (db, request) => editLocationsOf(db, request),
  undoOperation: (db, request) => undoOperation(db, request),
  checkpoint: () => null,
};

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
    // next checkpoint copies them. The write it follows has been answered already.
  }
}

function answer(message: WriteMessage): WriteAnswer {
  try {
    const handler = handlers[message.kind] as (db: Db, request: unknown) => unknown;
    return { id: message.id, ok: true, reply: handler(db, message.request) };
  } catch (error) {
    if (error instanceof HttpError) {
      const { statusCode, message: words, details } = error;
      return { id: message.id, ok: false, refusal: { statusCode, message: words, ...(details ? { details } : {}) } };
    }
    return failureOf(message.id, error);
  }
}

function failureOf(id: number, error: unknown): WriteAnswer {
  return { id, ok: false, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

function handle(message: WriteMessage): void {
  const reply = answer(message);
  // An import's answer (megabytes of JSON) moves to the main thread instead of being copied.
  const bytes = reply.ok ? (reply.reply as { bytes?: unknown } | null)?.bytes : undefined;
  // Each piece has a buffer of its own (JsonBytes' chunks, the encoded head and end).
  port.postMessage(
    reply,
    Array.isArray(bytes) ? (bytes as Uint8Array[]).map((piece) => piece.buffer as ArrayBuffer) : [],
  );
  // A dry run (of an import, a bulk edit or an undo) writes nothing: nothing to copy.
  const dryRun = (message.request as { dryRun?: boolean }).dryRun === true;
  if (!dryRun) writesSinceCheckpoint++;
}

/** Writes answered since the last checkpoint. */
let writesSinceCheckpoint = 0;
/** Writes after which a checkpoint runs even while more come: the WAL of a long burst stays bounded. */
const CHECKPOINT_AT_LEAST_EVERY = 8;
/** How long the thread waits for another write before it copies the pages of those answered. */
const IDLE_MS = 250;
let idle: NodeJS.Timeout | undefined;

/**
 * The checkpoint once no write has come for IDLE_MS: a write sent right after another's answer (a
 * script's next file, the undo of a delete just made) starts at once instead of after the copy of the
 * previous one's pages (seconds, after 100,000 locations deleted). Every eighth write of a burst is
 * followed by one at once.
 */
function checkpointSoon(): void {
  clearTimeout(idle);
  idle = undefined;
  if (writesSinceCheckpoint === 0) return;
  const now = () => {
    idle = undefined;
    writesSinceCheckpoint = 0;
    checkpoint();
  };
  if (writesSinceCheckpoint >= CHECKPOINT_AT_LEAST_EVERY) now();
  else idle = setTimeout(now, IDLE_MS);
}

/** A write's garbage (each is a long one: an import, a bulk edit, an undo) collected once the thread is idle. */
const collector = idleCollector();

// Messages are handled one after the other, in order: each is one synchronous call.
port.on('message', (message: WriteMessage | 'close') => {
  // A write on its way: the checkpoint waits for it.
  clearTimeout(idle);
  if (message === 'close') {
    // The store's close checkpoints and folds the WAL back (db/store.ts).
    db.close();
    port.close();
    return;
  }
  // Each write is one synchronous call: the collection set after the last one cannot run during it, and
  // soon() puts it off again.
  handle(message);
  checkpointSoon();
  collector.soon();
});
port.postMessage('ready');
