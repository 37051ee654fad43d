import { useState } from 'react';
import { sessionState } from '../api/session.js';
import type { LocationList } from '../locations/list.js';
import type { Selection } from '../locations/use-selection.js';
import { BulkEditDialog } from './BulkEditDialog.js';
import { plural } from '../format.js';

/**
 * "Change these…" beside the table (Admin): one change, through the bulk edit or delete of the API, to
 * the locations chosen in the table, or when none is chosen to every location the filters show (select
 * all filtered).
 */
export function BulkEditButton({
  list,
  shown,
  loaded,
  selection,
}: {
  list: LocationList;
  shown: number;
  loaded: boolean;
  selection: Selection;
}) {
  const [ids, setIds] = useState<string[] | null>(null);
  if (sessionState().session?.user.role !== 'admin') return null;
  const chosen = selection.ids.size;
  const count = chosen > 0 ? chosen : shown;
  const choose = () =>
    chosen > 0 ? setIds([...selection.ids]) : void list.exportRows().then((rows) => setIds(rows.map((row) => row.id)));
  return (
    <div className="bulk-actions">
      <button type="button" className="button" disabled={chosen === 0 && (!loaded || shown === 0)} onClick={choose}>
        Change the {count === 1 ? 'location' : plural(count, 'location')} {chosen > 0 ? 'chosen' : 'shown'}…
      </button>
      {chosen > 0 ? (
        <button type="button" className="button-link" onClick={selection.clear}>
          Clear the choice
        </button>
      ) : (
        <span className="muted">or choose rows: Ctrl-click (⌘ on a Mac) or Space, Shift for a range</span>
      )}
      {/* A change or deletion done ends the choice, so the next rows chosen start anew (none chosen: nothing to clear). */}
      {ids && (
        <BulkEditDialog clientId={list.clientId} ids={ids} onClose={() => setIds(null)} onDone={selection.clear} />
      )}
    </div>
  );
}
