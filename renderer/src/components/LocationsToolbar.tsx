import type { ExportFormat } from '../export/locations-csv.js';
import type { HealthFilter } from '../locations/order.js';
import { formatCount, plural } from '../format.js';
import { HEALTH_LABELS } from './HealthBadge.js';
import { HEALTH_STATUSES } from './HealthTiles.js';
import { SearchField } from './SearchField.js';

/** Above the locations table: search, the health filter, how many rows show, and the CSV export of them. */
export function LocationsToolbar({
  search,
  onSearch,
  health,
  onHealth,
  shown,
  received,
  total,
  loaded,
  onExport,
}: {
  search: string;
  onSearch: (search: string) => void;
  health: HealthFilter;
  onHealth: (health: HealthFilter) => void;
  /** Rows the filters let through, of the `received` rows so far. */
  shown: number;
  received: number;
  total: number;
  loaded: boolean;
  onExport: (format: ExportFormat) => void;
}) {
  const filterActive = search.trim() !== '' || health !== 'all';
  const status = !loaded
    ? `Loading ${formatCount(received)} of ${plural(total, 'location')}…`
    : filterActive
      ? `${formatCount(shown)} of ${plural(total, 'location')}`
      : plural(total, 'location');
  return (
    <div className="toolbar">
      <SearchField value={search} placeholder="Name, address, city, category, label…" onChange={onSearch} />
      <label className="field field-inline">
        <span>Health</span>
        <select value={health} onChange={(event) => onHealth(event.target.value as HealthFilter)}>
          <option value="all">All</option>
          {HEALTH_STATUSES.map((status) => (
            <option key={status} value={status}>
              {HEALTH_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <span className="muted" role="status" data-testid="shown-count">
        {status}
      </span>
      <button
        type="button"
        className="button toolbar-end"
        disabled={!loaded || shown === 0}
        onClick={() => onExport('csv')}
      >
        Export {filterActive ? 'these' : 'all'} to CSV
      </button>
      <button type="button" className="button" disabled={!loaded || shown === 0} onClick={() => onExport('xlsx')}>
        Export {filterActive ? 'these' : 'all'} to Excel
      </button>
    </div>
  );
}
