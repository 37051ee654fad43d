import { MessageChannel, type ResourceLimits, type Worker } from 'node:worker_threads';
import { outsideAsar, spawnWorker, whenReady } from '../db/thread.js';
import { ABORTED, newSignal, PLANNER_GONE, stopImport, type PlanChannel } from './plan-channel.js';

const fromSources = import.meta.url.endsWith('.ts');
const PLANNER_URL = outsideAsar(new URL(`./planner-worker${fromSources ? '.ts' : '.js'}`, import.meta.url));

/** One import's channel to the planner (the writer's end), and what ends it once the writer has answered. */
export interface PlannerLease {
  channel: PlanChannel;
  /** The import is over (answered, or its thread gone): a planner still at it stops. */
  end(): void;
}

/**
 * The main thread's side of the planner thread (store/planner-worker.ts): started with the writer thread
 * and let go with it. For each import it makes a channel between the two threads, sends the planner its
 * end, and watches: when the planner stops while an import waits for it, the import's signal says so
 * and the writer gives up (an import never waits for a thread that is gone).
 */
export class PlannerThread {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  /** The imports under way: their signals. */
  private readonly imports = new Set<Int32Array>();

  constructor(
    private readonly workerData: unknown,
    private readonly resourceLimits: ResourceLimits,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): Promise<Worker> {
    if (this.ready !== undefined) return this.ready;
    const worker = spawnWorker(PLANNER_URL, { workerData: this.workerData, resourceLimits: this.resourceLimits });
    this.worker = worker;
    this.ready = whenReady(worker, PLANNER_URL);
    worker.on('error', (error) => this.onError(error));
    worker.on('exit', () => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const signal of this.imports) stopImport(signal, PLANNER_GONE);
    });
    return this.ready;
  }

  /** A channel for one import: the planner's end sent to it now, the writer's end given. */
  async lease(): Promise<PlannerLease> {
    const worker = await this.start();
    const { port1, port2 } = new MessageChannel();
    const signal = newSignal();
    this.imports.add(signal);
    worker.postMessage({ port: port2, signal }, [port2]);
    return {
      channel: { port: port1, signal },
      end: () => {
        this.imports.delete(signal);
        // A planner still at it (its writer failed, or stopped) stops at its next piece.
        stopImport(signal, ABORTED);
      },
    };
  }

  /** Stops the thread once it has done what it was sent; the next import starts a new one. */
  stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker === undefined) return Promise.resolve();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    return exited;
  }
}
