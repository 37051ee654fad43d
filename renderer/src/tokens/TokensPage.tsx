import { useState, type FormEvent } from 'react';
import { useClients } from '../api/queries.js';
import type { RoleName } from '../api/types.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { TextField } from '../components/TextField.js';
import { formatDate, plural } from '../format.js';
import { DevicePrompt } from './DeviceRequestCard.js';
import { NewTokenSecret } from './NewTokenSecret.js';
import {
  SCOPE_HELP,
  useApiTokens,
  useCreateToken,
  useRevokeToken,
  type ApiTokenRow,
  type CreatedToken,
  type ScopeName,
} from './queries.js';

// What each role may grant (the server refuses more with 403): a Viewer's scripts only read.
const ROLE_SCOPES: Record<RoleName, ScopeName[]> = {
  admin: ['read', 'import', 'clients', 'admin'],
  viewer: ['read'],
  client_viewer: ['read'],
};

function CreateTokenDialog({
  role,
  onCreated,
  onClose,
}: {
  role: RoleName;
  onCreated(token: CreatedToken): void;
  onClose(): void;
}) {
  const create = useCreateToken();
  const clients = useClients(role !== 'client_viewer');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ScopeName[]>(['read']);
  const [clientId, setClientId] = useState('');
  const [days, setDays] = useState('');
  const toggle = (scope: ScopeName) =>
    setScopes((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), scopes, clientId: clientId || null, expiresInDays: days ? Number(days) : null },
      { onSuccess: onCreated },
    );
  };
  return (
    <Dialog title="Create an API token" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <ErrorNotice error={create.error} />
        <TextField
          label="Name"
          required
          autoFocus
          value={name}
          onValue={setName}
          hint="What the script is, e.g. nightly import."
        />
        <fieldset className="field">
          <legend>What it may do</legend>
          {ROLE_SCOPES[role].map((scope) => (
            <label key={scope} className="radio">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
              <span>
                <strong>{scope}</strong> <span className="muted">{SCOPE_HELP[scope]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {role !== 'client_viewer' && (
          <label className="field">
            <span>Client</span>
            <select value={clientId} onChange={(event) => setClientId(event.target.value)}>
              <option value="">Every client</option>
              {(clients.data ?? []).map((client) => (
                <option key={client.id} value={client.id}>
                  {client.name} only
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>Expires</span>
          <select value={days} onChange={(event) => setDays(event.target.value)}>
            <option value="">Never</option>
            {[7, 30, 90, 365].map((n) => (
              <option key={n} value={n}>
                In {plural(n, 'day')}
              </option>
            ))}
          </select>
        </label>
        <FormActions
          action={['Create token', 'Creating…']}
          busy={create.isPending}
          disabled={scopes.length === 0}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

function TokenRow({ token, showOwner, onRevoke }: { token: ApiTokenRow; showOwner: boolean; onRevoke(): void }) {
  return (
    <tr>
      <td>{token.name}</td>
      {showOwner && <td>{token.user_email}</td>}
      <td>{token.scopes.join(', ')}</td>
      <td>{token.last_used_at ? formatDate(token.last_used_at) : <span className="muted">Never</span>}</td>
      <td>{token.expires_at ? formatDate(token.expires_at) : <span className="muted">Never</span>}</td>
      <td className="actions">
        <button type="button" className="button button-quiet button-danger-text" onClick={onRevoke}>
          Revoke<span className="sr-only"> {token.name}</span>
        </button>
      </td>
    </tr>
  );
}

function RevokeDialog({ token, onClose }: { token: ApiTokenRow; onClose(): void }) {
  const revoke = useRevokeToken();
  return (
    <Dialog title={`Revoke ${token.name}?`} onClose={onClose}>
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
  const [action, setAction] = useState<Action>(null);
  const close = () => setAction(null);
  return (
    <section className="page" aria-labelledby="tokens-title">
      <header className="page-header">
        <div>
          <h1 id="tokens-title">Scripts &amp; API tokens</h1>
          <p className="muted">A script sends its own token instead of your password; revoke it here at any time.</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setAction({ kind: 'create' })}>
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
      {tokens.data && tokens.data.length === 0 && <p className="muted">No API tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <table className="simple-table tokens-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              {all && <th scope="col">Owner</th>}
              <th scope="col">Scopes</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                showOwner={all}
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
      {action?.kind === 'revoke' && <RevokeDialog token={action.token} onClose={close} />}
    </section>
  );
}
