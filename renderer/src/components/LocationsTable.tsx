import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LocationRow } from '../api/types.js';
import { formatDate } from '../format.js';
import { HealthBadge, healthIssuesOf } from './HealthBadge.js';
import { SortHeader, type Sort } from './SortHeader.js';

export type LocationColumn = 'name' | 'address' | 'city' | 'state' | 'zip' | 'country' | 'health_score' | 'created_at';

export const LOCATION_COLUMNS: { key: LocationColumn; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'address', label: 'Address' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zip', label: 'Postal code' },
  { key: 'country', label: 'Country' },
  { key: 'health_score', label: 'Health' },
  { key: 'created_at', label: 'Created' },
];

const ROW_HEIGHT = 36;

// The plain-text columns between the name and the health badge, in LOCATION_COLUMNS's order.
const TEXT_COLUMNS = ['address', 'city', 'state', 'zip', 'country'] as const;

function Text({ value }: { value: string | null }) {
  return value === null ? <span className="muted">—</span> : <>{value}</>;
}

/**
 * A client's locations, only the rows in view in the DOM (TanStack Virtual), so 100,000 rows scroll
 * as smoothly as a hundred. The header stays put; every column sorts.
 */
export function LocationsTable({
  rows,
  sort,
  onSort,
}: {
  rows: readonly LocationRow[];
  sort: Sort<LocationColumn>;
  onSort: (sort: Sort<LocationColumn>) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns functions that React Compiler cannot memoize safely; this component does not rely on it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  return (
    <div role="table" aria-label="Locations" aria-rowcount={rows.length + 1} className="table locations-table">
      <div role="rowgroup" className="table-head">
        <div role="row" aria-rowindex={1} className="row">
          {LOCATION_COLUMNS.map((column) => (
            <SortHeader
              key={column.key}
              label={column.label}
              column={column.key}
              sort={sort}
              onSort={onSort}
              className={`col-${column.key}`}
            />
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="table-scroll"
        tabIndex={0}
        aria-label="Locations, scrollable"
        data-testid="locations-scroll"
      >
        <div
          role="rowgroup"
          className="table-body"
          style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
        >
          {items.map((item) => {
            const location = rows[item.index] as LocationRow;
            return (
              <div
                role="row"
                aria-rowindex={item.index + 2}
                className="row"
                key={location.id}
                data-testid="location-row"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <div role="cell" className="cell cell-strong col-name" title={location.name}>
                  {location.name}
                </div>
                {TEXT_COLUMNS.map((key) => (
                  <div
                    key={key}
                    role="cell"
                    className={`cell col-${key}`}
                    // An address can be longer than its column: the whole of it shows on hover.
                    title={key === 'address' ? (location.address ?? undefined) : undefined}
                  >
                    <Text value={location[key]} />
                  </div>
                ))}
                <div role="cell" className="cell col-health_score">
                  <HealthBadge
                    status={location.health_status}
                    score={location.health_score}
                    issues={healthIssuesOf(location)}
                  />
                </div>
                <div role="cell" className="cell col-created_at">
                  {formatDate(location.created_at)}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
