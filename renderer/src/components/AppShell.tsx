import { useEffect } from 'react';
import { ROLE_LABELS } from '../api/types.js';
import { signOut, type Session } from '../api/session.js';
import { useProfile } from '../api/queries.js';
import { Link, navigate, paths, useRoute, useSearch } from '../router.js';
import { ClientsPage } from '../pages/ClientsPage.js';
import { ClientPage } from '../pages/ClientPage.js';
import { UsersPage } from '../pages/UsersPage.js';
import { BackupsPage } from '../backups/BackupsPage.js';
import { DesktopKeyBanner } from './DesktopKeyBanner.js';
import { DevicePrompt } from '../tokens/DeviceRequestCard.js';
import { TokensPage } from '../tokens/TokensPage.js';

/** The frame around every signed-in page: who is signed in, with which role, and where they can go. */
export function AppShell({ session }: { session: Session }) {
  const route = useRoute();
  const search = useSearch();
  const profile = useProfile(true);
  const { user } = session;
  const isAdmin = user.role === 'admin';
  const ownClient = user.role === 'client_viewer' ? user.client_id : null;

  // A Client Viewer has one client: the dashboard opens on it and never shows the list of all clients.
  useEffect(() => {
    if (ownClient && route.page !== 'tokens' && (route.page !== 'client' || route.clientId !== ownClient))
      navigate(paths.client(ownClient), { replace: true });
  }, [ownClient, route]);

  let page;
  if (route.page === 'client') page = <ClientPage clientId={route.clientId} role={user.role} />;
  else if (route.page === 'users' && isAdmin) page = <UsersPage currentUserId={user.id} />;
  else if (route.page === 'backups' && isAdmin) page = <BackupsPage />;
  else if (route.page === 'tokens')
    page = <TokensPage role={user.role} userCode={new URLSearchParams(search).get('user_code')} />;
  else if (route.page === 'clients') page = ownClient ? null : <ClientsPage role={user.role} />;
  else
    page = (
      <div className="empty-state">
        <h1>This page does not exist</h1>
        <p>
          <Link to={paths.clients}>Go to the clients</Link>
        </p>
      </div>
    );

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-brand">
          <span className="brand">Agency Desk</span>
          {profile.data && <span className="topbar-org">{profile.data.organization.name}</span>}
        </div>
        <nav aria-label="Main" className="topbar-nav">
          {ownClient ? (
            <Link to={paths.client(ownClient)} aria-current={route.page === 'client' ? 'page' : undefined}>
              Locations
            </Link>
          ) : (
            <Link
              to={paths.clients}
              aria-current={route.page === 'clients' || route.page === 'client' ? 'page' : undefined}
            >
              Clients
            </Link>
          )}
          {isAdmin && (
            <Link to={paths.users} aria-current={route.page === 'users' ? 'page' : undefined}>
              Users
            </Link>
          )}
          {isAdmin && (
            <Link to={paths.backups} aria-current={route.page === 'backups' ? 'page' : undefined}>
              Backups
            </Link>
          )}
          <Link to={paths.tokens} aria-current={route.page === 'tokens' ? 'page' : undefined}>
            Scripts &amp; API tokens
          </Link>
        </nav>
        <div className="topbar-user" aria-label="Signed in as">
          <span className="topbar-email" data-testid="signed-in-user">
            {user.email}
          </span>
          <span className={`role-badge role-${user.role}`} data-testid="signed-in-role">
            {ROLE_LABELS[user.role]}
          </span>
          <button type="button" className="button button-quiet" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <DesktopKeyBanner />
      {/* A script waiting for approval shows on every page; the tokens page shows it in its place. */}
      {route.page !== 'tokens' && <DevicePrompt />}
      <main id="main" className="content" tabIndex={-1}>
        {page}
      </main>
    </div>
  );
}
