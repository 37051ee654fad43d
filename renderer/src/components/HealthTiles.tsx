import { memo } from 'react';
import type { Health } from '../api/types.js';
import type { HealthFilter } from '../locations/order.js';
import { formatCount } from '../format.js';
import { HEALTH_LABELS } from './HealthBadge.js';

export const HEALTH_STATUSES: readonly Health[] = ['green', 'yellow', 'red', 'closed'];

/** The client's locations by health at a glance; each tile filters the table to its status. */
export const HealthTiles = memo(function HealthTiles({
  total,
  counts,
  health,
  onHealth,
}: {
  total: number;
  counts: Record<Health, number>;
  health: HealthFilter;
  onHealth: (health: HealthFilter) => void;
}) {
  return (
    <div className="tiles health-tiles" role="group" aria-label="Locations by health">
      <button
        type="button"
        className={`tile tile-button ${health === 'all' ? 'tile-active' : ''}`}
        aria-pressed={health === 'all'}
        onClick={() => onHealth('all')}
      >
        <span className="tile-value" data-testid="count-all">
          {formatCount(total)}
        </span>
        <span className="tile-label">{total === 1 ? 'location' : 'locations'}</span>
      </button>
      {HEALTH_STATUSES.filter((status) => status !== 'closed' || counts.closed > 0).map((status) => (
        <button
          key={status}
          type="button"
          className={`tile tile-button tile-${status} ${health === status ? 'tile-active' : ''}`}
          aria-pressed={health === status}
          onClick={() => onHealth(health === status ? 'all' : status)}
        >
          <span className="tile-value" data-testid={`count-${status}`}>
            {formatCount(counts[status])}
          </span>
          <span className="tile-label">
            <span className={`health-dot health-${status}`} aria-hidden="true" /> {HEALTH_LABELS[status]}
          </span>
        </button>
      ))}
    </div>
  );
});
