import { useState, type FormEvent } from 'react';
import { useBulkEdit, useDeleteLocations, type BulkChange } from '../api/location-queries.js';
import { Dialog } from '../components/Dialog.js';
import { DialogDone } from '../components/DialogDone.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { TextField } from '../components/TextField.js';
import { plural } from '../format.js';
import { STATUS_CHOICES } from '../locations/status-words.js';

/** What a bulk change does to every location chosen: one field set, or all deleted. */
type Action = 'status' | 'primary_category' | 'labels' | 'delete';

const ACTIONS: readonly [Action, string][] = [
  ['status', 'Set the status'],
  ['primary_category', 'Set the primary category'],
  ['labels', 'Set the labels'],
  ['delete', 'Delete them'],
];

/**
 * One change to many locations at once (issue 9 §2), committed by one request in one transaction:
 * the dialog says how many it changes, and the answer how many changed.
 */
export function BulkEditDialog({
  clientId,
  ids,
  onClose,
  onDone,
}: {
  clientId: string;
  ids: string[];
  onClose: () => void;
  /** Called once the locations are changed or deleted (a choice of rows for it is then used up). */
  onDone?: () => void;
}) {
  const [action, setAction] = useState<Action>('status');
  const [value, setValue] = useState('open');
  const [done, setDone] = useState<string | null>(null);
  const edit = useBulkEdit(clientId);
  const remove = useDeleteLocations(clientId);
  const busy = edit.isPending || remove.isPending;

  function apply(event: FormEvent) {
    event.preventDefault();
    const answer =
      action === 'delete'
        ? remove.mutateAsync(ids).then(({ count }) => `${plural(count, 'location')} deleted.`)
        : edit
            .mutateAsync({ ids, set: { [action]: value.trim() === '' ? null : value } as BulkChange['set'] })
            .then(
              ({ count }) =>
                `${plural(count, 'location')} changed${count < ids.length ? `; ${ids.length - count} already had it` : ''}.`,
            );
    // A refusal shows in the dialog (ErrorNotice); nothing was changed then, and the choice stays.
    answer.then(
      (message) => {
        onDone?.();
        setDone(message);
      },
      () => undefined,
    );
  }

  return (
    <Dialog title={`Change ${plural(ids.length, 'location')}`} onClose={onClose}>
      {done ? (
        <DialogDone message={done} onClose={onClose} />
      ) : (
        <form onSubmit={apply}>
          <label className="field">
            <span>What to do</span>
            <select
              value={action}
              onChange={(event) => {
                setAction(event.target.value as Action);
                setValue(event.target.value === 'status' ? 'open' : '');
              }}
            >
              {ACTIONS.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <BulkValue action={action} value={value} onValue={setValue} />
          <ErrorNotice error={edit.error ?? remove.error} />
          <FormActions
            action={[
              action === 'delete'
                ? `Delete ${plural(ids.length, 'location')}`
                : `Change ${plural(ids.length, 'location')}`,
              'Saving…',
            ]}
            danger={action === 'delete'}
            busy={busy}
            onCancel={onClose}
          />
        </form>
      )}
    </Dialog>
  );
}

function BulkValue({ action, value, onValue }: { action: Action; value: string; onValue: (value: string) => void }) {
  if (action === 'delete') return <p className="muted">They can be brought back with Undo in the client’s History.</p>;
  if (action === 'status') {
    return (
      <label className="field">
        <span>Status</span>
        <select value={value} onChange={(event) => onValue(event.target.value)}>
          {STATUS_CHOICES.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <TextField
      label={action === 'labels' ? 'Labels' : 'Primary category'}
      value={value}
      onValue={onValue}
      hint={action === 'labels' ? 'Separated by commas; blank clears them' : 'Blank clears it'}
    />
  );
}
