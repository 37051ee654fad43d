import './tokens.css';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { useDecideDevice, useDeviceRequests, type DeviceRequestRow } from './queries.js';

/** One script asking for access, with Approve and Deny: the server words the request. */
export function DeviceRequestCard({ request }: { request: DeviceRequestRow }) {
  const decide = useDecideDevice();
  const answer = (decision: 'approve' | 'deny') => decide.mutate({ userCode: request.user_code, decision });
  return (
    <div className="device-request" role="group" aria-label={`Request from ${request.client_name}`}>
      <p>
        <strong>{request.description}.</strong> Code <code className="user-code">{request.user_code}</code>
      </p>
      <p className="muted">
        Approve only if you started this script and the code matches the one it shows. The request expires at{' '}
        {new Date(request.expires_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.
      </p>
      <ErrorNotice error={decide.error} />
      <div className="form-actions">
        <button type="button" className="button" disabled={decide.isPending} onClick={() => answer('deny')}>
          Deny
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={decide.isPending}
          onClick={() => answer('approve')}
        >
          Approve
        </button>
      </div>
    </div>
  );
}

/**
 * Scripts waiting for approval, shown at once on whatever page the user is (the dashboard asks every few
 * seconds). `userCode` narrows it to the request a script's verification_uri_complete points to.
 */
export function DevicePrompt({ userCode }: { userCode?: string | null }) {
  const pending = useDeviceRequests();
  const wanted = userCode?.toUpperCase().replace(/[^A-Z]/g, '');
  const shown = (pending.data ?? []).filter((request) => !wanted || request.user_code.replace('-', '') === wanted);
  if (shown.length === 0) return null;
  return (
    <aside className="device-prompt" role="alert" aria-label="A script asks for access">
      {shown.map((request) => (
        <DeviceRequestCard key={request.user_code} request={request} />
      ))}
    </aside>
  );
}
