import { useRef, useState } from 'react';
import { sessionState } from '../api/session.js';
import type { LocationList } from '../locations/list.js';
import type { Selection } from '../locations/use-selection.js';
import { BulkEditDialog, type ChosenLocation } from './BulkEditDialog.js';
import { plural } from '../format.js';

/** The names of the locations the page holds (the rows around the view, those looked up), by id. */
function namesHeld(list: LocationList): Map<string, string> {
  const { rows, found } = list.snapshot();
  const names = new Map<string, string>();
  for (const location of [...found.values(), ...rows.values()]) if (location) names.set(location.id, location.name);
  return names;
}

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
  // What the button took when pressed: the dialog keeps saying "chosen" once its change clears the choice.
  const [taken, setTaken] = useState<{ locations: ChosenLocation[]; of: 'chosen' | 'shown' } | null>(null);
  const change = useRef<HTMLButtonElement>(null);
  if (sessionState().session?.user.role !== 'admin') return null;
  const chosen = selection.ids.size;
  const count = chosen > 0 ? chosen : shown;
  const of = chosen > 0 ? 'chosen' : 'shown';
  // Rows chosen open at once, named from the rows the page holds (a deletion lists the first few; a review:
  // 2 rows chosen copied the whole view out of the worker); every row shown comes from the worker, named.
  const choose = () => {
    if (chosen > 0) {
      const held = namesHeld(list);
      setTaken({ locations: [...selection.ids].map((id) => ({ id, name: held.get(id) ?? '' })), of });
      return;
    }
    void list.exportRows().then((rows) => setTaken({ locations: rows.map(({ id, name }) => ({ id, name })), of }));
  };
  return (
    <div className="bulk-actions">
      <button
        type="button"
        className="button"
        ref={change}
        disabled={chosen === 0 && (!loaded || shown === 0)}
        onClick={choose}
      >
        Change the {count === 1 ? 'location' : plural(count, 'location')} {of}…
      </button>
      {chosen > 0 ? (
        <button
          type="button"
          className="button-link"
          onClick={() => {
            selection.clear();
            // The link goes with the choice: the focus stays beside it (a walk's went to the page's top).
            change.current?.focus();
          }}
        >
          Clear the choice
        </button>
      ) : (
        <span className="muted">or choose rows: Ctrl-click (⌘ on a Mac) or Space, Shift for a range</span>
      )}
      {/* A change or deletion done ends the choice, so the next rows chosen start anew (none chosen: nothing to clear). */}
      {taken && (
        <BulkEditDialog clientId={list.clientId} {...taken} onClose={() => setTaken(null)} onDone={selection.clear} />
      )}
    </div>
  );
}
