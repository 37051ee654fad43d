import { clientsQuery, queryClient } from './api/queries.js';
import { sessionState } from './api/session.js';
import { askFirstPageEarly } from './locations/first-page.js';
import { routeOf } from './router.js';

/**
 * A dashboard opened (or reloaded) signed in asks for what its first page shows as its script starts,
 * beside the session's own requests, instead of once the page has drawn and asked: on a client's page,
 * the clients and the client's first rows (README, "The locations table in the dashboard").
 */
export function askEarly(pathname: string): void {
  const { session } = sessionState();
  if (session === null) return;
  const route = routeOf(pathname);
  if (route.page === 'clients' || route.page === 'client') void queryClient.prefetchQuery(clientsQuery);
  if (route.page === 'client') askFirstPageEarly(route.clientId, session.user.id);
}
