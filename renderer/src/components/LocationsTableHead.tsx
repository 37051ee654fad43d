import type { LocationColumn, LocationSort } from '../locations/order.js';
import { LOCATION_COLUMNS, type ColumnWidths } from '../locations/column-widths.js';
import { SortHeader } from './SortHeader.js';
import { ColumnResizeHandle } from './ColumnResizeHandle.js';

// The header row's height (styles.css, .locations-table .table-head .row): it stays on top of the rows.
export const HEAD_HEIGHT = 38;

/** The header row: each column sorts when pressed and widens or narrows by its right edge. */
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
  return (
    <div role="rowgroup" className="table-head">
      <div role="row" aria-rowindex={1} className="row">
        {LOCATION_COLUMNS.map((column) => (
          <SortHeader key={column.key} label={column.label} column={column.key} sort={sort} onSort={onSort}>
            <ColumnResizeHandle
              label={column.label}
              width={widths[column.key]}
              onResize={(width) => onResize(column.key, width)}
              onFit={() => onFit(column.key)}
            />
          </SortHeader>
        ))}
      </div>
    </div>
  );
}
