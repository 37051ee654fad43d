/**
 * Whether the server answers, as every API call sees it: a network error or a gateway status (502, 503,
 * 504) means it is down; any other answer means it is back. The banner reads it and retries.
 */
export type Connection = { state: 'answering' } | { state: 'not-answering'; since: number };

// The statuses a proxy or a restarting server gives when it cannot answer at all (RFC 9110, 15.6).
export const NOT_ANSWERING_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

let connection: Connection = { state: 'answering' };
const listeners = new Set<() => void>();

function set(next: Connection): void {
  if (next.state === connection.state) return;
  connection = next;
  for (const listener of listeners) listener();
}

export const serverNotAnswering = (): void => set({ state: 'not-answering', since: Date.now() });
export const serverAnswered = (): void => set({ state: 'answering' });
export const connectionState = (): Connection => connection;

export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Seconds before the n-th retry (0-based): 2, 4, 8, 16, then every 30. */
export function retryDelay(attempt: number): number {
  return Math.min(30, 2 ** (attempt + 1));
}
