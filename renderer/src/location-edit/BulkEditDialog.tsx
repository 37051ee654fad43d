import { useMemo, useState, type FormEvent } from 'react';
import { useBulkEdit, useDeleteLocations } from '../api/location-queries.js';
import { Dialog } from '../components/Dialog.js';
import { BulkDone } from './BulkDone.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { plural } from '../format.js';
import {
  ACTIONS,
  doneWords,
  editOf,
  previewWords,
  startOf,
  type BulkAction,
  type BulkChoice,
  type EditChoice,
} from './bulk-change.js';
import { BulkValue } from './BulkValue.js';
import { useBulkPreview } from './use-bulk-preview.js';

/** What the server's dry run says of an edit: counting, how many it changes, or why it is refused. */
function CountLine({
  choice,
  preview,
  chosen,
}: {
  choice: EditChoice;
  preview: ReturnType<typeof useBulkPreview>;
  chosen: number;
}) {
  return (
    <p className="muted" role="status" aria-busy={preview.state === 'counting'}>
      {preview.state === 'counting' && 'Counting the locations it changes…'}
      {preview.state === 'counted' && previewWords(choice, preview.count, chosen)}
      {/* The labels show a refusal at their field; the others here, beside the button it turns off. */}
      {preview.state === 'refused' && choice.action !== 'labels' && preview.message}
    </p>
  );
}

/** A location a bulk change is about: its id for the request, its name for a deletion to list. */
export interface ChosenLocation {
  id: string;
  name: string;
}

/**
 * One change to many locations at once (issue 9 §2), committed by one request in one transaction:
 * the title names the locations as the table's button did ("Change the 20 locations shown"), the button
 * how many the change makes (for labels, how many of them will change, before), the answer how many changed.
 */
export function BulkEditDialog({
  clientId,
  locations,
  of,
  onClose,
  onDone,
}: {
  clientId: string;
  locations: readonly ChosenLocation[];
  /** How the table came to them: the rows chosen, or every row its filters show. */
  of: 'chosen' | 'shown';
  onClose: () => void;
  /** Called once the locations are changed or deleted (a choice of rows for it is then used up). */
  onDone?: () => void;
}) {
  const ids = useMemo(() => locations.map((location) => location.id), [locations]);
  const names = useMemo(() => locations.map((location) => location.name), [locations]);
  const [choice, setChoice] = useState<BulkChoice>(startOf('status'));
  const [done, setDone] = useState<{ message: string; operationId: string | null } | null>(null);
  const edit = useBulkEdit(clientId);
  const remove = useDeleteLocations(clientId);
  const body = choice.action === 'delete' ? null : editOf(choice);
  // Every edit is counted first by the server's dry run: a change that would change nothing is not sent.
  const preview = useBulkPreview(ids, body);
  const deleting = choice.action === 'delete';
  const changesNone = preview.state === 'counted' && preview.count === 0;
  // The button says what it does: the locations the server counted as changing (3 of 20 chosen), or deleted.
  const count = !deleting && preview.state === 'counted' ? preview.count : ids.length;
  const verb = deleting ? 'Delete' : 'Change';

  function apply(event: FormEvent) {
    event.preventDefault();
    const sent = choice.action === 'delete' ? remove.mutateAsync(ids) : edit.mutateAsync({ ids, ...body });
    const words = (count: number) =>
      choice.action === 'delete' ? `${plural(count, 'location')} deleted.` : doneWords(choice, count, ids.length);
    const answer = sent.then(({ count, operation_id }) => ({ message: words(count), operationId: operation_id }));
    // A refusal shows in the dialog (ErrorNotice); nothing was changed then, and the choice stays.
    answer.then(
      (outcome) => {
        onDone?.();
        setDone(outcome);
      },
      () => undefined,
    );
  }

  return (
    <Dialog
      title={`${verb} the ${ids.length === 1 ? 'location' : plural(ids.length, 'location')} ${of}`}
      onClose={onClose}
    >
      {done ? (
        <BulkDone clientId={clientId} {...done} onClose={onClose} />
      ) : (
        <form onSubmit={apply}>
          <label className="field">
            <span>What to do</span>
            <select
              value={choice.action}
              onChange={(event) => setChoice(startOf(event.target.value as BulkAction))}
              // The dialog opens on its first choice, not on its close button (Dialog focuses it).
              data-autofocus
            >
              {ACTIONS.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <BulkValue choice={choice} preview={preview} names={names} onChoice={setChoice} />
          {choice.action !== 'delete' && <CountLine choice={choice} preview={preview} chosen={ids.length} />}
          <ErrorNotice error={edit.error ?? remove.error} />
          <FormActions
            action={[`${verb} ${plural(count, 'location')}`, 'Saving…']}
            danger={deleting}
            busy={edit.isPending || remove.isPending}
            // Nothing to send yet (no label typed), or the server's dry run refused it already or found
            // that it changes none of them.
            disabled={(!deleting && body === null) || preview.state === 'refused' || changesNone}
            onCancel={onClose}
          />
        </form>
      )}
    </Dialog>
  );
}
