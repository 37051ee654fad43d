import { apiFetch } from './http.js';
import { connectionState, retryDelay, subscribeConnection } from './connection.js';
import { queryClient } from './queries.js';

// The one unauthenticated route that only says the server is up.
const PROBE = '/health';

export interface Retry {
  attempt: number;
  /** Epoch milliseconds of the next try; null while one is under way, or while the server answers. */
  nextTryAt: number | null;
}

let retry: Retry = { attempt: 0, nextTryAt: null };
let timer: ReturnType<typeof setTimeout> | undefined;
let wasDown = false;
const listeners = new Set<() => void>();

function publish(next: Retry): void {
  retry = next;
  for (const listener of listeners) listener();
}

function schedule(attempt: number): void {
  clearTimeout(timer);
  const delay = retryDelay(attempt) * 1000;
  publish({ attempt, nextTryAt: Date.now() + delay });
  timer = setTimeout(() => void tryNow(), delay);
}

/** Asks the server at once; when it still does not answer, the next try waits longer (2, 4, 8, 16, 30 s). */
export async function tryNow(): Promise<void> {
  clearTimeout(timer);
  const { attempt } = retry;
  publish({ attempt, nextTryAt: null });
  await apiFetch(PROBE).catch(() => undefined);
  if (connectionState().state === 'not-answering') schedule(attempt + 1);
}

// Any call that finds the server gone starts the tries; any answer ends them and fetches what is on screen afresh.
subscribeConnection(() => {
  if (connectionState().state === 'not-answering') {
    wasDown = true;
    schedule(0);
    return;
  }
  clearTimeout(timer);
  publish({ attempt: 0, nextTryAt: null });
  if (wasDown) {
    wasDown = false;
    void queryClient.invalidateQueries();
  }
});

export const retryState = (): Retry => retry;

export function subscribeRetry(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
