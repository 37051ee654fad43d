import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LocationSort } from '../locations/order.js';
import { LOCATION_COLUMNS, gridColumnsOf, totalWidthOf, useColumnWidths } from '../locations/column-widths.js';
import { useRowFocus } from '../locations/use-row-focus.js';
import type { LocationRow } from '../api/types.js';
import { SortHeader } from './SortHeader.js';
import { ColumnResizeHandle } from './ColumnResizeHandle.js';
import { LocationsTableRow, ROW_HEIGHT } from './LocationsTableRow.js';

// The header row's height (styles.css, .locations-table .table-head .row): it stays on top of the rows.
const HEAD_HEIGHT = 38;

/**
 * A client's locations as a grid: only the rows in view are in the page (TanStack Virtual), so
 * 100,000 rows scroll like a hundred. Every column sorts and can be widened; the rows are reached by
 * keyboard (one Tab stop, then the arrows) and Enter or a click opens one.
 */
export function LocationsTable({
  rows,
  order,
  sort,
  onSort,
  openId,
  onOpen,
  scope,
  busy,
}: {
  /** Every loaded location, in arrival order. */
  rows: readonly LocationRow[];
  /** The shown rows, as numbers into `rows`. */
  order: Int32Array;
  sort: LocationSort;
  onSort: (sort: LocationSort) => void;
  openId: string | null;
  onOpen: (locationId: string) => void;
  /** Changes with the filter and the sort: the list then starts again from its top. */
  scope: string;
  busy: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [widths, resize] = useColumnWidths();
  // TanStack Virtual returns functions that React Compiler cannot memoize safely; this component does not rely on it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
  });
  const open = useCallback(
    (index: number) => {
      const location = rows[order[index] ?? -1];
      if (location) onOpen(location.id);
    },
    [rows, order, onOpen],
  );
  const focus = useRowFocus({
    count: order.length,
    virtualizer,
    body,
    pageRows: () => Math.max(1, Math.floor(((scroller.current?.clientHeight ?? 0) - HEAD_HEIGHT) / ROW_HEIGHT) - 1),
    scope,
    onOpen: open,
  });
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [scope]);

  const items = virtualizer.getVirtualItems();
  const drawn = items.some((item) => item.index === focus.active);
  const tabStop = drawn ? focus.active : (virtualizer.range?.startIndex ?? 0);
  const style = {
    '--location-columns': gridColumnsOf(widths),
    '--location-width': `${totalWidthOf(widths)}px`,
  } as CSSProperties;

  return (
    <div
      role="grid"
      aria-label="Locations"
      aria-rowcount={order.length + 1}
      aria-colcount={LOCATION_COLUMNS.length}
      aria-readonly="true"
      aria-busy={busy}
      className="table locations-table"
      style={style}
    >
      <div ref={scroller} className="table-scroll" data-testid="locations-scroll">
        <div role="rowgroup" className="table-head">
          <div role="row" aria-rowindex={1} className="row">
            {LOCATION_COLUMNS.map((column) => (
              <SortHeader key={column.key} label={column.label} column={column.key} sort={sort} onSort={onSort}>
                <ColumnResizeHandle
                  label={column.label}
                  width={widths[column.key]}
                  onResize={(width) => resize(column.key, width)}
                />
              </SortHeader>
            ))}
          </div>
        </div>
        <div
          ref={body}
          role="rowgroup"
          className="table-body"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={focus.onKeyDown}
          onClick={focus.onClick}
          onFocus={focus.onFocus}
        >
          {items.map((item) => {
            const location = rows[order[item.index] ?? -1];
            if (!location) return null;
            return (
              <LocationsTableRow
                key={location.id}
                location={location}
                index={item.index}
                top={item.start - HEAD_HEIGHT}
                tabbable={item.index === tabStop}
                open={location.id === openId}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
