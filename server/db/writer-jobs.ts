import type { MessagePort } from 'node:worker_threads';
import { errorBody } from '../http/errors.js';
import type { DuplicatePolicy } from '../locations/schemas.js';

/**
 * The writes that can take seconds on a big client, done off the server's event loop by two threads:
 * the parser (locations/import-worker.ts) reads and checks an import's rows, and the writer
 * (db/writer-worker.ts), the only thread that writes big changes, inserts them in one transaction while
 * the parser goes on with the next rows. server/db/writer.ts passes the messages between them.
 */
export type WriterJob = ImportJob | DeleteClientJob;

export interface ImportJob {
  kind: 'import';
  organizationId: string;
  /** The raw request body: parsed by the parser thread, never on the event loop. */
  body: Uint8Array;
  dryRun: boolean;
  duplicates: DuplicatePolicy;
  now: number;
}

export interface DeleteClientJob {
  kind: 'delete-client';
  organizationId: string;
  clientId: string;
}

/**
 * The JSON arrays an answer of the parser is made of, sent to the server thread in pieces as they are
 * written (locations/import-job.ts): an import's answer, its invalid rows, a dry run's rows.
 */
export type Stream = 'answer' | 'rows' | 'errors';

/** A finished job's answer: its status and its body, already JSON. */
export interface WriterOutcome {
  statusCode: number;
  /** The body, or its parts in order: text, and the pieces of a stream where it says so. */
  payload: string | (string | { stream: Stream })[];
  /** Instead of the payload, for a committed import: its answer in pieces, to be sent one after another. */
  pieces?: Uint8Array[];
  /** For the server log when the job failed unexpectedly. */
  failure?: string;
}

export function errorOutcome(statusCode: number, message: string): WriterOutcome {
  return { statusCode, payload: JSON.stringify(errorBody(statusCode, message)) };
}

/** A job that failed unexpectedly: a 500 that says nothing was changed, with the cause for the log. */
export function failedJob(cause: unknown): WriterOutcome {
  return {
    statusCode: 500,
    payload: JSON.stringify(errorBody(500, 'The change failed; nothing was changed')),
    failure: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause),
  };
}

// Messages carry the job's id; each thread answers on the id it was given. The parser sends the checked
// rows straight to the writer over a channel of their own (RowsMessage): they never pass through the
// server thread.

/** A new channel to the other worker thread, after one of the two (re)started. */
export interface Connect {
  kind: 'connect';
  port: MessagePort;
}

/** To the parser thread. */
export type ParserRequest =
  | { id: number; kind: 'parse'; body: Uint8Array; dryRun: boolean; duplicates: DuplicatePolicy }
  /** A piece of the client's existing locations (locations/import-write.ts, openImport). */
  | { id: number; kind: 'existing'; json: string }
  /** The writer has checked the client (and, for an import, holds the write lock) and sent every existing location: go on. */
  | { id: number; kind: 'opened'; progress: Int32Array }
  /** The job ended before 'opened': drop its rows. */
  | { id: number; kind: 'forget' };

/** From the parser thread. */
export type ParserMessage =
  | { id: number; kind: 'outcome'; outcome: WriterOutcome }
  /** The body is a well-formed import for this client: open it. */
  | { id: number; kind: 'open'; clientId: string }
  /**
   * The next entries of one of the answer's arrays: JSON without the brackets, as UTF-8 that moves without
   * a copy. The server thread keeps them outside its heap until the answer is known: an answer in pieces
   * of some 64 KB, never one allocation of 10 MB.
   */
  | { id: number; kind: 'piece'; stream: Stream; json: Uint8Array };

/** From the parser to the writer, over their channel. */
export type RowsMessage =
  /** The next checked rows to insert, as JSON (locations/import-write.ts reads it). */
  | { id: number; kind: 'rows'; json: string }
  /** That was every row: commit. The answer's entries came to the server thread in `pieces` pieces. */
  | { id: number; kind: 'end'; count: number; pieces: number };

/** To the writer thread. */
export type WriterRequest =
  | ({ id: number } & DeleteClientJob)
  | {
      id: number;
      kind: 'open';
      organizationId: string;
      clientId: string;
      write: boolean;
      now: number;
      progress: Int32Array;
    }
  | { id: number; kind: 'rollback' }
  /** Copy the WAL into the database file (the server's connection never does). */
  | { id: number; kind: 'checkpoint' };

/** From the writer thread. */
export type WriterMessage =
  | { id: number; kind: 'outcome'; outcome: WriterOutcome }
  /** A piece of the client's existing locations, for duplicate detection (JSON); 'opened' follows. */
  | { id: number; kind: 'existing'; json: string }
  /** The client is the organization's; for an import, the transaction is open. */
  | { id: number; kind: 'opened' }
  /** The import's transaction was rolled back, as asked. */
  | { id: number; kind: 'rolledBack' }
  /** The import is written: `count` rows, whose answer the parser sent in `pieces` pieces. */
  | { id: number; kind: 'committed'; count: number; pieces: number };

/**
 * An import's progress, shared by the three threads (an Int32Array over a SharedArrayBuffer): how many
 * pieces of rows the writer has inserted, and whether the import has ended. The parser checks rows faster
 * than SQLite inserts them; it waits when it is PIECES_AHEAD pieces ahead, so that the rows in flight
 * between the threads stay a few hundred kilobytes instead of the whole import.
 */
const INSERTED = 0;
const ENDED = 1;
const PIECES_AHEAD = 4;

export function newProgress(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** The writer has inserted one more piece. */
export function pieceInserted(progress: Int32Array): void {
  Atomics.add(progress, INSERTED, 1);
  Atomics.notify(progress, INSERTED);
}

/** The import is over, however it ended: the parser stops waiting and stops working on it. */
export function importEnded(progress: Int32Array): void {
  Atomics.store(progress, ENDED, 1);
  Atomics.notify(progress, INSERTED);
}

/**
 * Blocks the parser thread until fewer than PIECES_AHEAD of the `sent` pieces wait for the writer;
 * false when the import has ended meanwhile.
 */
export function waitForWriter(progress: Int32Array, sent: number): boolean {
  for (;;) {
    if (Atomics.load(progress, ENDED) !== 0) return false;
    const inserted = Atomics.load(progress, INSERTED);
    if (sent - inserted < PIECES_AHEAD) return true;
    Atomics.wait(progress, INSERTED, inserted, 1_000);
  }
}
