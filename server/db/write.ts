import { setTimeout as sleep } from 'node:timers/promises';
import { BUSY_TIMEOUT_MS, type Db } from './open.js';

// A write waits this long for the writer worker's transaction (a 100,000-row import holds the lock for
// a second or two) before it gives up with 503.
const WAIT_MS = 15_000;

/** The database stayed locked by a long change for longer than a write waits: the API answers 503. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  readonly retryAfterSeconds = 5;
}

function isBusy(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY')
  );
}

/**
 * Runs a change on the server's connection in one IMMEDIATE transaction, without ever blocking the event
 * loop: SQLite's busy handler would sleep on this thread while the writer worker holds the write lock,
 * so the lock is asked for without waiting and, when it is taken, asked again after an asynchronous
 * pause. IMMEDIATE takes the lock before the first read, so a change never acts on a stale snapshot.
 */
export async function write<T>(db: Db, change: () => T): Promise<T> {
  const transaction = db.transaction(change);
  const started = Date.now();
  for (let pauseMs = 2; ; pauseMs = Math.min(pauseMs * 2, 50)) {
    db.pragma('busy_timeout = 0');
    try {
      return transaction.immediate();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() - started > WAIT_MS) {
        throw new DatabaseBusyError('The database is busy with a long change; try again in a moment');
      }
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    await sleep(pauseMs);
  }
}
