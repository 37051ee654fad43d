import { useRef, useState } from 'react';
import { useClients } from '../api/queries.js';
import type { ClientRow, RoleName } from '../api/types.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { SimpleTableHead } from '../components/SimpleTableHead.js';
import { formatDate, formatDateTime } from '../format.js';
import { DevicePrompt } from './DeviceRequestCard.js';
import { NewTokenSecret } from './NewTokenSecret.js';
import { CreateTokenDialog } from './CreateTokenDialog.js';
import { useApiTokens, useRevokeToken, type ApiTokenRow, type CreatedToken } from './queries.js';

// The columns after the name and, when every token of the organization shows, its owner.
const TOKEN_COLUMNS = ['Scopes', 'Client', 'Last used', 'Expires'];

/** The client a token is limited to, by the name the clients list gives its id; null: every client. */
function TokenClient({ clientId, clients }: { clientId: string | null; clients: ClientRow[] | undefined }) {
  if (clientId === null) return <>All clients</>;
  if (clients === undefined) return <span className="muted">…</span>;
  return <>{clients.find((client) => client.id === clientId)?.name ?? <span className="muted">Another client</span>}</>;
}

function TokenRow({
  token,
  showOwner,
  clients,
  onRevoke,
}: {
  token: ApiTokenRow;
  showOwner: boolean;
  clients: ClientRow[] | undefined;
  onRevoke(): void;
}) {
  return (
    <tr>
      <td title={`Created ${formatDateTime(token.created_at)}`}>{token.name}</td>
      {showOwner && <td>{token.user_email}</td>}
      <td>{token.scopes.join(', ')}</td>
      <td>
        <TokenClient clientId={token.client_id} clients={clients} />
      </td>
      {/* To the minute, as the server keeps it: "used today" tells little of a script that runs hourly (a walk). */}
      <td>{token.last_used_at ? formatDateTime(token.last_used_at) : <span className="muted">Never</span>}</td>
      <td>{token.expires_at ? formatDate(token.expires_at) : <span className="muted">Never</span>}</td>
      <td className="actions">
        <button type="button" className="button button-quiet button-danger-text" onClick={onRevoke}>
          Revoke<span className="sr-only"> {token.name}</span>
        </button>
      </td>
    </tr>
  );
}

function RevokeDialog({
  token,
  onClose,
  returnFocusTo,
}: {
  token: ApiTokenRow;
  onClose(): void;
  /** The revoked token's row, and its Revoke button, are gone: the focus goes here instead. */
  returnFocusTo(): HTMLElement | null;
}) {
  const revoke = useRevokeToken();
  return (
    <Dialog title={`Revoke ${token.name}?`} onClose={onClose} returnFocusTo={returnFocusTo}>
      <div className="form">
        <p>Scripts using this token get 401 from their very next request.</p>
        <ErrorNotice error={revoke.error} />
        <FormActions
          action={['Revoke token', 'Revoking…']}
          danger
          focusCancel
          busy={revoke.isPending}
          onCancel={onClose}
          onAction={() => revoke.mutate(token.id, { onSuccess: onClose })}
        />
      </div>
    </Dialog>
  );
}

type Action =
  { kind: 'create' } | { kind: 'created'; token: CreatedToken } | { kind: 'revoke'; token: ApiTokenRow } | null;

/** Scripts & API tokens: a user's tokens (an Admin: the organization's), and scripts waiting for approval. */
export function TokensPage({ role, userCode }: { role: RoleName; userCode?: string | null }) {
  const [all, setAll] = useState(false);
  const tokens = useApiTokens(all);
  const clients = useClients();
  const [action, setAction] = useState<Action>(null);
  const close = () => setAction(null);
  const createButton = useRef<HTMLButtonElement>(null);
  return (
    <section className="page" aria-labelledby="tokens-title">
      <header className="page-header">
        <div>
          <h1 id="tokens-title">Scripts &amp; API tokens</h1>
          <p className="muted">A script sends its own token instead of your password; revoke it here at any time.</p>
        </div>
        <button
          ref={createButton}
          type="button"
          className="button button-primary"
          onClick={() => setAction({ kind: 'create' })}
        >
          Create a token
        </button>
      </header>
      <DevicePrompt userCode={userCode} />
      {role === 'admin' && (
        <label className="radio">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} />
          <span>Every token of the organization</span>
        </label>
      )}
      {tokens.isError && <ErrorNotice error={tokens.error} />}
      {tokens.data && tokens.data.length === 0 && <p className="muted">No active API tokens.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <table className="simple-table tokens-table">
          <SimpleTableHead columns={all ? ['Name', 'Owner', ...TOKEN_COLUMNS] : ['Name', ...TOKEN_COLUMNS]} />
          <tbody>
            {tokens.data.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                showOwner={all}
                clients={clients.data}
                onRevoke={() => setAction({ kind: 'revoke', token })}
              />
            ))}
          </tbody>
        </table>
      )}
      {action?.kind === 'create' && (
        <CreateTokenDialog role={role} onClose={close} onCreated={(token) => setAction({ kind: 'created', token })} />
      )}
      {action?.kind === 'created' && <NewTokenSecret token={action.token} onClose={close} />}
      {action?.kind === 'revoke' && (
        <RevokeDialog token={action.token} onClose={close} returnFocusTo={() => createButton.current} />
      )}
    </section>
  );
}
