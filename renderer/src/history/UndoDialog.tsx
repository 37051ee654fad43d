import { useQuery } from '@tanstack/react-query';
import { authorized } from '../api/session.js';
import { Dialog } from '../components/Dialog.js';
import { DialogDone } from '../components/DialogDone.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { formatCount, plural } from '../format.js';
import { entryInWords, undoResultWords, type HistoryEntry } from './entry-words.js';
import { isUndoneAlready, undoPath, useUndo, type Undo } from './use-undo.js';

/** The conflicts listed by name; the rest are counted. */
const SHOWN_CONFLICTS = 20;

/** Whether the undo would change no location: every one it touched changed since, or none is left. */
const changesNothing = (undo: Undo) => undo.removed + undo.restored + undo.recreated === 0;

function what(undo: Undo): string {
  // The server writes nothing for such an undo, so the change stays in the history, to undo later.
  if (changesNothing(undo) && undo.conflicts.length > 0)
    return 'Nothing can be undone now: every location it touched is left as it is, for the reason listed. It can be undone once they are resolved.';
  const parts = [
    undo.removed > 0 && `remove ${plural(undo.removed, 'location')} it created`,
    undo.restored > 0 && `put back the values of ${plural(undo.restored, 'location')}`,
    undo.recreated > 0 && `bring back ${plural(undo.recreated, 'deleted location')}`,
  ].filter(Boolean);
  if (parts.length === 0) return 'There is nothing left to undo.';
  const last = parts.pop();
  return `This will ${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last}.`;
}

/** What the undo would do, and the locations it would leave as they are. */
function UndoPreview({ undo }: { undo: Undo }) {
  const { conflicts } = undo;
  return (
    <>
      <p>{what(undo)}</p>
      {conflicts.length > 0 && (
        <div className="notice">
          <p>
            {conflicts.length === 1
              ? 'One location will be left as it is:'
              : `${plural(conflicts.length, 'location')} will be left as they are:`}
          </p>
          <ul>
            {conflicts.slice(0, SHOWN_CONFLICTS).map((conflict) => (
              <li key={conflict.location_id}>
                {/* A location deleted since whose name the change did not keep has none to show. */}
                {conflict.name || 'A location no longer there'}: {conflict.reason}
              </li>
            ))}
          </ul>
          {conflicts.length > SHOWN_CONFLICTS && <p>…and {formatCount(conflicts.length - SHOWN_CONFLICTS)} more.</p>}
        </div>
      )}
    </>
  );
}

/** Undo of one operation: its dry run first (what it will do, and the conflicts it leaves), then the undo. */
export function UndoDialog({
  clientId,
  entry,
  history,
  onClose,
  returnFocusTo,
}: {
  clientId: string;
  entry: HistoryEntry;
  /** The entries at hand: an undo names what it reverted from them. */
  history: readonly HistoryEntry[];
  onClose: () => void;
  /** Where the focus goes once the undone entry has lost its Undo button. */
  returnFocusTo: () => HTMLElement | null;
}) {
  const path = undoPath(entry.operation_id!);
  const preview = useQuery({
    queryKey: ['undo-preview', entry.operation_id],
    queryFn: async () => (await authorized<Undo>(`${path}?dryRun=true`, { method: 'POST' })).data,
    staleTime: 0,
  });
  const undo = useUndo(clientId, entry.operation_id!);
  const done = undo.data;
  const undoneAlready = isUndoneAlready(preview.error) || isUndoneAlready(undo.error);
  return (
    <Dialog title="Undo this change?" onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>{entryInWords(entry, history)}</p>
      <ErrorNotice
        error={preview.error ?? undo.error}
        {...(undoneAlready && {
          titles: { 409: 'Undone already' },
          explain: { 409: 'This change was undone already: its undo is in the history.' },
        })}
      />
      {preview.data && !done && !undoneAlready && <UndoPreview undo={preview.data} />}
      {done ? (
        <DialogDone message={undoResultWords(done)} onClose={onClose} />
      ) : undoneAlready || (preview.data && changesNothing(preview.data)) ? (
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      ) : (
        <FormActions
          action={['Undo', 'Undoing…']}
          busy={undo.isPending}
          disabled={!preview.data}
          onCancel={onClose}
          onAction={() => undo.mutate()}
        />
      )}
    </Dialog>
  );
}
