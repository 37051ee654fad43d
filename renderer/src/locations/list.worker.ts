/// <reference lib="webworker" />
import { ApiError, apiFetch, toErrorInfo } from '../api/http.js';
import { pageTokens } from '../api/page-token.js';
import type { LocationRow } from '../api/types.js';
import { LocationIndex, type ViewRequest } from './order.js';
import type { FromListWorker, ToListWorker } from './protocol.js';

/**
 * The locations worker: loads each client's list page by page, parses it, and sorts and filters it,
 * so the page's thread only appends rows and draws the few in view (issue 9 §2b).
 */
declare const self: DedicatedWorkerGlobalScope;

// A page of 10,000 rows (about 2.5 MB of JSON) keeps each request short for the server.
const PAGE_ROWS = 10_000;
// The page receives rows in pieces small enough to be read within a frame.
const ROWS_PER_MESSAGE = 2_000;

interface List {
  index: LocationIndex;
  view: { seq: number; request: ViewRequest } | null;
  dropped: boolean;
}

const lists = new Map<number, List>();
const send = (message: FromListWorker, transfer: Transferable[] = []) => self.postMessage(message, transfer);

const tokens = pageTokens((renew) => send({ type: 'need-token', renew }));

async function fetchPage(clientId: string, offset: number): Promise<LocationRow[]> {
  const path = `/api/locations?${new URLSearchParams({ clientId, limit: String(PAGE_ROWS), offset: String(offset) })}`;
  try {
    return (await apiFetch<LocationRow[]>(path, { token: await tokens.token(false) })).data;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    return (await apiFetch<LocationRow[]>(path, { token: await tokens.token(true) })).data;
  }
}

function sendView(listId: number, list: List): void {
  if (!list.view || list.dropped) return;
  const order = list.index.view(list.view.request);
  send({ type: 'view', listId, seq: list.view.seq, order, rowCount: list.index.rows.length }, [order.buffer]);
}

async function load(message: Extract<ToListWorker, { type: 'load' }>): Promise<void> {
  const { listId, clientId, first, total } = message;
  const list: List = { index: new LocationIndex(), view: null, dropped: false };
  lists.set(listId, list);
  list.index.add(first);
  sendView(listId, list);
  for (let offset = first.length; offset < total;) {
    const rows = await fetchPage(clientId, offset);
    if (list.dropped) return;
    for (let start = 0; start < rows.length; start += ROWS_PER_MESSAGE) {
      send({ type: 'rows', listId, rows: rows.slice(start, start + ROWS_PER_MESSAGE) });
    }
    list.index.add(rows);
    sendView(listId, list);
    offset += rows.length;
    if (rows.length < PAGE_ROWS) break;
  }
  send({ type: 'loaded', listId });
}

function handle(message: ToListWorker): void {
  switch (message.type) {
    case 'load':
      load(message).catch((error: unknown) => {
        const info =
          error instanceof ApiError ? toErrorInfo(error) : { status: 0 as const, message: `Loading stopped: ${error}` };
        send({ type: 'failed', listId: message.listId, error: info });
      });
      return;
    case 'view': {
      const list = lists.get(message.listId);
      if (!list) return;
      list.view = { seq: message.seq, request: message.request };
      sendView(message.listId, list);
      return;
    }
    case 'drop': {
      const list = lists.get(message.listId);
      if (list) list.dropped = true;
      lists.delete(message.listId);
      return;
    }
    case 'token':
      tokens.answer(message.token);
  }
}

self.onmessage = (event: MessageEvent<ToListWorker>) => handle(event.data);
