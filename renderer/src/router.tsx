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

function subscribe(listener: () => void): () => void {
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
  if (options.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
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
