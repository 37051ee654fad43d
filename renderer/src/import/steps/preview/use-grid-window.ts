import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type RefObject } from 'react';
import { ROW_HEIGHT } from './GridRowView.js';
import type { CheckReport, GridFilter, GridWindow } from '../../protocol.js';
import { clickedList, type Selection } from './selection.js';

/** Asks the worker for the rows the filter shows from `start` to `end`, and which of `selected` it does not show. */
export type ShowRows = (filter: GridFilter, start: number, end: number, selected: number[]) => void;

/** Rows asked for beyond those in view, so a scroll rarely meets a row not yet there. */
const MARGIN = 60;

/**
 * Keeps the grid's window of rows covering what is in view: the rows stay in the worker, the page
 * asks for the ones it draws. Asks again when the filter, the report (a fix, a new check) or the
 * selection changes, with the selected rows, for the worker to say which of them are no longer shown
 * and how many are left out.
 */
function useGridWindow({
  grid,
  filter,
  report,
  selection,
  first,
  last,
  showRows,
}: {
  grid: GridWindow | null;
  filter: GridFilter;
  report: CheckReport;
  selection: Selection;
  first: number;
  last: number;
  showRows: ShowRows;
}) {
  const asked = useRef<{
    filter: GridFilter;
    report: CheckReport;
    selection: Selection;
    start: number;
    end: number;
  } | null>(null);
  useEffect(() => {
    const previous = asked.current;
    const same =
      previous !== null && previous.filter === filter && previous.report === report && previous.selection === selection;
    if (same && first >= previous.start && last < previous.end) return;
    const start = Math.max(0, first - MARGIN);
    const end = last + MARGIN + 1;
    asked.current = { filter, report, selection, start, end };
    // With the selected rows, always: the worker says which of them are no longer shown, and counts those
    // left out and those that stay out (a tick changes what "Leave out" and "Put back" would do).
    showRows(filter, start, end, clickedList(selection));
  }, [filter, report, selection, first, last, showRows]);

  /** The row at a position of the filtered list, when the window holds it. */
  return (index: number) => {
    if (!grid) return undefined;
    return grid.rows[index - grid.start];
  };
}

/** The rows in view of a scrolled grid (virtualized), the height of those above and below, and each row's values. */
export function useVirtualRows({
  grid,
  filter,
  report,
  selection,
  showRows,
  scroller,
}: {
  grid: GridWindow | null;
  filter: GridFilter;
  report: CheckReport;
  selection: Selection;
  showRows: ShowRows;
  scroller: RefObject<HTMLDivElement | null>;
}) {
  // TanStack Virtual's functions cannot be memoized: the compiler leaves this hook as it is (as in LocationsTable).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: grid?.total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // A scroll's rows are drawn in React's next batch, not inside the scroll event (as in LocationsTable):
    // the event and the drawing were one task of 15 to 22 ms a notch, past 50 ms on a loaded machine.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const rowAt = useGridWindow({
    grid,
    filter,
    report,
    selection,
    first: items.at(0)?.index ?? 0,
    last: items.at(-1)?.index ?? 40,
    showRows,
  });
  const before = items.at(0)?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return { items, before, after, rowAt };
}
