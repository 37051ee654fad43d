import type { RowAction } from '../../../server/locations/schemas.js';
import type { Totals } from '../import/protocol.js';
import { formatCount } from '../format.js';

/** Which rows the preview lists: all of them, or those of one action. */
export type PreviewFilter = 'all' | RowAction;

const TILES: { action: RowAction; testId: string; one: string; many: string }[] = [
  { action: 'created', testId: 'created-count', one: 'new location', many: 'new locations' },
  { action: 'updated', testId: 'updated-count', one: 'update', many: 'updates' },
  { action: 'unchanged', testId: 'unchanged-count', one: 'unchanged', many: 'unchanged' },
  { action: 'skipped', testId: 'skipped-count', one: 'skipped', many: 'skipped' },
  { action: 'error', testId: 'problem-count', one: 'row has a problem', many: 'rows have problems' },
];

/**
 * The dry run's counts, one tile per action (the server's `totals`, over the rows not left out); a
 * tile lists only its rows, a second click lists them all again.
 */
export function PreviewTotals({
  totals,
  leftOut,
  filter,
  onFilter,
}: {
  totals: Totals;
  leftOut: number;
  filter: PreviewFilter;
  onFilter: (filter: PreviewFilter) => void;
}) {
  return (
    <div
      className="tiles preview-tiles"
      role="group"
      aria-label="Rows by what the import does"
      data-testid="preview-summary"
    >
      {TILES.map(({ action, testId, one, many }) => (
        <button
          key={action}
          type="button"
          className={`tile tile-button ${filter === action ? 'tile-active' : ''} ${action === 'error' && totals.error > 0 ? 'tile-bad' : ''}`}
          aria-pressed={filter === action}
          disabled={totals[action] === 0 && filter !== action}
          onClick={() => onFilter(filter === action ? 'all' : action)}
        >
          <span className="tile-value" data-testid={testId}>
            {formatCount(totals[action])}
          </span>
          <span className="tile-label">{totals[action] === 1 ? one : many}</span>
        </button>
      ))}
      <div className="tile">
        <span className="tile-value" data-testid="left-out">
          {formatCount(leftOut)}
        </span>
        <span className="tile-label">left out</span>
      </div>
    </div>
  );
}
