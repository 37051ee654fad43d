import { useEffect } from 'react';
import type { SignedInUser } from '../api/types.js';
import { Link, paths, useSearch, type Route } from '../router.js';
import { ClientsPage } from '../pages/ClientsPage.js';
import { ClientPage } from '../pages/ClientPage.js';
import { lazyPart, prefetchParts } from './lazy-part.js';
import { PartBoundary } from './PartBoundary.js';
import { usePageTitle } from './page-title.js';

// The pages a person opens now and then load their code after the first page is up (prefetchParts):
// the dashboard's first page (clients, or a client's locations) does not wait for them.
const UsersPage = lazyPart(() => import('../pages/UsersPage.js').then((module) => module.UsersPage));
const BackupsPage = lazyPart(() => import('../backups/BackupsPage.js').then((module) => module.BackupsPage));
const TokensPage = lazyPart(() => import('../tokens/TokensPage.js').then((module) => module.TokensPage));

function NotFound() {
  return (
    <div className="empty-state">
      <h1>This page does not exist</h1>
      <p>
        <Link to={paths.clients}>Go to the clients</Link>
      </p>
    </div>
  );
}

/** An Admin's page (users, backups) opened by someone else: from a link, or where an Admin signed out. */
function AdminOnly() {
  return (
    <div className="empty-state">
      <h1>Only an Admin can see this page</h1>
      <p>
        <Link to={paths.clients}>Go to the clients</Link>
      </p>
    </div>
  );
}

/** The page the address names, as far as the user's role may see it; a page that fails fails alone. */
export function ShellPage({ route, user }: { route: Route; user: SignedInUser }) {
  useEffect(prefetchParts, []);
  return (
    <PartBoundary key={route.page === 'client' ? `client:${route.clientId}` : route.page} what="this page">
      <RoutePage route={route} user={user} />
    </PartBoundary>
  );
}

/** Each page's title; a client's page names its client itself (ClientPage), once the client is read. */
const TITLES: Partial<Record<Route['page'], string>> = {
  clients: 'Clients',
  users: 'Users',
  backups: 'Backups',
  tokens: 'Scripts & API tokens',
};

function RoutePage({ route, user }: { route: Route; user: SignedInUser }) {
  const search = useSearch();
  const isAdmin = user.role === 'admin';
  const adminOnly = !isAdmin && (route.page === 'users' || route.page === 'backups');
  usePageTitle(
    route.page === 'client' ? undefined : adminOnly ? 'Admins only' : (TITLES[route.page] ?? 'Page not found'),
  );
  switch (route.page) {
    case 'client':
      return <ClientPage clientId={route.clientId} role={user.role} />;
    case 'tokens':
      return <TokensPage role={user.role} userCode={new URLSearchParams(search).get('user_code')} />;
    // A Client Viewer is sent to their client (AppShell): the list of all clients is never theirs.
    case 'clients':
      return user.role === 'client_viewer' ? null : <ClientsPage role={user.role} />;
    case 'users':
      return isAdmin ? <UsersPage currentUserId={user.id} /> : <AdminOnly />;
    case 'backups':
      return isAdmin ? <BackupsPage /> : <AdminOnly />;
    default:
      return <NotFound />;
  }
}
