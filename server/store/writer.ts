import type { ResourceLimits, TransferListItem } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import { outsideAsar, RequestThread } from '../db/thread.js';
import { HttpError } from '../http/errors.js';
import type { Allocator } from '../memory.js';
import { noPretenuring, unpinYoungGeneration } from '../node-flags.js';
import { PlannerThread } from './planner.js';
import type { ImportWriteRequest, WriteAnswer, WriteKind, WriteMessage, Writes } from './writes.js';
import type { WorkerData } from './writer-worker.js';

const fromSources = import.meta.url.endsWith('.ts');
const WORKER_URL = outsideAsar(new URL(`./writer-worker${fromSources ? '.ts' : '.js'}`, import.meta.url));

// An import's rows are checked and kept on these threads: a bounded old generation makes V8 collect early
// instead of growing the process by the garbage of every row (npm run bench, peak RSS). Young generations
// measured 2026-12-06 in paired runs of the bench's import (node-flags.ts lets these apply): the planner,
// which makes nearly all of an import's short-lived garbage, reads 100,000 rows in 0.90x the time and CPU
// at 24 MB than at 12 MB, and no faster at 48 MB (its peak then 20 MB higher); the writer, which makes
// little, showed no difference between 8 and 24 MB.
const WRITER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 12 };
const PLANNER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 24 };

/**
 * An import body this big (bytes) leaves the writer thread's heap tens of megabytes bigger until V8 next
 * collects: once no write has come for RETIRE_IDLE_MS after it, the thread is let go and the next write
 * starts a new one (npm run bench hostile: the idle level after hostile imports).
 */
const OUTSIZED_BYTES = 8 * 1024 * 1024;

/**
 * How long the thread waits for another write after an outsized one before it is let go. A new thread
 * starts cold: its code not yet optimized, its page cache empty, its statements not prepared. Let go at
 * once, each of a script's 100,000-row files paid that (an import of the bench's rows took 250 ms more
 * than on a warm thread); the memory goes back all the same, a few seconds later.
 */
export const RETIRE_IDLE_MS = 5_000;

/** How long after a retired thread the next one starts, unless a write starts it first. */
export const WARM_UP_AFTER_MS = 1_000;

/** How often the writer thread checkpoints what the server's own connection wrote. */
const CHECKPOINT_EVERY_MS = 30_000;

function isOutsized(kind: WriteKind, request: unknown): boolean {
  if (kind !== 'importLocations') return false;
  const { body } = request as Writes['importLocations']['request'];
  return body.reduce((length, piece) => length + piece.byteLength, 0) > OUTSIZED_BYTES;
}

export interface WriterOptions {
  /** How long the threads wait for a write after an outsized one before they go (RETIRE_IDLE_MS). */
  retireIdleMs?: number;
  /** The planner thread's heap (a test gives it too little, to see an import live through its end). */
  plannerLimits?: ResourceLimits;
}

/**
 * The main thread's side of the writer thread: `write(kind, request)` sends one typed request and
 * resolves with its one reply (Signal Desktop's shape). A refusal (4xx) comes back as the HttpError it
 * was; an unexpected failure is logged and answered as a 500 that says nothing was changed, since the
 * write was one transaction that rolled back.
 */
export class Writer {
  private readonly thread: RequestThread<WriteMessage, WriteAnswer>;
  /** An import's plan runs there, beside this thread's writes (store/plan-channel.ts). */
  private readonly planner: PlannerThread;
  private readonly running = new Set<Promise<unknown>>();
  private readonly checkpoints: NodeJS.Timeout;
  private warming: NodeJS.Timeout | undefined;
  /** Set after an outsized write: the thread is let go when it fires (any write meanwhile puts it off). */
  private retiring: NodeJS.Timeout | undefined;
  /** Whether an outsized write has been answered since the thread started: it is let go once idle. */
  private grown = false;
  private readonly retireIdleMs: number;

  constructor(
    store: Store,
    private readonly log: FastifyBaseLogger,
    private readonly allocator?: Allocator,
    options: WriterOptions = {},
  ) {
    this.retireIdleMs = options.retireIdleMs ?? RETIRE_IDLE_MS;
    const workerData: WorkerData = { file: store.file, key: store.key, nativeBinding: store.nativeBinding };
    unpinYoungGeneration();
    noPretenuring();
    this.thread = new RequestThread<WriteMessage, WriteAnswer>(
      WORKER_URL,
      workerData,
      WRITER_LIMITS,
      (id, code) => ({ id, ok: false, failure: `the writer thread stopped (exit code ${code})` }),
      (error) => log.error({ err: error }, 'writer thread error'),
    );
    this.planner = new PlannerThread(workerData, options.plannerLimits ?? PLANNER_LIMITS, (error) =>
      log.error({ err: error }, 'planner thread error'),
    );
    this.checkpoints = setInterval(() => {
      // A checkpoint is for a thread already running: it never starts one.
      if (this.thread.started) this.write('checkpoint', {}).catch(() => undefined);
    }, CHECKPOINT_EVERY_MS).unref();
  }

  async write<K extends WriteKind>(
    kind: K,
    request: Writes[K]['request'],
    transfer: TransferListItem[] = [],
  ): Promise<Writes[K]['reply']> {
    // Read before the request goes: a transferred body is detached (zero bytes) here afterwards.
    if (isOutsized(kind, request)) this.grown = true;
    // A write is coming: the thread stays (a checkpoint too: it does not start one, and it is short).
    clearTimeout(this.retiring);
    const answer = this.thread.request({ kind, request } as Omit<WriteMessage, 'id'>, transfer);
    this.running.add(answer);
    try {
      const result = await answer;
      if (result.ok) return result.reply as Writes[K]['reply'];
      if ('refusal' in result)
        throw new HttpError(result.refusal.statusCode, result.refusal.message, result.refusal.details);
      this.log.error({ failure: result.failure, kind }, 'write failed');
      throw new HttpError(500, 'The change failed; nothing was changed');
    } finally {
      this.running.delete(answer);
      if (this.grown && !this.busy) this.retireWhenIdle();
    }
  }

  /** Lets the thread go once no write has come for retireIdleMs, and starts the next one a moment later. */
  private retireWhenIdle(): void {
    clearTimeout(this.retiring);
    this.retiring = setTimeout(() => {
      if (this.busy) return;
      this.grown = false;
      // The stopped threads' heaps are unmapped; what they had from malloc stays in an arena until trimmed.
      void Promise.all([this.thread.retire(), this.planner.stop()]).then(() => this.allocator?.releaseSoon());
      this.warmUpSoon();
    }, this.retireIdleMs).unref();
  }

  /**
   * An import: its body goes to the planner thread, which reads it and decides the writes that this
   * thread makes, in one transaction (store/planned-import.ts).
   */
  async importLocations(request: ImportWriteRequest): Promise<Writes['importLocations']['reply']> {
    const lease = await this.planner.lease().catch((error: unknown) => {
      this.log.error({ err: error }, 'planner thread did not start');
      throw new HttpError(500, 'The change failed; nothing was changed');
    });
    const transfer = [...request.body.map((piece) => piece.buffer as ArrayBuffer), lease.channel.port];
    try {
      return await this.write('importLocations', { ...request, channel: lease.channel }, transfer);
    } finally {
      lease.end();
    }
  }

  /** Whether a write is under way (an import being written, a client being deleted...). */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Whether a thread is running (or starting) now. */
  get threadStarted(): boolean {
    return this.thread.started;
  }

  /**
   * Starts the next thread a moment after a retired one: the next write should not wait for a thread to
   * start, but loading the server's modules on a new thread while the old one tears its heap down and the
   * answer is still going out took the CPU from the event loop on a machine with two cores (a 61 ms GET
   * during the bench's upserts). A write that comes first starts the thread itself.
   */
  private warmUpSoon(): void {
    clearTimeout(this.warming);
    this.warming = setTimeout(() => this.warmUp(), WARM_UP_AFTER_MS).unref();
  }

  /** Starts the threads now, so that the first import does not wait for them; a failure shows at that import. */
  warmUp(): void {
    this.thread.start().catch((error: unknown) => this.log.warn({ err: error }, 'writer thread did not start'));
    this.planner.start().catch((error: unknown) => this.log.warn({ err: error }, 'planner thread did not start'));
  }

  /** Lets the writes under way finish, then stops the thread. */
  async close(): Promise<void> {
    clearInterval(this.checkpoints);
    clearTimeout(this.warming);
    clearTimeout(this.retiring);
    await Promise.allSettled([...this.running]);
    await Promise.all([this.thread.close(), this.planner.stop()]);
  }
}
