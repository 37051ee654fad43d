import { ApiError, UNREACHABLE, fromErrorInfo } from '../api/http.js';
import { NOT_ANSWERING_STATUSES, serverNotAnswering } from '../api/connection.js';
import { accessToken } from '../api/session.js';
import type { Health, LocationRow } from '../api/types.js';
import { firstPage } from './first-page.js';
import { LocationIndex, type ViewRequest } from './order.js';
import type { FromListWorker, ToListWorker } from './protocol.js';

// Rows asked for beyond each end of what shows, so that scrolling finds them already there.
const MARGIN = 80;
// Past this many rows held, the page keeps only the latest window.
const MAX_HELD = 2_000;

export interface ListState {
  /** How many locations the client has (the first page's X-Total-Count, then what arrived). */
  total: number;
  received: number;
  loaded: boolean;
  counts: Record<Health, number>;
  /** How many rows the view shows, and those held here, by place. */
  count: number;
  rows: ReadonlyMap<number, LocationRow>;
  /** The request the rows answer; `requested` differs while the worker works on a new one. */
  shown: ViewRequest | null;
  requested: ViewRequest | null;
  /** Locations looked up by id (null: not in the list). */
  found: ReadonlyMap<string, LocationRow | null>;
  error: ApiError | null;
}

export const emptyListState = (): ListState => ({
  total: 0,
  received: 0,
  loaded: false,
  counts: { green: 0, yellow: 0, red: 0, closed: 0 },
  count: 0,
  rows: new Map(),
  shown: null,
  requested: null,
  found: new Map(),
  error: null,
});

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
    // The worker's calls do not reach the page's connection state by themselves: the banner must hear of them.
    if (
      message.type === 'failed' &&
      (NOT_ANSWERING_STATUSES.has(message.error.status) || message.error.message === UNREACHABLE)
    )
      serverNotAnswering();
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

const sameCounts = (a: Record<Health, number>, b: Record<Health, number>) =>
  a.green === b.green && a.yellow === b.yellow && a.red === b.red && a.closed === b.closed;

/**
 * One client's locations as the page holds them: the first page fetched here (the first rows show
 * from it), the rest loaded, sorted and filtered by the locations worker (list.worker.ts), which
 * sends only the rows around what the table shows. An external store for useSyncExternalStore.
 */
export class LocationList {
  readonly id = ++lastId;
  private state = emptyListState();
  private readonly listeners = new Set<() => void>();
  private seq = 0;
  private version = -1;
  private visible = { start: 0, end: 0 };
  private wanted = { start: 0, end: 0 };
  private asking = false;
  // Answers views from the first page until the worker has answered once.
  private firstPage: LocationIndex | null = new LocationIndex();
  private exporting: { rows: LocationRow[]; resolve: (rows: LocationRow[]) => void } | null = null;
  /** The answers to shownOf, in the order asked (the worker answers in order). */
  private readonly shownAnswers: ((ids: string[]) => void)[] = [];
  private readonly whenLoaded: Promise<void>;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };

  constructor(readonly clientId: string) {
    this.whenLoaded = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.whenLoaded.catch(() => undefined);
  }

  /** Fetches the first page, shows `request`'s view of it, and hands the rest to the worker. */
  async open(request: ViewRequest, signal?: AbortSignal): Promise<void> {
    const { data, headers } = await firstPage(this.clientId, signal);
    const total = Math.max(Number(headers.get('X-Total-Count') ?? data.length), data.length);
    this.firstPage?.add(data);
    const counts = { ...this.state.counts };
    for (const row of data) counts[row.health_status]++;
    this.update({ total, received: data.length, counts });
    open.set(this.id, this);
    post({ type: 'load', listId: this.id, clientId: this.clientId, first: data, total });
    this.show(request);
  }

  /** Resolves once every row has arrived. */
  loaded(): Promise<void> {
    return this.whenLoaded;
  }

  /** Forgets the list in the worker. */
  drop(): void {
    if (!open.delete(this.id)) return;
    post({ type: 'drop', listId: this.id });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): ListState => this.state;

  /** Asks for the rows `request` shows, from the top. */
  show(request: ViewRequest): void {
    if (sameRequest(this.state.requested, request)) return;
    const seq = ++this.seq;
    this.asking = false;
    const size = Math.max(this.wanted.end - this.wanted.start, 2 * MARGIN);
    this.wanted = { start: 0, end: size };
    if (this.firstPage) {
      const order = this.firstPage.view(request);
      const rows = new Map(Array.from(order, (row, place) => [place, this.firstPage!.rows[row]!] as const));
      this.update({ requested: request, shown: request, count: order.length, rows });
    } else {
      this.update({ requested: request });
    }
    if (open.has(this.id)) post({ type: 'view', listId: this.id, seq, request, size });
  }

  /** The table shows places [start, end): the rows around them are asked for when not held. */
  need(start: number, end: number): void {
    this.visible = { start, end };
    this.wanted = { start: Math.max(0, start - MARGIN), end: end + MARGIN };
    if (this.asking || this.firstPage || this.holds(start, Math.min(end, this.state.count))) return;
    this.asking = true;
    post({ type: 'range', listId: this.id, seq: this.seq, ...this.wanted });
  }

  /** Looks a location up by id, loaded or not yet; the answer comes into `found`. */
  find(locationId: string): void {
    if (open.has(this.id)) post({ type: 'find', listId: this.id, locationId });
  }

  /** Every row the current view shows, in its order; or those at places [start, end) of it. */
  exportRows(range: { start: number; end: number } | null = null): Promise<LocationRow[]> {
    return new Promise((resolve) => {
      this.exporting = { rows: [], resolve };
      post({ type: 'export', listId: this.id, ...range });
    });
  }

  /**
   * Those of `ids` that the current view shows, in its order, once every row has arrived: a selection
   * read from the address loses the locations deleted since, or filtered out.
   */
  async shownOf(ids: readonly string[]): Promise<string[]> {
    await this.whenLoaded;
    return new Promise((resolve) => {
      this.shownAnswers.push(resolve);
      post({ type: 'shown', listId: this.id, ids: [...ids] });
    });
  }

  receive(message: FromListWorker): void {
    if (message.type === 'window') this.receiveWindow(message);
    else if (message.type === 'shown') this.shownAnswers.shift()?.(message.ids);
    else if (message.type === 'found') {
      this.update({ found: new Map(this.state.found).set(message.locationId, message.location) });
    } else if (message.type === 'export' && this.exporting) {
      for (const row of message.rows) this.exporting.rows.push(row);
      if (message.done) this.exporting.resolve(this.exporting.rows);
      if (message.done) this.exporting = null;
    } else if (message.type === 'failed') {
      const error = fromErrorInfo({ details: [], retryAfter: null, ...message.error });
      this.update({ error });
      this.settle.reject(error);
    }
  }

  private receiveWindow(message: Extract<FromListWorker, { type: 'window' }>): void {
    if (message.seq !== this.seq) return;
    this.asking = false;
    this.firstPage = null;
    const fresh = message.version !== this.version || this.state.rows.size > MAX_HELD;
    this.version = message.version;
    const rows = fresh ? new Map<number, LocationRow>() : new Map(this.state.rows);
    // Rows already held keep their object, so the table does not draw them again.
    message.rows.forEach((row, offset) => {
      if (fresh || !rows.has(message.start + offset)) rows.set(message.start + offset, row);
    });
    const { received, loaded, count } = message;
    // The same counts keep their object, so what shows only them is not drawn again.
    const counts = sameCounts(this.state.counts, message.counts) ? this.state.counts : message.counts;
    this.update({
      rows,
      count,
      received,
      loaded,
      counts,
      total: loaded ? received : Math.max(this.state.total, received),
      shown: this.state.requested,
    });
    if (loaded) this.settle.resolve();
    this.need(this.visible.start, this.visible.end);
  }

  private holds(start: number, end: number): boolean {
    for (let place = start; place < end; place++) if (!this.state.rows.has(place)) return false;
    return true;
  }

  private update(change: Partial<ListState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
