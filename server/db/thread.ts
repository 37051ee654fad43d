import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

/**
 * Worker threads cannot load a script from inside an asar archive (electron/electron#22446): in the
 * packaged desktop app the workers, the server code and the modules they import are unpacked beside it
 * (electron-builder.yml, asarUnpack), and they start from there. Elsewhere the URL is unchanged.
 */
export function outsideAsar(url: URL): URL {
  const unpacked = new URL(url);
  unpacked.pathname = url.pathname.replace('/app.asar/', '/app.asar.unpacked/');
  return unpacked;
}

/** A message to the thread carries an id; the thread answers each with one message of the same id. */
export interface Numbered {
  id: number;
}

/**
 * One long-lived worker thread that answers requests one reply each, started when first needed and
 * again after it dies (a request under way then gets `onExit`'s answer). It knows nothing of what the
 * requests are.
 */
export class RequestThread<Request extends Numbered, Answer extends Numbered> {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  /** Each request waiting for its answer, with the thread it went to (a retired thread may still be finishing). */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (answer: Answer) => void }>();
  private nextId = 1;
  /** Threads let go by retire() that have not stopped yet: close() waits for them too. */
  private readonly retiring = new Set<Promise<void>>();

  constructor(
    private readonly url: URL,
    private readonly workerData: unknown,
    private readonly resourceLimits: ResourceLimits,
    /** The answer a request gets when the thread dies under it. */
    private readonly onExit: (id: number, code: number) => Answer,
    private readonly onError: (error: Error) => void,
  ) {}

  get started(): boolean {
    return this.worker !== undefined;
  }

  /** Sends one request and waits for its one answer. */
  async request(request: Omit<Request, 'id'>, transfer: readonly TransferListItem[] = []): Promise<Answer> {
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      this.waiting.set(id, { worker, resolve });
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  start(): Promise<Worker> {
    if (this.ready !== undefined) return this.ready;
    const worker = this.spawn();
    this.worker = worker;
    this.ready = whenReady(worker, this.url);
    worker.on('message', (message: Answer | 'ready') => {
      if (message === 'ready') return;
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiting?.resolve(message);
    });
    worker.on('error', (error) => this.onError(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const [id, waiting] of this.waiting) {
        if (waiting.worker !== worker) continue;
        this.waiting.delete(id);
        waiting.resolve(this.onExit(id, code));
      }
    });
    return this.ready;
  }

  /**
   * Lets this thread go once it has done what it was sent (it stops after that) and gives the next
   * request a new one: all of a thread's memory goes back to the system with it, where a long-lived
   * heap keeps the pages of its biggest job until V8 next collects. Only for a caller that has nothing
   * waiting: two threads would otherwise write at once. Resolves when the thread has stopped.
   */
  retire(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return Promise.resolve();
    this.worker = undefined;
    this.ready = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.retiring.add(exited);
    void exited.then(() => this.retiring.delete(exited));
    worker.postMessage('close');
    return exited;
  }

  /** Waits for the thread to finish what it was sent, then stops it. */
  async close(): Promise<void> {
    await Promise.all([...this.retiring]);
    const worker = this.worker;
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private spawn(): Worker {
    return spawnWorker(this.url, { workerData: this.workerData, resourceLimits: this.resourceLimits });
  }
}

/** A worker thread of this script, from its built file, or from its TypeScript source through tsx (tests, tsx). */
export function spawnWorker(url: URL, options: { workerData: unknown; resourceLimits: ResourceLimits }): Worker {
  if (url.pathname.endsWith('.ts')) {
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
    return new Worker(bootstrap, { ...options, eval: true });
  }
  return new Worker(url, options);
}

/** A worker's start: resolves once it has said 'ready' (its connection open), rejects if it fails first. */
export function whenReady(worker: Worker, url: URL): Promise<Worker> {
  return new Promise<Worker>((resolve, reject) => {
    worker.once('message', (message) =>
      message === 'ready' ? resolve(worker) : reject(new Error(`${url.pathname}: bad start`)),
    );
    worker.once('error', reject);
  });
}
