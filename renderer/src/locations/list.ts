import { ApiError, fromErrorInfo } from '../api/http.js';
import { accessToken, authorized } from '../api/session.js';
import type { Health, LocationRow } from '../api/types.js';
import { LocationIndex, type ViewRequest } from './order.js';
import type { FromListWorker, ToListWorker } from './protocol.js';

// Enough rows to fill the first screen, few enough to parse in a millisecond on the page's thread.
const FIRST_PAGE = 100;

export interface ListState {
  /** Every location received so far, in the server's (import) order. */
  rows: readonly LocationRow[];
  /** How many locations the client has (the first page's X-Total-Count). */
  total: number;
  loaded: boolean;
  counts: Record<Health, number>;
  /** The shown rows, as numbers into `rows`, for `shown`. */
  order: Int32Array;
  /** The request `order` answers; `requested` differs while the worker works on a new one. */
  shown: ViewRequest | null;
  requested: ViewRequest | null;
  error: ApiError | null;
}

let worker: Worker | null = null;
const open = new Map<number, LocationList>();

function listWorker(): Worker {
  if (worker) return worker;
  const instance = new Worker(new URL('./list.worker.ts', import.meta.url), { type: 'module', name: 'locations' });
  instance.onmessage = (event: MessageEvent<FromListWorker>) => {
    const message = event.data;
    if (message.type === 'need-token') {
      void accessToken(message.renew).then((token) =>
        instance.postMessage({ type: 'token', token } satisfies ToListWorker),
      );
      return;
    }
    open.get(message.listId)?.receive(message);
  };
  worker = instance;
  return instance;
}

const post = (message: ToListWorker) => listWorker().postMessage(message);
const sameRequest = (a: ViewRequest | null, b: ViewRequest) =>
  a !== null &&
  a.query === b.query &&
  a.health === b.health &&
  a.sort.key === b.sort.key &&
  a.sort.direction === b.sort.direction;

let lastId = 0;

export const emptyListState = (): ListState => ({
  rows: [],
  total: 0,
  loaded: false,
  counts: { green: 0, yellow: 0, red: 0, closed: 0 },
  order: new Int32Array(0),
  shown: null,
  requested: null,
  error: null,
});

/**
 * One client's locations as the page holds them: the first page fetched here, the rest loaded, sorted
 * and filtered by the locations worker (list.worker.ts). An external store for useSyncExternalStore.
 */
export class LocationList {
  readonly id = ++lastId;
  private state = emptyListState();
  private readonly rows: LocationRow[] = [];
  private readonly listeners = new Set<() => void>();
  private seq = 0;
  // Answers views from the first page until the worker has answered once.
  private firstPage: LocationIndex | null = new LocationIndex();
  private whenDone: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

  constructor(readonly clientId: string) {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    promise.catch(() => undefined);
    this.whenDone = { promise, resolve, reject };
  }

  /** Fetches the first page (the first rows show from it, in `request`'s view) and hands the rest to the worker. */
  async open(request: ViewRequest, signal?: AbortSignal): Promise<void> {
    const query = new URLSearchParams({ clientId: this.clientId, limit: String(FIRST_PAGE), offset: '0' });
    const { data, headers } = await authorized<LocationRow[]>(`/api/locations?${query}`, { signal });
    const total = Number(headers.get('X-Total-Count') ?? data.length);
    this.append(data);
    this.firstPage?.add(data);
    open.set(this.id, this);
    post({ type: 'load', listId: this.id, clientId: this.clientId, first: data, total });
    this.update({ total: Math.max(total, data.length), rows: this.rows });
    this.show(request);
  }

  /** Resolves once every row has arrived. */
  loaded(): Promise<void> {
    return this.whenDone.promise;
  }

  /** Forgets the list in the worker; its rows stay readable here. */
  drop(): void {
    if (!open.delete(this.id)) return;
    post({ type: 'drop', listId: this.id });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): ListState => this.state;

  /** Asks for the rows `request` shows; the answer comes into the state's `order`. */
  show(request: ViewRequest): void {
    if (sameRequest(this.state.requested, request)) return;
    const seq = ++this.seq;
    if (this.firstPage) this.update({ requested: request, shown: request, order: this.firstPage.view(request) });
    else this.update({ requested: request });
    if (open.has(this.id)) post({ type: 'view', listId: this.id, seq, request });
  }

  receive(message: FromListWorker): void {
    switch (message.type) {
      case 'rows':
        // Shown with the view that follows each page: one render per page, not per piece.
        this.append(message.rows);
        return;
      case 'view':
        if (message.seq !== this.seq) return;
        this.firstPage = null;
        this.update({ order: message.order, shown: this.state.requested, rows: this.rows });
        return;
      case 'loaded':
        this.update({ loaded: true, total: this.rows.length, rows: this.rows });
        this.whenDone.resolve();
        return;
      case 'failed': {
        const error = fromErrorInfo({ details: [], retryAfter: null, ...message.error });
        this.update({ error });
        this.whenDone.reject(error);
        return;
      }
    }
  }

  private append(rows: readonly LocationRow[]): void {
    const counts = { ...this.state.counts };
    for (const row of rows) {
      this.rows.push(row);
      counts[row.health_status]++;
    }
    this.state = { ...this.state, counts };
  }

  private update(change: Partial<ListState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
