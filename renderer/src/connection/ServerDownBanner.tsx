import { useEffect, useState, useSyncExternalStore } from 'react';
import { connectionState, subscribeConnection } from '../api/connection.js';
import { retryState, subscribeRetry, tryNow } from '../api/server-retry.js';

function NotAnswering() {
  const { nextTryAt } = useSyncExternalStore(subscribeRetry, retryState);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  const secondsLeft = nextTryAt === null ? 0 : Math.max(1, Math.ceil((nextTryAt - now) / 1000));
  return (
    <div className="banner banner-warning server-down" role="alert" data-testid="server-down">
      <p>
        <strong>
          Agency Desk’s server is not answering —{' '}
          {/* The countdown changes every second: heard once as "retrying", not read out at each tick. */}
          <span aria-hidden="true">{secondsLeft > 0 ? `retrying in ${secondsLeft} s` : 'trying again now…'}</span>
          <span className="sr-only">retrying by itself</span>
        </strong>
        . What you see may be out of date until it answers, and changes cannot be saved meanwhile.
      </p>
      <button type="button" className="button" onClick={() => void tryNow()} disabled={nextTryAt === null}>
        Try now
      </button>
    </div>
  );
}

/** Over every page while the server does not answer: what is wrong, when it is asked again, and that what shows may be old. */
export function ServerDownBanner() {
  const connection = useSyncExternalStore(subscribeConnection, connectionState);
  return connection.state === 'not-answering' ? <NotAnswering /> : null;
}
