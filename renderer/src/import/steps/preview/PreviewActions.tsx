import { HEALTH_LABELS } from '../../../components/HealthBadge.js';
import { formatCount, plural } from '../../../format.js';
import type { CheckReport } from '../../protocol.js';

/** How many rows the import writes: those it creates or updates, and the duplicates the user keeps. */
function rowsToWrite(report: CheckReport, keepDuplicates: boolean): number {
  const kept = keepDuplicates && report.choice.mode === 'create' ? report.duplicates : 0;
  return report.totals.created + report.totals.updated + kept;
}

/**
 * The import button's words: how many locations it adds, and when updating how many it changes ("Add 4
 * locations" when an update finds nothing to change, not "Update 0 locations and add 4").
 */
function importLabel(report: CheckReport, keepDuplicates: boolean): string {
  if (report.choice.mode === 'create') return `Import ${plural(rowsToWrite(report, keepDuplicates), 'location')}`;
  const { created, updated } = report.totals;
  if (updated === 0 && created > 0) return `Add ${plural(created, 'location')}`;
  return `Update ${plural(updated, 'location')}${created > 0 ? ` and add ${formatCount(created)}` : ''}`;
}

/** What the rows to write do to the client's health, as the server scored them: beside the button that writes them. */
function ReadyLine({ report, ready }: { report: CheckReport; ready: number }) {
  return (
    <p className="ready-line">
      <span>
        <strong data-testid="ready-count">{formatCount(ready)}</strong> {ready === 1 ? 'row' : 'rows'} will be written:
      </span>
      {(['green', 'yellow', 'red', 'closed'] as const)
        .filter((status) => status !== 'closed' || report.health.closed > 0)
        .map((status) => (
          <span key={status} className={`dot-count health-${status}`}>
            <span className="health-dot" aria-hidden="true" />
            {formatCount(report.health[status])} {HEALTH_LABELS[status].toLowerCase()}
          </span>
        ))}
    </p>
  );
}

/** Why the import button is off when no row has a problem: there is nothing to write, and why. */
function nothingToWrite(report: CheckReport): string {
  const { unchanged, skipped } = report.totals;
  if (unchanged > 0)
    return `Nothing to write: every location already has these values (${formatCount(unchanged)} unchanged).`;
  if (skipped > 0 && report.choice.mode === 'create') {
    return 'Nothing to write: every row is already a location. To change them, choose to update matching locations.';
  }
  return 'Nothing to write.';
}

/**
 * The preview's footer: back to the columns, what the import writes (or why it cannot start yet) and the
 * button that starts it. The rows' health sits here, by the button, so the first screen keeps its height
 * for the grid (a walk at 1440x900 saw few of its rows above the fold).
 */
export function PreviewActions({
  report,
  busy,
  keepDuplicates,
  onBack,
  onStart,
}: {
  report: CheckReport;
  busy: boolean;
  keepDuplicates: boolean;
  onBack: () => void;
  onStart: () => void;
}) {
  const blocked = report.totals.error;
  const toImport = rowsToWrite(report, keepDuplicates);
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onBack}>
        Back to the columns
      </button>
      {toImport > 0 && <ReadyLine report={report} ready={toImport} />}
      {blocked > 0 && (
        <span className="muted" role="status">
          Fix or leave out the {plural(blocked, 'row')} with problems to continue.
        </span>
      )}
      {blocked === 0 && toImport === 0 && !busy && (
        <span className="muted" role="status">
          {nothingToWrite(report)}
        </span>
      )}
      <button
        type="button"
        className="button button-primary"
        disabled={blocked > 0 || toImport === 0 || busy}
        onClick={onStart}
      >
        {importLabel(report, keepDuplicates)}
      </button>
    </div>
  );
}
