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
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  private nextId = 1;

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
      this.waiting.set(id, resolve);
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  start(): Promise<Worker> {
    if (this.ready !== undefined) return this.ready;
    const worker = this.spawn();
    this.worker = worker;
    this.ready = new Promise<Worker>((resolve, reject) => {
      worker.once('message', (message) =>
        message === 'ready' ? resolve(worker) : reject(new Error(`${this.url.pathname}: bad start`)),
      );
      worker.once('error', reject);
    });
    worker.on('message', (message: Answer | 'ready') => {
      if (message === 'ready') return;
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message);
    });
    worker.on('error', (error) => this.onError(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const [id, resolve] of this.waiting) resolve(this.onExit(id, code));
      this.waiting.clear();
    });
    return this.ready;
  }

  /** Waits for the thread to finish what it was sent, then stops it. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private spawn(): Worker {
    const options = { workerData: this.workerData, resourceLimits: this.resourceLimits };
    if (this.url.pathname.endsWith('.ts')) {
      // Running from TypeScript sources (tests, tsx): load the worker through tsx as well.
      const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(this.url.href)}); })`;
      return new Worker(bootstrap, { ...options, eval: true });
    }
    return new Worker(this.url, options);
  }
}
