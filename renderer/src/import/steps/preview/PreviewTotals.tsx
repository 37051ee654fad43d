import { formatCount } from '../../../format.js';
import type { GridFilter, Totals } from '../../protocol.js';

/** Which rows the preview lists: all of them, those of one action, or those left out. */
export type PreviewFilter = GridFilter['show'];

const TILES: { action: Exclude<PreviewFilter, 'all'>; testId: string; one: string; many: string }[] = [
  { action: 'created', testId: 'created-count', one: 'new location', many: 'new locations' },
  { action: 'updated', testId: 'updated-count', one: 'update', many: 'updates' },
  { action: 'unchanged', testId: 'unchanged-count', one: 'unchanged', many: 'unchanged' },
  { action: 'skipped', testId: 'skipped-count', one: 'skipped', many: 'skipped' },
  { action: 'error', testId: 'problem-count', one: 'row has a problem', many: 'rows have problems' },
  { action: 'left-out', testId: 'left-out', one: 'left out', many: 'left out' },
];

/**
 * The dry run's counts, one tile per action (the server's `totals`, over the rows not left out) and
 * the rows left out; a tile filters the grid and the lists to its rows, a second click shows them all.
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
      {TILES.map(({ action, testId, one, many }) => {
        const count = action === 'left-out' ? leftOut : totals[action];
        return (
          <button
            key={action}
            type="button"
            className={`tile tile-button ${filter === action ? 'tile-active' : ''} ${action === 'error' && count > 0 ? 'tile-bad' : ''}`}
            aria-pressed={filter === action}
            disabled={count === 0 && filter !== action}
            onClick={() => onFilter(filter === action ? 'all' : action)}
          >
            <span className="tile-value" data-testid={testId}>
              {formatCount(count)}
            </span>
            <span className="tile-label">{count === 1 ? one : many}</span>
          </button>
        );
      })}
    </div>
  );
}
