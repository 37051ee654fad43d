import type { ApiAnswer } from '../api/http.js';
import { locationsPath } from '../api/locations-path.js';
import { authorized, sessionState } from '../api/session.js';
import type { LocationRow } from '../api/types.js';

// Enough rows to fill the first screen, few enough to parse in a millisecond on the page's thread.
const FIRST_PAGE = 100;
// An early answer older than this is not taken: the page asks again rather than show stale rows.
const FRESH_MS = 10_000;

type Answer = Promise<ApiAnswer<LocationRow[]>>;

let early: { clientId: string; userId: string; at: number; answer: Answer } | null = null;

const signedInAs = (): string | null => sessionState().session?.user.id ?? null;

function ask(clientId: string, signal?: AbortSignal): Answer {
  return authorized<LocationRow[]>(locationsPath({ clientId, limit: FIRST_PAGE, offset: 0 }), { signal });
}

/** Asks for a client's first rows, as `userId`, before its page has drawn (early.ts): the page takes the answer once. */
export function askFirstPageEarly(clientId: string, userId: string): void {
  const answer = ask(clientId);
  // Taken or not, a failure is the page's own request's to report.
  answer.catch(() => undefined);
  early = { clientId, userId, at: Date.now(), answer };
}

/**
 * A client's first rows and its X-Total-Count: the early answer when it was asked for this client, by
 * the user signed in now (a copied tab's session ends at start, and another may sign in), moments ago
 * (used once); else a request of its own. A failed early answer is asked for again.
 */
export async function firstPage(clientId: string, signal?: AbortSignal): Answer {
  const taken = early;
  early = null;
  if (taken?.clientId === clientId && taken.userId === signedInAs() && Date.now() - taken.at < FRESH_MS) {
    try {
      return await taken.answer;
    } catch {
      // Asked again below, where the error (or its renewal of the token) is the page's own.
    }
  }
  return ask(clientId, signal);
}
