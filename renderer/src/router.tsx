import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** The dashboard's pages, from the address bar. The server answers every non-API path with index.html. */
export type Route =
  | { page: 'clients' }
  | { page: 'client'; clientId: string }
  | { page: 'users' }
  | { page: 'tokens' }
  | { page: 'backups' }
  | { page: 'not-found' };

export const paths = {
  clients: '/clients',
  /** The clients, saying that this one was just deleted. */
  clientDeleted: (name: string) => `/clients?deleted=${encodeURIComponent(name)}`,
  client: (clientId: string) => `/clients/${encodeURIComponent(clientId)}`,
  users: '/users',
  tokens: '/tokens',
  backups: '/backups',
};

export function routeOf(pathname: string): Route {
  if (pathname === '/' || pathname === '/clients' || pathname === '/clients/') return { page: 'clients' };
  const client = /^\/clients\/([^/]+)\/?$/.exec(pathname);
  if (client?.[1]) return { page: 'client', clientId: decodeURIComponent(client[1]) };
  if (pathname === '/users' || pathname === '/users/') return { page: 'users' };
  if (pathname === '/backups' || pathname === '/backups/') return { page: 'backups' };
  // /device is where a script's verification_uri sends the person (RFC 8628): its requests are on this page.
  if (['/tokens', '/tokens/', '/device', '/device/'].includes(pathname)) return { page: 'tokens' };
  return { page: 'not-found' };
}

const NAVIGATED = 'agency-desk:navigated';

/**
 * A move the page would lose work by (the location editor's unsaved changes): `holds` says which moves
 * wait, `ask` asks the person and calls `proceed` if they go on. One at a time.
 */
export interface NavigationBlocker {
  holds: (from: URL, to: URL) => boolean;
  ask: (proceed: () => void) => void;
}

let blocker: NavigationBlocker | null = null;

/** Holds the dashboard's own moves, and Back and Forward, while set; returns its removal. */
export function blockNavigation(next: NavigationBlocker): () => void {
  blocker = next;
  return () => {
    if (blocker === next) blocker = null;
  };
}

// Each history entry of the dashboard carries its place, so that a Back or Forward that must wait can be
// undone by as many steps (history.go) and replayed once the person agrees.
let place = 0;
let committed: URL | null = null;
let reverting = false;

/** Starts following the history, once: before any page listens to it (subscribe), and at the first move. */
function tracked(): URL {
  if (committed !== null) return committed;
  committed = new URL(window.location.href);
  const state = window.history.state as { place?: unknown } | null;
  if (typeof state?.place === 'number') place = state.place;
  else window.history.replaceState({ place }, '');
  // Registered before any page's listener: a held Back or Forward never reaches the pages.
  window.addEventListener('popstate', heldOrFollowed);
  return committed;
}

function heldOrFollowed(event: PopStateEvent): void {
  const to = new URL(window.location.href);
  const next = (window.history.state as { place?: number } | null)?.place ?? 0;
  if (reverting) {
    reverting = false;
    event.stopImmediatePropagation();
    return;
  }
  const steps = next - place;
  if (blocker !== null && steps !== 0 && blocker.holds(tracked(), to)) {
    event.stopImmediatePropagation();
    reverting = true;
    window.history.go(-steps);
    blocker.ask(() => window.history.go(steps));
    return;
  }
  place = next;
  committed = to;
}

function subscribe(listener: () => void): () => void {
  tracked();
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATED, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATED, listener);
  };
}

export function useRoute(): Route {
  return routeOf(useSyncExternalStore(subscribe, () => window.location.pathname));
}

/** The address's query string ("?q=coffee"), kept in step like the path; "" when there is none. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const from = tracked();
  const go = () => {
    if (options.replace) window.history.replaceState({ place }, '', path);
    else window.history.pushState({ place: ++place }, '', path);
    committed = new URL(window.location.href);
    window.dispatchEvent(new Event(NAVIGATED));
  };
  if (blocker !== null && blocker.holds(from, new URL(path, window.location.href))) blocker.ask(go);
  else go();
}

/** An ordinary link (keyboard, middle click, copy address) that moves inside the dashboard without a reload. */
export function Link({ to, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...props} />;
}
