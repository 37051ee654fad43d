import { useState } from 'react';
import type { RowField } from '../../../server/locations/schemas.js';
import type { CheckReport, ImportChoice } from '../import/protocol.js';
import { formatBytes, formatCount, plural } from '../format.js';
import { CreatedRows } from './CreatedRows.js';
import { HEALTH_LABELS } from './HealthBadge.js';
import { ModeChoice } from './ModeChoice.js';
import { PreviewTotals, type PreviewFilter } from './PreviewTotals.js';
import { ProblemRows } from './ProblemRows.js';
import { UpdatedRows } from './RowDiff.js';
import { SkippedRows } from './SkippedRows.js';
import { UnchangedRows } from './UnchangedRows.js';

/** How many rows the import writes: those it creates or updates, and the duplicates the user keeps. */
export function rowsToWrite(report: CheckReport, keepDuplicates: boolean): number {
  const kept = keepDuplicates && report.choice.mode === 'create' ? report.duplicates : 0;
  return report.totals.created + report.totals.updated + kept;
}

/** The import button's words: how many locations it adds, and when updating how many it changes. */
export function importLabel(report: CheckReport, keepDuplicates: boolean): string {
  if (report.choice.mode === 'create') return `Import ${plural(rowsToWrite(report, keepDuplicates), 'location')}`;
  const { created, updated } = report.totals;
  return `Update ${plural(updated, 'location')}${created > 0 ? ` and add ${formatCount(created)}` : ''}`;
}

/** What the rows to write do to the client's health, as the server scored them. */
function ReadyLine({ report, ready }: { report: CheckReport; ready: number }) {
  return (
    <p className="ready-line">
      <strong data-testid="ready-count">{formatCount(ready)}</strong> {ready === 1 ? 'row' : 'rows'} will be written.{' '}
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

/**
 * The server's dry run, shown: the mode, what each row does (tiles that filter the lists below), the
 * changes each update makes, the rows refused (fixable in place, or left out) and the rows skipped.
 */
export function ImportPreview({
  report,
  choice,
  busy,
  keepDuplicates,
  onKeepDuplicates,
  onChoose,
  onFix,
  onLeave,
}: {
  report: CheckReport;
  /** The user's choice: the report's own until a new one is checked. */
  choice: ImportChoice;
  busy: boolean;
  keepDuplicates: boolean;
  onKeepDuplicates: (keep: boolean) => void;
  onChoose: (choice: ImportChoice) => void;
  onFix: (row: number, field: RowField, value: string) => void;
  onLeave: (rows: number[] | 'problems' | 'duplicates', leftOut: boolean) => void;
}) {
  const [filter, setFilter] = useState<PreviewFilter>('all');
  const { totals } = report;
  const shows = (action: PreviewFilter, count: number) => count > 0 && (filter === 'all' || filter === action);
  return (
    <div className="preview" aria-busy={busy}>
      <ModeChoice choice={choice} disabled={busy} onChoose={onChoose} />
      <PreviewTotals totals={totals} leftOut={report.leftOut} filter={filter} onFilter={setFilter} />
      <ReadyLine report={report} ready={rowsToWrite(report, keepDuplicates)} />
      {busy && (
        <p className="muted" role="status">
          Checking the rows again…
        </p>
      )}
      {report.requests > 1 && (
        <p className="notice notice-info">
          This file is too big for one request: it will be sent in <strong>{report.requests} requests</strong> (a
          request holds at most {formatCount(report.limits.rows)} rows and {formatBytes(report.limits.bytes)}).
          Duplicates across requests are skipped when they arrive.
        </p>
      )}
      {shows('error', report.problems.length) && (
        <ProblemRows problems={report.problems} total={totals.error} busy={busy} onFix={onFix} onLeave={onLeave} />
      )}
      {shows('updated', report.updated.length) && <UpdatedRows rows={report.updated} total={totals.updated} />}
      {shows('skipped', report.skipped.length) && (
        <SkippedRows
          rows={report.skipped}
          keepDuplicates={report.choice.mode === 'create' ? keepDuplicates : null}
          onKeepDuplicates={onKeepDuplicates}
        />
      )}
      {shows('created', report.samples.length) && <CreatedRows samples={report.samples} />}
      {shows('unchanged', report.unchanged.length) && (
        <UnchangedRows rows={report.unchanged} total={totals.unchanged} />
      )}
    </div>
  );
}
