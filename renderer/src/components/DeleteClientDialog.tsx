import { useState, type FormEvent } from 'react';
import type { ClientRow } from '../api/types.js';
import { useDeleteClient } from '../api/queries.js';
import { plural } from '../format.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { TextField } from './TextField.js';
import { FormActions } from './FormActions.js';

/**
 * Admin: deleting a client takes its locations and its Client Viewer accounts with it, for good.
 * The dialog says so with numbers, and a client with locations must be confirmed by typing its name.
 */
export function DeleteClientDialog({
  client,
  onClose,
  onDeleted,
}: {
  client: ClientRow;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteClient();
  const [typed, setTyped] = useState('');
  const mustType = client.locations_count > 0;
  const confirmed = !mustType || typed.trim() === client.name.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    remove.mutate(client.id, { onSuccess: onDeleted });
  };

  return (
    <Dialog title={`Delete ${client.name}?`} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <p>
          This deletes the client <strong>{client.name}</strong>
          {client.locations_count > 0 ? (
            <>
              {' '}
              and its <strong>{plural(client.locations_count, 'location')}</strong>
            </>
          ) : (
            ' (it has no locations)'
          )}
          , and the Client Viewer accounts that can only see this client.
        </p>
        <p className="notice notice-warning">This cannot be undone.</p>
        {mustType && (
          <TextField
            label={
              <>
                Type <strong>{client.name}</strong> to confirm
              </>
            }
            value={typed}
            autoFocus
            autoComplete="off"
            onValue={setTyped}
          />
        )}
        <ErrorNotice error={remove.error} />
        <FormActions
          action={[`Delete ${client.name}`, 'Deleting…']}
          busy={remove.isPending}
          disabled={!confirmed}
          danger
          focusCancel={!mustType}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
