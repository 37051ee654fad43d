import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from './store.js';
import type { WriterJob } from './writer-jobs.js';
import type { WorkerData, WorkerRequest, WorkerResponse } from './writer-worker.js';

export interface WriterResult {
  statusCode: number;
  /** The response body, JSON. */
  payload: string;
}

interface Pending {
  resolve(result: WriterResult): void;
  reject(error: Error): void;
}

/**
 * Worker threads cannot load a script from inside an asar archive (electron/electron#22446): in the
 * packaged desktop app the worker, the server code and the modules it imports are unpacked beside it
 * (electron-builder.yml, asarUnpack), and it starts from there. Elsewhere the URL is unchanged.
 */
export function outsideAsar(url: URL): URL {
  const unpacked = new URL(url);
  unpacked.pathname = url.pathname.replace('/app.asar/', '/app.asar.unpacked/');
  return unpacked;
}

const WORKER_URL = outsideAsar(
  new URL(`./writer-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

// An import of 100,000 rows keeps about 100 MB alive (a 32 MiB body about 150 MB); a bounded heap makes
// V8 collect early instead of growing the process towards a gigabyte, and a small young generation keeps
// the peak low (measured by npm run bench).
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 8 };

function startWorker(store: Store): Worker {
  const workerData: WorkerData = { file: store.file, key: store.key, nativeBinding: store.nativeBinding };
  const resourceLimits = RESOURCE_LIMITS;
  if (WORKER_URL.pathname.endsWith('.ts')) {
    // Running from TypeScript sources (tests, tsx): load the worker through tsx as well.
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
    return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
  }
  return new Worker(WORKER_URL, { workerData, resourceLimits });
}

/**
 * An import's body moves to the worker without a copy when it has an ArrayBuffer of its own; a small
 * body may share Node's Buffer pool, which must never be detached, so that one is copied first.
 */
function ownBuffer(job: WriterJob & { kind: 'import' }): ArrayBuffer {
  const { body } = job;
  if (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength) job.body = new Uint8Array(body);
  return job.body.buffer as ArrayBuffer;
}

/**
 * Sends jobs to one long-lived writer thread, one at a time in arrival order. The worker starts on the
 * first job; if it dies, the jobs in flight fail with a 500 and the next one starts a new worker.
 */
export class Writer {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(job: WriterJob): Promise<WriterResult> {
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise<WriterResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: WorkerRequest = { id, job };
      worker.postMessage(request, job.kind === 'import' ? [ownBuffer(job)] : []);
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

  /** Starts the worker now, so that the first import does not wait for it; a failure shows at that import. */
  warmUp(): void {
    this.start().catch((error: unknown) => this.log.warn({ err: error }, 'writer worker did not start'));
  }

  private start(): Promise<Worker> {
    if (this.worker !== undefined && this.ready !== undefined) {
      const worker = this.worker;
      return this.ready.then(() => worker);
    }
    const worker = startWorker(this.store);
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once('message', (message) =>
        message === 'ready' ? resolve() : reject(new Error('writer worker: bad start')),
      );
      worker.once('error', reject);
    });
    worker.on('message', (message: WorkerResponse | 'ready') => {
      if (message === 'ready') return;
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      this.pending.delete(message.id);
      if (message.failure !== undefined) this.log.error({ failure: message.failure }, 'writer job failed');
      pending.resolve({ statusCode: message.statusCode, payload: message.payload });
    });
    worker.on('error', (error) => this.log.error({ err: error }, 'writer worker error'));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new Error(`the writer worker stopped (exit code ${code})`));
      }
    });
    return this.ready.then(() => worker);
  }
}
