/// <reference lib="webworker" />
import { ApiError, apiFetch, toErrorInfo } from '../api/http.js';
import { locationsPath } from '../api/locations-path.js';
import { pageTokens } from '../api/page-token.js';
import type { Health, LocationRow } from '../api/types.js';
import { LocationIndex, type ViewRequest } from './order.js';
import type { FromListWorker, ToListWorker } from './protocol.js';

/**
 * The locations worker: loads each client's list page by page, parses, sorts and filters it, and
 * hands the page only the rows it shows, so the page's thread stays free (issue 9 §2b).
 */
declare const self: DedicatedWorkerGlobalScope;

// A page of 10,000 rows keeps each request short for the server.
const PAGE_ROWS = 10_000;
// The export's rows reach the page in pieces small enough to read within a frame.
const EXPORT_PIECE = 2_000;

interface List {
  clientId: string;
  index: LocationIndex;
  counts: Record<Health, number>;
  loaded: boolean;
  dropped: boolean;
  seq: number;
  request: ViewRequest | null;
  /** The current view: row numbers in `index.rows`, and how often it changed. */
  order: Int32Array;
  version: number;
  range: { start: number; end: number };
}

const lists = new Map<number, List>();
const send = (message: FromListWorker) => self.postMessage(message);
const tokens = pageTokens((renew) => send({ type: 'need-token', renew }));

async function fetchPage(clientId: string, offset: number): Promise<LocationRow[]> {
  const path = locationsPath({ clientId, limit: PAGE_ROWS, offset });
  try {
    return (await apiFetch<LocationRow[]>(path, { token: await tokens.token(false) })).data;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    return (await apiFetch<LocationRow[]>(path, { token: await tokens.token(true) })).data;
  }
}

function sendWindow(listId: number, list: List): void {
  if (list.dropped || list.request === null) return;
  const { index, order, counts, loaded } = list;
  const start = Math.min(list.range.start, order.length);
  const end = Math.min(list.range.end, order.length);
  const rows: LocationRow[] = [];
  for (let place = start; place < end; place++) rows.push(index.rows[order[place]!]!);
  send({
    type: 'window',
    listId,
    seq: list.seq,
    version: list.version,
    count: order.length,
    start,
    rows,
    received: index.rows.length,
    loaded,
    counts,
  });
}

function refresh(listId: number, list: List): void {
  if (list.request === null) return;
  list.order = list.index.view(list.request);
  list.version++;
  sendWindow(listId, list);
}

function add(list: List, rows: readonly LocationRow[]): void {
  list.index.add(rows);
  list.counts = { ...list.counts };
  for (const row of rows) list.counts[row.health_status]++;
}

async function load({ listId, clientId, first, total }: Extract<ToListWorker, { type: 'load' }>): Promise<void> {
  const list: List = {
    clientId,
    index: new LocationIndex(),
    counts: { green: 0, yellow: 0, red: 0, closed: 0 },
    loaded: false,
    dropped: false,
    seq: 0,
    request: null,
    order: new Int32Array(0),
    version: 0,
    range: { start: 0, end: 0 },
  };
  lists.set(listId, list);
  add(list, first);
  for (let offset = first.length; offset < total;) {
    const rows = await fetchPage(clientId, offset);
    if (list.dropped) return;
    add(list, rows);
    offset += rows.length;
    if (rows.length < PAGE_ROWS) break;
    refresh(listId, list);
  }
  list.loaded = true;
  refresh(listId, list);
}

function exportRows(listId: number, list: List, from = 0, to = list.order.length): void {
  const rows = Array.from(list.order.subarray(from, to), (row) => list.index.rows[row]!);
  for (let start = 0; start < rows.length || start === 0; start += EXPORT_PIECE) {
    const done = start + EXPORT_PIECE >= rows.length;
    send({ type: 'export', listId, rows: rows.slice(start, start + EXPORT_PIECE), done });
    if (done) return;
  }
}

function handle(message: ToListWorker): void {
  if (message.type === 'token') return tokens.answer(message.token);
  if (message.type === 'load') {
    load(message).catch((error: unknown) => {
      const info =
        error instanceof ApiError ? toErrorInfo(error) : { status: 0 as const, message: `Loading stopped: ${error}` };
      send({ type: 'failed', listId: message.listId, error: info });
    });
    return;
  }
  const list = lists.get(message.listId);
  if (!list) return;
  switch (message.type) {
    case 'view':
      list.seq = message.seq;
      list.request = message.request;
      // A new view starts from its top (the table scrolls there).
      list.range = { start: 0, end: message.size };
      return refresh(message.listId, list);
    case 'range':
      if (message.seq !== list.seq) return;
      list.range = { start: message.start, end: message.end };
      return sendWindow(message.listId, list);
    case 'find': {
      const location = list.index.rows.find((row) => row.id === message.locationId) ?? null;
      return send({ type: 'found', listId: message.listId, locationId: message.locationId, location });
    }
    case 'export':
      return exportRows(message.listId, list, message.start, message.end);
    case 'shown': {
      const wanted = new Set(message.ids);
      const ids: string[] = [];
      for (const row of list.order) if (wanted.has(list.index.rows[row]!.id)) ids.push(list.index.rows[row]!.id);
      return send({ type: 'shown', listId: message.listId, ids });
    }
    case 'drop':
      list.dropped = true;
      lists.delete(message.listId);
  }
}

self.onmessage = (event: MessageEvent<ToListWorker>) => handle(event.data);
