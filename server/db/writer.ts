import { MessageChannel, Worker, type ResourceLimits } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from './store.js';
import {
  errorOutcome,
  failedJob,
  importEnded,
  newProgress,
  type Connect,
  type DeleteClientJob,
  type ImportJob,
  type ParserMessage,
  type ParserRequest,
  type Stream,
  type WriterJob,
  type WriterMessage,
  type WriterOutcome,
  type WriterRequest,
} from './writer-jobs.js';
import type { WorkerData } from './writer-worker.js';

export interface WriterResult {
  statusCode: number;
  /** The response body, JSON: as text, or in pieces of UTF-8 to be sent one after another. */
  payload: string | Uint8Array[];
}

/** A job's end, with what to log when it failed. */
type Done = WriterResult & { failure?: string | undefined };

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

const fromSources = import.meta.url.endsWith('.ts');
const workerUrl = (relative: string) =>
  outsideAsar(new URL(`${relative}${fromSources ? '.ts' : '.js'}`, import.meta.url));

// The parser keeps a batch of rows and the duplicate index alive: 10-20 MB for 100,000 usual rows, about
// 50 MB for a 32 MiB body of long texts; answers leave its heap as they are written, and bodies that would
// build more are refused before they are parsed (locations/import-body.ts). A bounded heap makes V8
// collect early instead of growing the process by the garbage of every row, and a small young generation
// keeps the peak low (npm run bench: 96 MB instead of 192 takes about 15 MB off the peak).
const RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

/** The end of a thread, as seen by the jobs it was working on. */
interface Exited {
  id: number;
  kind: 'exited';
  code: number;
}

/**
 * One long-lived worker thread, started when first needed and again after it dies. Its messages carry
 * a job id and go to the listener of that job; when it dies, every listener hears it.
 */
class Thread<Message extends { id: number }> {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private readonly listeners = new Map<number, (message: Message | Exited) => void>();

  constructor(
    private readonly url: URL,
    private readonly workerData: unknown,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The running worker; post to it directly so that messages keep their order. */
  start(): Promise<Worker> {
    if (this.ready !== undefined) return this.ready;
    const worker = this.spawn();
    this.worker = worker;
    const ready = new Promise<Worker>((resolve, reject) => {
      worker.once('message', (message) =>
        message === 'ready' ? resolve(worker) : reject(new Error(`${this.url.pathname}: bad start`)),
      );
      worker.once('error', reject);
    });
    this.ready = ready;
    worker.on('message', (message: Message | 'ready') => {
      if (message !== 'ready') this.listeners.get(message.id)?.(message);
    });
    worker.on('error', (error) => this.log.error({ err: error }, 'worker thread error'));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = undefined;
      }
      for (const [id, listener] of this.listeners) listener({ id, kind: 'exited', code });
    });
    return ready;
  }

  /** Hands the thread's messages for job `id` to `listener` until the returned function is called. */
  listen(id: number, listener: (message: Message | Exited) => void): () => void {
    this.listeners.set(id, listener);
    return () => this.listeners.delete(id);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.worker = undefined;
    this.ready = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private spawn(): Worker {
    const options = { workerData: this.workerData, resourceLimits: RESOURCE_LIMITS };
    if (this.url.pathname.endsWith('.ts')) {
      // Running from TypeScript sources (tests, tsx): load the worker through tsx as well.
      const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(this.url.href)}); })`;
      return new Worker(bootstrap, { ...options, eval: true });
    }
    return new Worker(this.url, options);
  }
}

/** Messages of one job, from either thread, in arrival order. */
class Inbox<Message> {
  private readonly queued: Message[] = [];
  private waiting: ((message: Message) => void) | undefined;

  readonly push = (message: Message): void => {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting === undefined) this.queued.push(message);
    else waiting(message);
  };

  /** Whether a message already waiting satisfies `test`. */
  holds(test: (message: Message) => boolean): boolean {
    return this.queued.some(test);
  }

  next(): Promise<Message> {
    const message = this.queued.shift();
    if (message !== undefined) return Promise.resolve(message);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

type Sourced =
  (ParserMessage & { from: 'parser' }) | (WriterMessage & { from: 'writer' }) | (Exited & { from: string });

/** The pieces of each array of a parser's answer, as they came. */
type Pieces = Record<Stream, Uint8Array[]>;
const NO_PIECES: Pieces = { answer: [], rows: [], errors: [] };

/** An answer as the server sends it: text, or its parts in order with each stream's pieces in place. */
function assemble(outcome: WriterOutcome, pieces: Pieces): Done {
  const { statusCode, payload, failure } = outcome;
  if (typeof payload === 'string') return { statusCode, payload, failure };
  const parts = payload.flatMap((part) => (typeof part === 'string' ? [Buffer.from(part)] : pieces[part.stream]));
  return { statusCode, payload: parts, failure };
}

const stopped = (from: string, code: number): Done =>
  assemble(failedJob(`the ${from} thread stopped${code === -1 ? ' answering' : ` (exit code ${code})`}`), NO_PIECES);

/**
 * An import's body moves to the parser without a copy when it has an ArrayBuffer of its own; a small
 * body may share Node's Buffer pool, which must never be detached, so that one is copied first.
 */
function ownBuffer(job: ImportJob): ArrayBuffer {
  const { body } = job;
  if (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength) job.body = new Uint8Array(body);
  return job.body.buffer as ArrayBuffer;
}

/** How often the writer thread checkpoints what the server's own connection wrote (see writer-worker.ts). */
const CHECKPOINT_EVERY_MS = 30_000;

/**
 * The long writes, off the event loop, on two threads: the parser reads and checks an import while the
 * writer, the only thread that holds a long write transaction, inserts the rows already checked; the
 * rows go from one to the other over a channel of their own. Jobs reach the writer one at a time in
 * arrival order: an import's transaction stays open across its messages, and no other job may run inside
 * it. The writer thread also does every checkpoint of the database, so the server's own connection must
 * not (server/app.ts turns its automatic checkpoints off).
 */
export class Writer {
  private readonly parser: Thread<ParserMessage>;
  private readonly writer: Thread<WriterMessage>;
  /** The two workers the current channel connects. */
  private connected: [Worker, Worker] | undefined;
  /** The writer's queue: each job's turn starts when the one before it has ended. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly running = new Set<Promise<unknown>>();
  private readonly checkpoints: NodeJS.Timeout;
  private nextId = 1;
  private closed = false;

  constructor(
    store: Store,
    private readonly log: FastifyBaseLogger,
  ) {
    const workerData: WorkerData = { file: store.file, key: store.key, nativeBinding: store.nativeBinding };
    this.writer = new Thread(workerUrl('./writer-worker'), workerData, log);
    this.parser = new Thread(workerUrl('../locations/import-worker'), undefined, log);
    this.checkpoints = setInterval(() => void this.run({ kind: 'checkpoint' }), CHECKPOINT_EVERY_MS).unref();
  }

  run(job: WriterJob | { kind: 'checkpoint' }): Promise<WriterResult> {
    const result = (job.kind === 'import' ? this.import(job) : this.inTurn(() => this.writerJob(job))).then(
      (outcome) => {
        if (outcome.failure !== undefined) this.log.error({ failure: outcome.failure }, 'writer job failed');
        return { statusCode: outcome.statusCode, payload: outcome.payload };
      },
    );
    this.running.add(result);
    void result.finally(() => this.running.delete(result)).catch(() => undefined);
    return result;
  }

  /** Lets the jobs under way finish, then stops both threads. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.checkpoints);
    await Promise.allSettled([...this.running]);
    await Promise.all([this.writer.close(), this.parser.close()]);
  }

  /** Starts both threads now, so that the first import does not wait for them; a failure shows at that import. */
  warmUp(): void {
    this.threads().catch((error: unknown) => {
      if (!this.closed) this.log.warn({ err: error }, 'worker threads did not start');
    });
  }

  /** Both threads, started, with a channel between them: a new one whenever either (re)started. */
  private async threads(): Promise<{ parser: Worker; writer: Worker }> {
    const [parser, writer] = await Promise.all([this.parser.start(), this.writer.start()]);
    if (this.connected?.[0] !== parser || this.connected[1] !== writer) {
      // A close that came while the threads started must not be followed by a channel: Node still delivers
      // a message queued behind 'close', and a writer listening on it never exits (the server's close hung).
      if (this.closed) throw new Error('the database writer is closed');
      const { port1, port2 } = new MessageChannel();
      writer.postMessage({ kind: 'connect', port: port1 } satisfies Connect, [port1]);
      parser.postMessage({ kind: 'connect', port: port2 } satisfies Connect, [port2]);
      this.connected = [parser, writer];
    }
    return { parser, writer };
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    const result = this.turn.then(job);
    this.turn = result.catch(() => undefined);
    return result;
  }

  /** A job of the writer thread alone, answered with one message. */
  private async writerJob(job: DeleteClientJob | { kind: 'checkpoint' }): Promise<Done> {
    // A checkpoint is for a thread already running: it never starts one.
    if (job.kind === 'checkpoint' && this.connected === undefined) return { statusCode: 200, payload: '{}' };
    const id = this.nextId++;
    const inbox = new Inbox<WriterMessage | Exited>();
    const { writer } = await this.threads();
    const unlisten = this.writer.listen(id, inbox.push);
    try {
      writer.postMessage({ id, ...job } satisfies WriterRequest);
      const answer = await inbox.next();
      if (answer.kind === 'outcome') return assemble(answer.outcome, NO_PIECES);
      return stopped('writer', answer.kind === 'exited' ? answer.code : -1);
    } finally {
      unlisten();
    }
  }

  /**
   * An import: the parser reads the body; in the writer's turn, the writer checks the client and opens
   * the transaction; the parser's checked rows then go to the writer as they come, and the writer commits
   * when the parser has sent them all, or rolls back at the first error of either thread.
   */
  private async import(job: ImportJob): Promise<Done> {
    const id = this.nextId++;
    const inbox = new Inbox<Sourced>();
    const { parser } = await this.threads();
    const unlistenParser = this.parser.listen(id, (message) => inbox.push({ ...message, from: 'parser' }));
    try {
      const transfer = [ownBuffer(job)];
      const request: ParserRequest = {
        id,
        kind: 'parse',
        body: job.body,
        dryRun: job.dryRun,
        duplicates: job.duplicates,
      };
      parser.postMessage(request, transfer);
      const parsed = await inbox.next();
      if (parsed.kind === 'outcome') return assemble(parsed.outcome, NO_PIECES);
      if (parsed.kind !== 'open') return stopped(parsed.from, parsed.kind === 'exited' ? parsed.code : -1);
      const { clientId } = parsed;
      return await this.inTurn(() => this.write(id, job, clientId, inbox));
    } finally {
      unlistenParser();
      parser.postMessage({ id, kind: 'forget' } satisfies ParserRequest);
    }
  }

  private async write(id: number, job: ImportJob, clientId: string, inbox: Inbox<Sourced>): Promise<Done> {
    // The parser died while this import waited for its turn: its rows died with it.
    const died = inbox.holds((message) => message.kind === 'exited');
    if (died) return stopped('parser', -1);
    const { parser, writer } = await this.threads();
    const unlistenWriter = this.writer.listen(id, (message) => inbox.push({ ...message, from: 'writer' }));
    const toWriter = (request: WriterRequest) => writer.postMessage(request);
    const progress = newProgress();
    // Whether the writer may hold this import's transaction: from the 'open' it is sent until it says
    // otherwise (committed, rolled back, or failed). Any way out meanwhile sends it 'rollback'.
    let open = !job.dryRun;
    let parserDied = false;
    const pieces: Pieces = { answer: [], rows: [], errors: [] };
    let committed: (WriterMessage & { kind: 'committed' }) | undefined;
    try {
      const { organizationId, now } = job;
      toWriter({ id, kind: 'open', organizationId, clientId, write: !job.dryRun, now, progress });
      for (;;) {
        const message = await inbox.next();
        switch (message.kind) {
          case 'existing':
            parser.postMessage({ id, kind: 'existing', json: message.json } satisfies ParserRequest);
            break;
          case 'opened':
            parser.postMessage({ id, kind: 'opened', progress } satisfies ParserRequest);
            break;
          case 'piece':
            pieces[message.stream].push(message.json);
            break;
          case 'committed':
            // The parser sent the writer its last rows and then 'end': the import is written.
            open = false;
            committed = message;
            break;
          case 'rolledBack':
            open = false;
            return stopped('parser', -1);
          case 'outcome':
            // From the writer, it has rolled back already; from the parser, a refusal or a dry run's answer.
            if (message.from === 'writer') open = false;
            return assemble(message.outcome, pieces);
          case 'exited':
            if (message.from === 'writer' || !open) return stopped(message.from, message.code);
            // The parser may have sent its last rows already: the writer says whether it committed.
            parserDied = true;
            importEnded(progress);
            toWriter({ id, kind: 'rollback' });
            break;
        }
        // The two threads' messages may arrive in either order: answer once every piece is here.
        if (committed !== undefined && pieces.answer.length === committed.pieces) {
          // UploadResponse, in its order.
          const head = `{"success":true,"count":${committed.count},"locations":[`;
          return assemble({ statusCode: 201, payload: [head, { stream: 'answer' }, ']}'] }, pieces);
        }
        // Unreachable as Node delivers a thread's messages before its exit, but never a false "nothing changed".
        if (committed !== undefined && parserDied) {
          return assemble(
            errorOutcome(500, 'The import was written, but its answer was lost: list the locations to see them'),
            NO_PIECES,
          );
        }
      }
    } finally {
      importEnded(progress);
      unlistenWriter();
      if (open) toWriter({ id, kind: 'rollback' });
    }
  }
}
