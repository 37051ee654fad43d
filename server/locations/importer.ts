import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import type { ImportJob } from './import-job.js';
import type { WorkerRequest, WorkerResponse } from './import-worker.js';

export interface ImportResult {
  statusCode: number;
  /** The response body, JSON. */
  payload: string;
}

interface Pending {
  resolve(result: ImportResult): void;
  reject(error: Error): void;
}

const WORKER_URL = new URL(`./import-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

// An import of 100,000 rows keeps about 100 MB alive (a 32 MiB body about 150 MB); a bounded heap makes
// V8 collect early instead of growing the process towards a gigabyte, and a small young generation keeps
// the peak low (measured by npm run bench).
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 8 };

function startWorker(store: Store): Worker {
  const workerData = { file: store.file, key: store.key };
  const resourceLimits = RESOURCE_LIMITS;
  if (WORKER_URL.pathname.endsWith('.ts')) {
    // Running from TypeScript sources (tests, tsx): load the worker through tsx as well.
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
    return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
  }
  return new Worker(WORKER_URL, { workerData, resourceLimits });
}

/**
 * Sends imports to one long-lived worker thread, one at a time in arrival order. The worker starts on
 * the first import; if it dies, the imports in flight fail with a 500 and the next one starts a new worker.
 */
export class LocationImporter {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(job: ImportJob): Promise<ImportResult> {
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise<ImportResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: WorkerRequest = { id, job };
      worker.postMessage(request, [job.body.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private start(): Promise<Worker> {
    if (this.worker !== undefined && this.ready !== undefined) {
      const worker = this.worker;
      return this.ready.then(() => worker);
    }
    const worker = startWorker(this.store);
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once('message', (message) => (message === 'ready' ? resolve() : reject(new Error('import worker: bad start'))));
      worker.once('error', reject);
    });
    worker.on('message', (message: WorkerResponse | 'ready') => {
      if (message === 'ready') return;
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      this.pending.delete(message.id);
      if (message.failure !== undefined) this.log.error({ failure: message.failure }, 'import failed');
      pending.resolve({ statusCode: message.statusCode, payload: message.payload });
    });
    worker.on('error', (error) => this.log.error({ err: error }, 'import worker error'));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new Error(`the import worker stopped (exit code ${code})`));
      }
    });
    return this.ready.then(() => worker);
  }
}
