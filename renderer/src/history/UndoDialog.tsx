import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type { UndoResponse } from '../../../server/audit/schemas.js';
import { keys } from '../api/queries.js';
import { authorized } from '../api/session.js';
import { Dialog } from '../components/Dialog.js';
import { DialogDone } from '../components/DialogDone.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { formatCount, plural } from '../format.js';
import { entryInWords, historyKey, type HistoryEntry } from './entry-words.js';

type Undo = Static<typeof UndoResponse>;

/** The conflicts listed by name; the rest are counted. */
const SHOWN_CONFLICTS = 20;

/** Whether the undo would change no location: every one it touched changed since, or none is left. */
const changesNothing = (undo: Undo) => undo.removed + undo.restored + undo.recreated === 0;

function what(undo: Undo): string {
  // The server writes nothing for such an undo, so the change stays in the history, to undo later.
  if (changesNothing(undo) && undo.conflicts.length > 0)
    return 'Nothing can be undone now: every location it touched changed since. It can be undone once they are resolved.';
  const parts = [
    undo.removed > 0 && `remove ${plural(undo.removed, 'location')} it created`,
    undo.restored > 0 && `put back the values of ${plural(undo.restored, 'location')}`,
    undo.recreated > 0 && `bring back ${plural(undo.recreated, 'deleted location')}`,
  ].filter(Boolean);
  return parts.length > 0 ? `This will ${parts.join(', ')}.` : 'There is nothing left to undo.';
}

/** Undo of one operation: its dry run first (what it will do, and the conflicts it leaves), then the undo. */
export function UndoDialog({
  clientId,
  entry,
  onClose,
  returnFocusTo,
}: {
  clientId: string;
  entry: HistoryEntry;
  onClose: () => void;
  /** Where the focus goes once the undone entry has lost its Undo button. */
  returnFocusTo: () => HTMLElement | null;
}) {
  const cache = useQueryClient();
  const path = `/api/operations/${encodeURIComponent(entry.operation_id!)}/undo`;
  const preview = useQuery({
    queryKey: ['undo-preview', entry.operation_id],
    queryFn: async () => (await authorized<Undo>(`${path}?dryRun=true`, { method: 'POST' })).data,
    staleTime: 0,
  });
  const undo = useMutation({
    mutationFn: async () => (await authorized<Undo>(path, { method: 'POST' })).data,
    onSuccess: () =>
      Promise.all([
        cache.invalidateQueries({ queryKey: historyKey(clientId) }),
        cache.invalidateQueries({ queryKey: keys.locations(clientId) }),
        cache.invalidateQueries({ queryKey: keys.clients }),
        cache.invalidateQueries({ queryKey: ['location'] }),
      ]),
  });
  const done = undo.data;
  return (
    <Dialog title="Undo this change?" onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>{entryInWords(entry)}</p>
      <ErrorNotice
        error={preview.error ?? undo.error}
        titles={{ 409: 'Undone already' }}
        explain={{ 409: 'This change was undone already: its undo is in the history.' }}
      />
      {preview.data && !done && <p>{what(preview.data)}</p>}
      {preview.data && preview.data.conflicts.length > 0 && !done && (
        <div className="notice">
          <p>
            {preview.data.conflicts.length === 1
              ? 'One location will be left as it is:'
              : `${plural(preview.data.conflicts.length, 'location')} will be left as they are:`}
          </p>
          <ul>
            {preview.data.conflicts.slice(0, SHOWN_CONFLICTS).map((conflict) => (
              <li key={conflict.location_id}>
                {/* A location deleted since whose name the change did not keep has none to show. */}
                {conflict.name || 'A location no longer there'}: {conflict.reason}
              </li>
            ))}
          </ul>
          {preview.data.conflicts.length > SHOWN_CONFLICTS && (
            <p>…and {formatCount(preview.data.conflicts.length - SHOWN_CONFLICTS)} more.</p>
          )}
        </div>
      )}
      {done ? (
        <DialogDone message="Undone." onClose={onClose} />
      ) : preview.data && changesNothing(preview.data) ? (
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
