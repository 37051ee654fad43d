import { memo } from 'react';
import { formatDate } from '../format.js';
import type { LocationRow } from '../api/types.js';
import { LocationHealth } from './HealthBadge.js';

export const ROW_HEIGHT = 36;

// The plain-text columns between the name and the health badge, in LOCATION_COLUMNS's order.
const TEXT_COLUMNS = ['store_code', 'address', 'city', 'state', 'zip', 'country'] as const;

function Text({ value }: { value: string | null }) {
  return value === null ? <span className="muted">—</span> : <>{value}</>;
}

/**
 * One location of the table, drawn again only when it changes place: scrolling moves rows by a
 * transform, and the column widths come from a CSS variable on the table.
 */
export const LocationsTableRow = memo(function LocationsTableRow({
  location,
  index,
  top,
  tabbable,
  open,
  selected,
}: {
  /** Undefined while its row is on its way from the locations worker. */
  location: LocationRow | undefined;
  /** Its place in the shown rows, from 0. */
  index: number;
  top: number;
  /** The one row that Tab reaches (roving focus). */
  tabbable: boolean;
  /** Whether it is the location open in the side panel. */
  open: boolean;
  /** Whether it is chosen for a bulk change. */
  selected: boolean;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-current={open ? 'true' : undefined}
      tabIndex={tabbable ? 0 : -1}
      data-index={index}
      data-location-id={location?.id}
      data-testid={location ? 'location-row' : 'pending-row'}
      className={`row location-row${open ? ' row-open' : ''}${selected ? ' row-selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
    >
      {location ? <LocationCells location={location} /> : <div role="gridcell" className="cell muted" />}
    </div>
  );
});

function LocationCells({ location }: { location: LocationRow }) {
  return (
    <>
      <div role="gridcell" className="cell cell-strong" title={location.name}>
        {location.name}
      </div>
      {TEXT_COLUMNS.map((key) => (
        <div key={key} role="gridcell" className="cell" title={location[key] ?? undefined}>
          <Text value={location[key]} />
        </div>
      ))}
      <div role="gridcell" className="cell">
        <LocationHealth location={location} />
      </div>
      <div role="gridcell" className="cell">
        {formatDate(location.created_at)}
      </div>
    </>
  );
}
