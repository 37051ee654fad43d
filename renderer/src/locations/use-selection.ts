import { useCallback, useEffect, useRef, useState } from 'react';
import type { LocationList } from './list.js';

/**
 * How a click or a key chooses rows: one more or less (Ctrl, ⌘ or Space), or all from the last one
 * (Shift); `anchor` chooses none but starts the next range there (a plain click, which opens the row: a
 * Shift-click after it chooses both and those between, as in a spreadsheet or a file manager).
 */
export type SelectHow = 'toggle' | 'range' | 'anchor';

export interface Selection {
  /** The chosen locations, by id: they stay chosen when the sort changes. */
  ids: ReadonlySet<string>;
  select: (index: number, how: SelectHow) => void;
  clear: () => void;
  /** Leaves out a location deleted meanwhile (its panel's Delete): a bulk change would not find it. */
  forget: (id: string) => void;
}

/**
 * The locations chosen in the table for a bulk change (issue 9 §2): Ctrl/⌘-click or Space adds or
 * removes a row, Shift-click or Shift+Space adds every row from the last one chosen or opened to this
 * one, in the order shown. The choice is kept in the address (`addressed`, written back through `onAddressed`), so a
 * reload keeps it; a new search or health filter (`scope`) takes the address's, which a change of filter
 * empties (url-state.ts) and Back brings back. A choice read from the address keeps only the locations
 * the view shows once every row has arrived: none deleted since, none filtered out.
 */
export function useSelection(
  list: LocationList,
  idAt: (index: number) => string | undefined,
  scope: string,
  addressed: readonly string[],
  onAddressed: (ids: string[]) => void,
): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set(addressed));
  // The row a range starts from, and the location it held: a list that moved under it (a location
  // renamed, deleted or added meanwhile) no longer starts the range there.
  const [anchor, setAnchor] = useState<{ index: number; id: string | undefined } | null>(null);
  const [selectionScope, setSelectionScope] = useState(scope);
  const restoring = useRef(0);
  if (selectionScope !== scope) {
    setSelectionScope(scope);
    setIds(new Set(addressed));
    setAnchor(null);
  }
  useEffect(() => {
    if (addressed.length === 0) return;
    const turn = ++restoring.current;
    // A list that failed to load says so itself (its error notice): the choice then stays as read.
    list.shownOf(addressed).then(
      (shownIds) => {
        if (turn !== restoring.current || shownIds.length === addressed.length) return;
        // Only the address's ids go: a row chosen meanwhile by a click stays.
        const shown = new Set(shownIds);
        const gone = new Set(addressed.filter((id) => !shown.has(id)));
        setIds((before) => new Set([...before].filter((id) => !gone.has(id))));
      },
      () => undefined,
    );
    // Read once a scope: the address follows the choice from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, scope]);
  useEffect(() => onAddressed([...ids]), [ids, onAddressed]);

  const select = useCallback(
    (index: number, how: SelectHow) => {
      const id = idAt(index);
      if (how === 'anchor') return setAnchor({ index, id });
      if (id === undefined) return;
      // A row scrolled out of the page is not known here: its place is trusted.
      const there = anchor === null ? undefined : idAt(anchor.index);
      const from = anchor !== null && (there === undefined || there === anchor.id) ? anchor.index : null;
      if (how === 'toggle' || from === null) {
        setIds((before) => {
          const next = new Set(before);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        });
        setAnchor({ index, id });
        return;
      }
      // The rows between may not be in the page (it holds those around the view): the worker has them all.
      const [start, end] = from < index ? [from, index + 1] : [index, from + 1];
      void list.exportRows({ start, end }).then((rows) => {
        setIds((before) => new Set([...before, ...rows.map((row) => row.id)]));
      });
    },
    [anchor, idAt, list],
  );

  const clear = useCallback(() => {
    setIds(new Set());
    setAnchor(null);
  }, []);

  const forget = useCallback((id: string) => {
    setIds((before) => {
      if (!before.has(id)) return before;
      const next = new Set(before);
      next.delete(id);
      return next;
    });
    // The rows after it moved up one: a Shift range from the old place would be off by one.
    setAnchor(null);
  }, []);

  return { ids, select, clear, forget };
}
