import { useState, type FormEvent } from 'react';
import { CreateApiTokenBody } from '../../../server/tokens/schemas.js';
import { useClients } from '../api/queries.js';
import type { RoleName } from '../api/types.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { TextField } from '../components/TextField.js';
import { useFieldCheck } from '../forms/use-field-check.js';
import { plural } from '../format.js';
import { TokenScopes } from './TokenScopes.js';
import { useCreateToken, type CreatedToken, type ScopeName } from './queries.js';

const FIELDS = ['name', 'scopes'] as const;

/** What a script's token may reach: one client or all (not for a Client Viewer), and until when. */
function TokenReach({
  role,
  clientId,
  days,
  onClient,
  onDays,
}: {
  role: RoleName;
  clientId: string;
  days: string;
  onClient(clientId: string): void;
  onDays(days: string): void;
}) {
  const clients = useClients(role !== 'client_viewer');
  return (
    <>
      {role !== 'client_viewer' && (
        <label className="field">
          <span>Client</span>
          <select value={clientId} onChange={(event) => onClient(event.target.value)}>
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
        <select value={days} onChange={(event) => onDays(event.target.value)}>
          <option value="">Never</option>
          {[7, 30, 90, 365].map((n) => (
            <option key={n} value={n}>
              In {plural(n, 'day')}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** A new token for a script: its name, what it may do, where and until when; checked before sending. */
export function CreateTokenDialog({
  role,
  onCreated,
  onClose,
}: {
  role: RoleName;
  onCreated(token: CreatedToken): void;
  onClose(): void;
}) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ScopeName[]>(['read']);
  const [clientId, setClientId] = useState('');
  const [days, setDays] = useState('');
  const body = { name: name.trim(), scopes, clientId: clientId || null, expiresInDays: days ? Number(days) : null };
  const fields = useFieldCheck(CreateApiTokenBody, body, create.error, FIELDS, {
    name: body.name === '' ? 'Name the token after its script, e.g. nightly import.' : null,
    scopes: scopes.length === 0 ? 'Choose at least one thing it may do.' : null,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.check()) create.mutate(body, { onSuccess: onCreated });
  };
  return (
    <Dialog title="Create an API token" onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {!fields.shownAtFields && <ErrorNotice error={create.error} />}
        <TextField
          label="Name"
          required
          autoFocus
          value={name}
          onValue={setName}
          hint="What the script is, e.g. nightly import."
          error={fields.problemOf('name')}
        />
        <TokenScopes role={role} scopes={scopes} problem={fields.problemOf('scopes')} onScopes={setScopes} />
        <TokenReach role={role} clientId={clientId} days={days} onClient={setClientId} onDays={setDays} />
        <FormActions action={['Create token', 'Creating…']} busy={create.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
