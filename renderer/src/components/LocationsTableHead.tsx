import { useRef, useState, type KeyboardEvent } from 'react';
import type { LocationColumn, LocationSort } from '../locations/order.js';
import { LOCATION_COLUMNS, type ColumnWidths } from '../locations/column-widths.js';
import { SortHeader } from './SortHeader.js';
import { ColumnResizeHandle } from './ColumnResizeHandle.js';

// The header row's height (styles.css, .locations-table .table-head .row): it stays on top of the rows.
export const HEAD_HEIGHT = 38;

/**
 * Where Left, Right, Home and End move from a header's sort button, or undefined for another key (the
 * header row is one tab stop: a walk's Shift+Tab from the rows back to the toolbar crossed 18 of them).
 */
function nextColumn(key: string, at: number): number | undefined {
  const last = LOCATION_COLUMNS.length - 1;
  return { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(last, at + 1), Home: 0, End: last }[key];
}

/**
 * The header row: each column sorts when pressed and widens or narrows by its right edge. One tab stop,
 * as a toolbar is: the header last focused (the first at the start) and its edge are in the tab order;
 * Left and Right (Home, End) move between the headers.
 */
export function LocationsTableHead({
  sort,
  onSort,
  widths,
  onResize,
  onFit,
}: {
  sort: LocationSort;
  onSort: (sort: LocationSort) => void;
  widths: ColumnWidths;
  onResize: (column: LocationColumn, width: number | null) => void;
  onFit: (column: LocationColumn) => void;
}) {
  const [current, setCurrent] = useState(0);
  const row = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLButtonElement>, at: number) => {
    const next = nextColumn(event.key, at);
    if (next === undefined) return;
    event.preventDefault();
    setCurrent(next);
    row.current?.querySelectorAll<HTMLButtonElement>('.sort-button')[next]?.focus();
  };
  return (
    <div role="rowgroup" className="table-head">
      <div role="row" aria-rowindex={1} className="row" ref={row}>
        {LOCATION_COLUMNS.map((column, at) => (
          <SortHeader
            key={column.key}
            label={column.label}
            column={column.key}
            sort={sort}
            onSort={onSort}
            roving={{ tabbable: at === current, onKeyDown: (event) => move(event, at), onFocus: () => setCurrent(at) }}
          >
            <ColumnResizeHandle
              label={column.label}
              width={widths[column.key]}
              onResize={(width) => onResize(column.key, width)}
              onFit={() => onFit(column.key)}
              tabbable={at === current}
            />
          </SortHeader>
        ))}
      </div>
    </div>
  );
}
