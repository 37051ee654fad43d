import { useEffect, useSyncExternalStore } from 'react';
import type { Session } from '../api/session.js';
import { connectionState, subscribeConnection } from '../api/connection.js';
import { navigate, paths, useRoute } from '../router.js';
import { ServerDownBanner } from '../connection/ServerDownBanner.js';
import { DesktopKeyBanner } from './DesktopKeyBanner.js';
import { DevicePrompt } from '../tokens/DeviceRequestCard.js';
import { SignInAgainDialog } from './SignInAgainDialog.js';
import { ShellPage } from './ShellPage.js';
import { TopBar } from './TopBar.js';

/** The frame around every signed-in page: who is signed in, with which role, and where they can go. */
export function AppShell({ session, signInAgain }: { session: Session; signInAgain: boolean }) {
  const route = useRoute();
  const { user } = session;
  const ownClient = user.role === 'client_viewer' ? user.client_id : null;
  const stale = useSyncExternalStore(subscribeConnection, connectionState).state === 'not-answering';

  // A Client Viewer has one client: the dashboard opens on it and never shows the list of all clients.
  useEffect(() => {
    if (ownClient && route.page !== 'tokens' && (route.page !== 'client' || route.clientId !== ownClient))
      navigate(paths.client(ownClient), { replace: true });
  }, [ownClient, route]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar user={user} route={route} />
      <ServerDownBanner />
      <DesktopKeyBanner />
      {/* A script waiting for approval shows on every page; the tokens page shows it in its place. */}
      {route.page !== 'tokens' && <DevicePrompt />}
      <main id="main" className={`content${stale ? ' content-stale' : ''}`} tabIndex={-1}>
        <ShellPage route={route} user={user} />
      </main>
      {signInAgain && <SignInAgainDialog email={user.email} />}
    </div>
  );
}
