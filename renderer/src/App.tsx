import { useSyncExternalStore } from 'react';
import { sessionState, subscribeSession } from './api/session.js';
import { useSetupStatus } from './api/queries.js';
import { ErrorNotice } from './components/ErrorNotice.js';
import { AppShell } from './components/AppShell.js';
import { SignInPage } from './pages/SignInPage.js';
import { SetupPage } from './pages/SetupPage.js';
import { ServerDownBanner } from './connection/ServerDownBanner.js';

/** Signed out: the first-run setup or the sign-in page. Signed in: the dashboard. */
export function App() {
  const { session, notice, signInAgain } = useSyncExternalStore(subscribeSession, sessionState);
  const setup = useSetupStatus();
  if (session) return <AppShell session={session} signInAgain={signInAgain} />;
  if (setup.isPending) return <p className="page-loading">Loading…</p>;
  if (setup.isError) {
    return (
      <main className="auth-page">
        <div className="auth-card">
          <ErrorNotice error={setup.error} />
          <button type="button" className="button" onClick={() => void setup.refetch()}>
            Try again
          </button>
        </div>
      </main>
    );
  }
  return (
    <>
      <ServerDownBanner />
      {setup.data.needed ? <SetupPage /> : <SignInPage notice={notice} />}
    </>
  );
}
