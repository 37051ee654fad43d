import { ErrorNotice } from '../components/ErrorNotice.js';
import { DialogDone } from '../components/DialogDone.js';
import { undoResultWords } from '../history/entry-words.js';
import { isUndoneAlready, useUndo } from '../history/use-undo.js';

/**
 * The end of a bulk change: how many changed, and Undo at once (a walk had to look for it in the
 * history), which reverts the change as the history's Undo does.
 */
export function BulkDone({
  clientId,
  message,
  operationId,
  onClose,
}: {
  clientId: string;
  message: string;
  /** The change's operation; null when it changed nothing (there is nothing to undo). */
  operationId: string | null;
  onClose: () => void;
}) {
  const undo = useUndo(clientId, operationId ?? '');
  if (undo.data) return <DialogDone message={undoResultWords(undo.data)} onClose={onClose} />;
  return (
    <>
      <p role="status">{message}</p>
      <ErrorNotice error={undo.error} {...(isUndoneAlready(undo.error) && { titles: { 409: 'Undone already' } })} />
      <div className="form-actions">
        {operationId !== null && !undo.error && (
          <button type="button" className="button" disabled={undo.isPending} onClick={() => undo.mutate()}>
            {undo.isPending ? 'Undoing…' : 'Undo'}
          </button>
        )}
        <button type="button" className="button button-primary" onClick={onClose} autoFocus>
          Done
        </button>
      </div>
    </>
  );
}
