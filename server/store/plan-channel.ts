import { receiveMessageOnPort, type MessagePort, type TransferListItem } from 'node:worker_threads';
import type { Principal } from '../http/guards.js';
import type { ImportWrite, ImportWriteSink } from '../locations/import-writes.js';
import type { ImportOutcome, ImportRequest } from '../locations/import.js';

/**
 * The channel between the writer thread and the planner thread for one import (issue 9 §0: "the writer
 * pulls checked pieces with receiveMessageOnPort and Atomics.wait, as the synckit library does"). The
 * writer runs the import as one synchronous transaction; inside it, it takes the writes the planner
 * decides, a piece of rows at a time, and makes them, while the planner reads, checks and decides the
 * next piece on its own connection. No transaction outlives the writer's one call.
 *
 * Made by the main thread for each import (store/writer.ts), which also watches both threads: a thread
 * that stops while the other waits for it is said in the signal, and the one waiting gives up.
 */
export interface PlanChannel {
  port: MessagePort;
  signal: Int32Array;
}

/** The signal's slots: the import's state, the messages posted and taken, and the planner's go. */
const STATE = 0;
const POSTED = 1;
const TAKEN = 2;
const GO = 3;
export const SIGNAL_SLOTS = 4;

/** STATE's values. */
export const RUNNING = 0;
/** The planner thread stopped (set by the main thread): the writer gives up. */
export const PLANNER_GONE = 1;
/** The writer gave up or stopped: the planner stops where it is. */
export const ABORTED = 2;

/** A new signal for one import. */
export function newSignal(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
}

/** Ends an import still running with `state` (once: the first to say wins), and wakes whoever waits. */
export function stopImport(signal: Int32Array, state: typeof PLANNER_GONE | typeof ABORTED): void {
  Atomics.compareExchange(signal, STATE, RUNNING, state);
  for (const slot of [POSTED, TAKEN, GO]) Atomics.notify(signal, slot);
}

/** Pieces the planner may be ahead of the writer: enough to keep both busy, few enough to bound memory. */
const AHEAD = 4;
/** How often a waiting thread looks at the state (a stopped thread never notifies). */
const LOOK_EVERY_MS = 100;

/** The import as the planner thread receives it: the request without its functions, who asks, the body. */
export interface PlanJob {
  request: Omit<ImportRequest, 'authorize' | 'actor' | 'body'> & { principal: Principal };
  body: Uint8Array[];
}

/** From the planner: the body is read (the writer may begin), writes, the answer, or a failure. */
export type PlannerMessage =
  | { kind: 'ready' }
  /**
   * A piece's writes as JSON text (import-writes.ts: plain data, no undefined where it counts, finite
   * numbers). V8's structured clone took each of a piece's thousands of small arrays apart and back
   * together; JSON.stringify and JSON.parse of the same do it in less time on both threads: paired runs of
   * the bench's import, 0.94x the wall time and the CPU (2026-12-06).
   */
  | { kind: 'writes'; json: string }
  | { kind: 'done'; outcome: ImportOutcome }
  | { kind: 'failed'; failure: string };

export class PlannerStopped extends Error {
  override name = 'PlannerStopped';
}

/** The writer's end. */
export class WriterEnd {
  constructor(private readonly channel: PlanChannel) {}

  send(job: PlanJob, transfer: readonly TransferListItem[]): void {
    this.channel.port.postMessage(job, transfer);
  }

  /** The planner's next message, waiting for it; throws when the planner stopped. */
  receive(): PlannerMessage {
    const { port, signal } = this.channel;
    for (;;) {
      // Read before looking: a message posted after it changes POSTED, and the wait returns at once.
      const posted = Atomics.load(signal, POSTED);
      const received = receiveMessageOnPort(port);
      if (received !== undefined) {
        Atomics.add(signal, TAKEN, 1);
        Atomics.notify(signal, TAKEN);
        return received.message as PlannerMessage;
      }
      if (Atomics.load(signal, STATE) !== RUNNING) throw new PlannerStopped('the planner thread stopped');
      Atomics.wait(signal, POSTED, posted, LOOK_EVERY_MS);
    }
  }

  /** The transaction has begun (or, for a dry run, need not): the planner may read. */
  go(): void {
    Atomics.store(this.channel.signal, GO, 1);
    Atomics.notify(this.channel.signal, GO);
  }

  /** The writer gave up: the planner stops at its next piece. */
  abort(): void {
    stopImport(this.channel.signal, ABORTED);
  }

  close(): void {
    this.channel.port.close();
  }
}

export class WriterGone extends Error {
  override name = 'WriterGone';
}

/** The planner's end: posts what it decides, a piece at a time, never far ahead of the writer. */
export class PlannerEnd implements ImportWriteSink {
  private pending: ImportWrite[] = [];

  constructor(private readonly channel: PlanChannel) {}

  post(message: PlannerMessage, transfer: readonly TransferListItem[] = []): void {
    const { port, signal } = this.channel;
    port.postMessage(message, transfer);
    Atomics.add(signal, POSTED, 1);
    Atomics.notify(signal, POSTED);
  }

  /** Waits until the writer has begun its transaction. */
  waitForGo(): void {
    const { signal } = this.channel;
    while (Atomics.load(signal, GO) === 0) {
      this.checkWriter();
      Atomics.wait(signal, GO, 0, LOOK_EVERY_MS);
    }
    this.checkWriter();
  }

  write(write: ImportWrite): void {
    this.pending.push(write);
  }

  /** Sends the piece's writes, then waits while the writer is more than AHEAD pieces behind. */
  endPiece(): void {
    this.checkWriter();
    if (this.pending.length > 0) {
      this.post({ kind: 'writes', json: JSON.stringify(this.pending) });
      this.pending = [];
    }
    const { signal } = this.channel;
    for (;;) {
      const taken = Atomics.load(signal, TAKEN);
      if (Atomics.load(signal, POSTED) - taken <= AHEAD) return;
      this.checkWriter();
      Atomics.wait(signal, TAKEN, taken, LOOK_EVERY_MS);
    }
  }

  /** The answer, after the writes not sent yet. */
  finish(outcome: ImportOutcome): void {
    this.endPiece();
    const bytes = 'bytes' in outcome ? outcome.bytes : [];
    this.post(
      { kind: 'done', outcome },
      bytes.map((piece) => piece.buffer as ArrayBuffer),
    );
  }

  private checkWriter(): void {
    if (Atomics.load(this.channel.signal, STATE) !== RUNNING) throw new WriterGone('the writer gave up the import');
  }
}
