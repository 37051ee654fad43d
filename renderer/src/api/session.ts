import { ApiError, apiFetch, type ApiAnswer, type ApiRequest } from './http.js';
import type { LoginRequest, SetupRequest, SignedInUser, Tokens } from './types.js';

/** The signed-in session: who, and the tokens that prove it. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds when the access token stops working. */
  expiresAt: number;
  user: SignedInUser;
}

export interface SessionState {
  session: Session | null;
  /** Why the user is back on the sign-in page, when it was not their choice. */
  notice: string | null;
  /**
   * The server said no to the refresh token while the user was at work: the page stays as it is and a
   * dialog over it asks for the password; requests waiting for a token resume once it is given.
   */
  signInAgain: boolean;
}

// sessionStorage keeps the session across a reload of the window but not beyond closing it.
const STORAGE_KEY = 'agency-desk.session';
// Refresh a minute ahead so a request in flight never carries an access token that expires on the way.
const REFRESH_AHEAD_MS = 60_000;
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

let state: SessionState = { session: restore(), notice: null, signInAgain: false };
const listeners = new Set<() => void>();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<Session | null> | null = null;
// Whoever waits for the user to sign in again: resolved with the new session, or null on signing out.
let waitingForSignIn: ((session: Session | null) => void)[] = [];

function restore(): Session | null {
  try {
    const saved = sessionStorage.getItem(STORAGE_KEY);
    return saved ? (JSON.parse(saved) as Session) : null;
  } catch {
    return null;
  }
}

function setState(next: SessionState): void {
  state = next;
  if (next.session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next.session));
  else sessionStorage.removeItem(STORAGE_KEY);
  clearTimeout(refreshTimer);
  if (next.session && !next.signInAgain) {
    const delay = Math.max(0, next.session.expiresAt - Date.now() - REFRESH_AHEAD_MS);
    refreshTimer = setTimeout(() => void refreshSession(), delay);
  }
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const sessionState = (): SessionState => state;

function sessionOf(tokens: Tokens): Session {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: Date.parse(tokens.expires_at) || Date.now() + tokens.expires_in * 1000,
    user: tokens.user,
  };
}

export async function signIn(credentials: LoginRequest): Promise<void> {
  const { data } = await apiFetch<Tokens>('/auth/callback', { method: 'POST', json: credentials });
  const session = sessionOf(data);
  setState({ session, notice: null, signInAgain: false });
  settleSignInAgain(session);
}

function settleSignInAgain(session: Session | null): void {
  const waiting = waitingForSignIn;
  waitingForSignIn = [];
  for (const resolve of waiting) resolve(session);
}

/** Keeps the page, asks for the password in a dialog, and resolves once the user has answered it. */
function askToSignInAgain(current: Session): Promise<Session | null> {
  setState({ session: current, notice: null, signInAgain: true });
  return new Promise((resolve) => waitingForSignIn.push(resolve));
}

/** Creates the organization and its first Admin (first run), then signs them in. */
export async function setUpOrganization(body: SetupRequest): Promise<void> {
  const { data } = await apiFetch<Tokens>('/auth/setup', { method: 'POST', json: body });
  setState({ session: sessionOf(data), notice: null, signInAgain: false });
}

/** Back to the sign-in page, saying why when it was not the user's choice. */
export function endSession(notice: string | null): void {
  setState({ session: null, notice, signInAgain: false });
  settleSignInAgain(null);
}

export async function signOut(): Promise<void> {
  const session = state.session;
  endSession(null);
  if (session) {
    // The server forgets the refresh token; if it cannot be reached the token still expires on its own.
    await apiFetch('/auth/logout', { method: 'POST', token: session.accessToken }).catch(() => undefined);
  }
}

/**
 * Exchanges the refresh token for new tokens. Only one exchange runs at a time: the server rotates
 * refresh tokens and treats a second use of the old one as theft, revoking the whole session.
 */
export function refreshSession(): Promise<Session | null> {
  refreshing ??= (async () => {
    await othersAnswered;
    const current = state.session;
    if (!current) return null;
    try {
      const { data } = await apiFetch<Tokens>('/auth/refresh', {
        method: 'POST',
        json: { refresh_token: current.refreshToken },
      });
      const next = sessionOf(data);
      setState({ session: next, notice: null, signInAgain: false });
      return next;
    } catch (error) {
      // Only the server's no to the refresh token (400, 401) ends the session. An unreachable, busy or
      // failing server (0, 429, 5xx, the desktop restarting it) is not a verdict: keep the session and
      // let the next call try again. A no asks for the password over the page, so that nothing open is
      // lost: the requests waiting for this refresh go on with the new session.
      if (!(error instanceof ApiError && (error.status === 400 || error.status === 401))) return current;
      return await askToSignInAgain(current);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** A usable access token, refreshed first when it is about to expire or when `renew` asks for it. */
export async function accessToken(renew = false): Promise<string | null> {
  const session = state.session;
  if (!session) return null;
  if (renew || session.expiresAt - Date.now() < REFRESH_AHEAD_MS) return (await refreshSession())?.accessToken ?? null;
  return session.accessToken;
}

/**
 * An API call as the signed-in user. A 401 gets one refresh and one retry; a second 401 ends the
 * session and sends the user back to sign in with a message.
 */
export async function authorized<T>(path: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> {
  const token = await accessToken();
  if (!token) throw new ApiError(401, SESSION_ENDED);
  try {
    return await apiFetch<T>(path, { ...request, token });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const renewed = await accessToken(true);
    if (!renewed) throw error;
    try {
      return await apiFetch<T>(path, { ...request, token: renewed });
    } catch (retryError) {
      if (retryError instanceof ApiError && retryError.status === 401) endSession(SESSION_ENDED);
      throw retryError;
    }
  }
}

/**
 * A tab the browser duplicated holds a copy of this tab's session (sessionStorage is copied with it): two
 * tabs refreshing one refresh token would read as theft to the server, which ends the session in both. So
 * a session restored at start asks the other tabs whether one holds it; if one does, this copy is let go
 * (the other tab keeps working) and this tab asks to sign in. Refreshing waits for the answer.
 */
const COPIED_TAB = 'This tab was copied from another, which keeps the session: sign in to use this one too.';
const ASK_WAIT_MS = 300;
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('agency-desk.session') : null;
// Enough of the token to tell sessions apart, not the secret itself.
const markOf = (session: Session) => session.refreshToken.slice(0, 12);
let othersAnswered: Promise<void> = Promise.resolve();

channel?.addEventListener('message', (event: MessageEvent<{ type: 'holds?' | 'held'; mark: string }>) => {
  const { type, mark } = event.data;
  if (state.session === null || markOf(state.session) !== mark) return;
  if (type === 'holds?') channel.postMessage({ type: 'held', mark });
  else endSession(COPIED_TAB);
});

if (state.session) {
  if (channel) {
    channel.postMessage({ type: 'holds?', mark: markOf(state.session) });
    othersAnswered = new Promise((resolve) => setTimeout(resolve, ASK_WAIT_MS));
  }
  // A session restored from a reload needs its refresh timer again.
  setState(state);
}
