import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { authorized } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { formatDateTime } from '../format.js';
import { entryInWords, historyKey, undoable, type HistoryEntry } from './entry-words.js';
import { UndoDialog } from './UndoDialog.js';
import { usePhoneText } from '../phone-text.js';

/**
 * A client's history, newest first, as a timeline (issue 11): who changed what and when, and for an
 * Admin, Undo on each import or bulk change.
 */
export function ClientHistory({ clientId, isAdmin }: { clientId: string; isAdmin: boolean }) {
  const [open, setOpen] = useState(false);
  usePhoneText(); // the entries' words group phones once it has loaded
  const [undoing, setUndoing] = useState<HistoryEntry | null>(null);
  const summary = useRef<HTMLElement>(null);
  const history = useQuery({
    queryKey: historyKey(clientId),
    queryFn: async () =>
      (await authorized<{ entries: HistoryEntry[] }>(`/api/audit?clientId=${encodeURIComponent(clientId)}&limit=50`))
        .data.entries,
    enabled: open,
  });
  return (
    <details className="client-history" onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary ref={summary}>History</summary>
      <ErrorNotice error={history.error} />
      {history.isPending && open && <p className="loading">Loading the history…</p>}
      <ol className="history-list">
        {history.data?.map((entry, _at, entries) => (
          <li key={entry.id} data-testid="history-entry">
            <time className="muted" dateTime={entry.at}>
              {formatDateTime(entry.at)}
            </time>{' '}
            <span className="history-words">{entryInWords(entry, entries)}</span>
            {entry.undone_by !== null && <span className="muted"> (undone)</span>}
            {isAdmin && undoable(entry) && (
              <button
                type="button"
                className="button button-quiet"
                aria-label={`Undo: ${entryInWords(entry, entries)}`}
                onClick={() => setUndoing(entry)}
              >
                Undo
              </button>
            )}
          </li>
        ))}
      </ol>
      {history.data?.length === 0 && <p className="muted">Nothing has changed yet.</p>}
      {undoing && (
        <UndoDialog
          clientId={clientId}
          entry={undoing}
          history={history.data ?? []}
          onClose={() => setUndoing(null)}
          returnFocusTo={() => summary.current}
        />
      )}
    </details>
  );
}
