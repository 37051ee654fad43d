import { memo, useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LocationSort } from '../locations/order.js';
import { columnFitter } from '../locations/column-fit.js';
import {
  LOCATION_COLUMNS,
  gridColumnsOf,
  totalWidthOf,
  useColumnWidths,
  useInnerWidth,
} from '../locations/column-widths.js';
import { useRowFocus } from '../locations/use-row-focus.js';
import type { Selection } from '../locations/use-selection.js';
import type { LocationRow } from '../api/types.js';
import { ROW_HEIGHT } from './LocationsTableRow.js';
import { LocationsTableBody } from './LocationsTableBody.js';
import { HEAD_HEIGHT, LocationsTableHead } from './LocationsTableHead.js';

interface LocationsTableProps {
  /** The shown rows held by the page, by place (the others are being fetched). */
  rows: ReadonlyMap<number, LocationRow>;
  /** How many rows the table shows. */
  count: number;
  /** The places [start, end) in view, whenever they change. */
  onRange: (start: number, end: number) => void;
  sort: LocationSort;
  onSort: (sort: LocationSort) => void;
  openId: string | null;
  onOpen: (locationId: string) => void;
  /** The locations chosen for a bulk change, and how a click or a key changes them. */
  selection: Pick<Selection, 'ids' | 'select'>;
  /** Changes with the filter and the sort: the list then starts again from its top. */
  scope: string;
  busy: boolean;
}

/** The column widths, as the CSS variables the rows' grid reads. */
function tableStyle(widths: Parameters<typeof gridColumnsOf>[0], count: number): CSSProperties {
  return {
    '--location-columns': gridColumnsOf(widths),
    '--location-width': `${totalWidthOf(widths)}px`,
    // Its rows' height, and room for the borders and a horizontal scroll bar: the table is no taller.
    '--rows-height': `${HEAD_HEIGHT + count * ROW_HEIGHT + 20}px`,
  } as CSSProperties;
}

/**
 * A client's locations as a grid: only the rows in view are in the page (TanStack Virtual), so
 * 100,000 rows scroll like a hundred. Every column sorts and can be widened; the rows are reached by
 * keyboard (one Tab stop, then the arrows) and Enter or a click opens one.
 */
export const LocationsTable = memo(function LocationsTable({
  rows,
  count,
  onRange,
  sort,
  onSort,
  openId,
  onOpen,
  selection,
  scope,
  busy,
}: LocationsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [widths, resize] = useColumnWidths(useInnerWidth(scroller));
  const fit = columnFitter(scroller, resize);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    // Rows drawn in React's own task, not inside the scroll event's frame: two shorter tasks, not one long one.
    useFlushSync: false,
  });
  const open = useCallback(
    (index: number) => {
      const location = rows.get(index);
      if (location) onOpen(location.id);
    },
    [rows, onOpen],
  );
  const focus = useRowFocus({
    count,
    virtualizer,
    body,
    pageRows: () => Math.max(1, Math.floor(((scroller.current?.clientHeight ?? 0) - HEAD_HEIGHT) / ROW_HEIGHT) - 1),
    scope,
    onOpen: open,
    onSelect: selection.select,
  });
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [scope]);

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = (items[items.length - 1]?.index ?? -1) + 1;
  useEffect(() => onRange(first, last), [first, last, onRange]);
  const drawn = items.some((item) => item.index === focus.active);
  const tabStop = drawn ? focus.active : (virtualizer.range?.startIndex ?? 0);

  return (
    <div
      role="grid"
      aria-label="Locations"
      aria-rowcount={count + 1}
      aria-colcount={LOCATION_COLUMNS.length}
      aria-readonly="true"
      aria-multiselectable="true"
      aria-busy={busy}
      className="table locations-table"
      style={tableStyle(widths, count)}
    >
      <div ref={scroller} className="table-scroll" data-testid="locations-scroll">
        <LocationsTableHead sort={sort} onSort={onSort} widths={widths} onResize={resize} onFit={fit} />
        <LocationsTableBody
          bodyRef={body}
          height={virtualizer.getTotalSize()}
          items={items}
          rows={rows}
          tabStop={tabStop}
          openId={openId}
          selected={selection.ids}
          focus={focus}
        />
      </div>
    </div>
  );
});
