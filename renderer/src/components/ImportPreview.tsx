import { useState } from 'react';
import type { RowField } from '../../../server/locations/schemas.js';
import { FIELDS, FIELD_LABELS } from '../import/header-mapping.js';
import type { CheckReport, DuplicateRow, ProblemRow } from '../import/protocol.js';
import { formatBytes, formatCount } from '../format.js';
import { HEALTH_LABELS, HealthBadge } from './HealthBadge.js';

const PAGE = 100;

/** Long lists show a page at a time; this button shows the next one. */
function ShowMore({ total, shown, onMore }: { total: number; shown: number; onMore: (shown: number) => void }) {
  if (total <= shown) return null;
  return (
    <button type="button" className="button" onClick={() => onMore(shown + PAGE)}>
      Show {Math.min(PAGE, total - shown)} more
    </button>
  );
}

/** One flagged row: its values (the flagged ones editable), the server's reasons, and "leave out". */
function ProblemCard({
  problem,
  busy,
  onFix,
  onLeave,
}: {
  problem: ProblemRow;
  busy: boolean;
  onFix: (row: number, field: RowField, value: string) => void;
  onLeave: (rows: number[], leftOut: boolean) => void;
}) {
  const flagged = new Set(problem.errors.map((error) => error.field).filter((field) => field !== null));
  const shown = FIELDS.filter((field) => flagged.has(field) || field === 'name');
  // The row's other values, so the user knows which location this is.
  const context = FIELDS.filter((field) => !shown.includes(field))
    .map((field) => problem.values[field])
    .filter((value) => typeof value === 'string' && value.trim() !== '')
    .join(' · ');
  const commit = (field: RowField, value: string) => {
    const current = field === 'name' ? problem.values.name : (problem.values[field] ?? '');
    if (value !== current) onFix(problem.row, field, value);
  };
  return (
    <li
      className={`problem ${problem.leftOut ? 'problem-left-out' : ''}`}
      data-testid="problem-row"
      data-line={problem.line}
    >
      <div className="problem-head">
        <span className="problem-line">Line {formatCount(problem.line)}</span>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={problem.leftOut}
            onChange={(event) => onLeave([problem.row], event.target.checked)}
          />
          Leave this row out
        </label>
      </div>
      {context && <p className="problem-context muted">{context}</p>}
      <ul className="problem-reasons">
        {problem.errors.map((error, index) => (
          <li key={index}>
            {error.field ? <strong>{FIELD_LABELS[error.field] ?? error.field}: </strong> : null}
            {error.message}
          </li>
        ))}
      </ul>
      {!problem.leftOut && (
        <div className="problem-fields">
          {shown.map((field) => (
            <label key={field} className={`field ${flagged.has(field) ? 'field-flagged' : ''}`}>
              <span>{FIELD_LABELS[field]}</span>
              <input
                defaultValue={field === 'name' ? problem.values.name : (problem.values[field] ?? '')}
                aria-invalid={flagged.has(field) || undefined}
                disabled={busy}
                onBlur={(event) => commit(field, event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    commit(field, event.currentTarget.value);
                  }
                }}
              />
            </label>
          ))}
        </div>
      )}
    </li>
  );
}

function duplicateReason(duplicate: DuplicateRow): string {
  const what = duplicate.reason === 'google_place_id' ? 'same Google place id' : 'same name and address';
  return duplicate.ofLine === null
    ? `Already a location of this client (${what})`
    : `Repeats line ${formatCount(duplicate.ofLine)} (${what})`;
}

/**
 * The server's dry run, shown: what will be imported and how healthy, every row it refused with the
 * reason (fixable in place, or left out), and the duplicates it will skip.
 */
export function ImportPreview({
  report,
  busy,
  keepDuplicates,
  onKeepDuplicates,
  onFix,
  onLeave,
}: {
  report: CheckReport;
  busy: boolean;
  keepDuplicates: boolean;
  onKeepDuplicates: (keep: boolean) => void;
  onFix: (row: number, field: RowField, value: string) => void;
  onLeave: (rows: number[] | 'problems' | 'duplicates', leftOut: boolean) => void;
}) {
  const [problemsShown, setProblemsShown] = useState(PAGE);
  const [duplicatesShown, setDuplicatesShown] = useState(PAGE);
  const ready = report.ready + (keepDuplicates ? report.duplicates : 0);
  return (
    <div className="preview">
      <div className="tiles" data-testid="preview-summary">
        <div className="tile tile-ready">
          <span className="tile-value" data-testid="ready-count">
            {formatCount(ready)}
          </span>
          <span className="tile-label">ready to import</span>
          <span className="tile-detail">
            {(['green', 'yellow', 'red'] as const).map((status) => (
              <span key={status} className={`dot-count health-${status}`}>
                <span className="health-dot" aria-hidden="true" />
                {formatCount(report.health[status])} {HEALTH_LABELS[status].toLowerCase()}
              </span>
            ))}
          </span>
        </div>
        <div className={`tile ${report.problemCount > 0 ? 'tile-bad' : ''}`}>
          <span className="tile-value" data-testid="problem-count">
            {formatCount(report.problemCount)}
          </span>
          <span className="tile-label">{report.problemCount === 1 ? 'row has a problem' : 'rows have problems'}</span>
        </div>
        <div className="tile">
          <span className="tile-value" data-testid="duplicate-count">
            {formatCount(report.duplicates)}
          </span>
          <span className="tile-label">{report.duplicates === 1 ? 'duplicate' : 'duplicates'}</span>
        </div>
        <div className="tile">
          <span className="tile-value">{formatCount(report.leftOut)}</span>
          <span className="tile-label">left out</span>
        </div>
      </div>
      {report.requests > 1 && (
        <p className="notice notice-info">
          This file is too big for one request: it will be sent in <strong>{report.requests} requests</strong> (a
          request holds at most {formatCount(report.limits.rows)} rows and {formatBytes(report.limits.bytes)}).
          Duplicates across requests are skipped when they arrive.
        </p>
      )}

      {report.problems.length > 0 && (
        <section aria-labelledby="problems-title" className="preview-section">
          <header className="section-header">
            <h3 id="problems-title">Rows with problems</h3>
            {report.problemCount > 0 && (
              <button type="button" className="button" onClick={() => onLeave('problems', true)}>
                {report.problemCount === 1
                  ? 'Leave out the row with a problem'
                  : `Leave out all ${formatCount(report.problemCount)} rows with problems`}
              </button>
            )}
          </header>
          <p className="muted small">Fix a value and press Enter (or move on): the row is checked again at once.</p>
          <ul className="problems">
            {report.problems.slice(0, problemsShown).map((problem) => (
              <ProblemCard
                key={`${problem.row}:${problem.values.name}`}
                problem={problem}
                busy={busy}
                onFix={onFix}
                onLeave={onLeave}
              />
            ))}
          </ul>
          <ShowMore total={report.problems.length} shown={problemsShown} onMore={setProblemsShown} />
        </section>
      )}

      {report.duplicateRows.length > 0 && (
        <section aria-labelledby="duplicates-title" className="preview-section">
          <header className="section-header">
            <h3 id="duplicates-title">Duplicates</h3>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={keepDuplicates}
                onChange={(event) => onKeepDuplicates(event.target.checked)}
              />
              Import duplicates anyway
            </label>
          </header>
          <table className="simple-table" data-testid="duplicates">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {report.duplicateRows.slice(0, duplicatesShown).map((duplicate) => (
                <tr key={duplicate.row}>
                  <td>{formatCount(duplicate.line)}</td>
                  <td>{duplicate.name}</td>
                  <td>{[duplicate.address, duplicate.city].filter(Boolean).join(', ')}</td>
                  <td>{duplicateReason(duplicate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ShowMore total={report.duplicateRows.length} shown={duplicatesShown} onMore={setDuplicatesShown} />
        </section>
      )}

      {report.samples.length > 0 && (
        <section aria-labelledby="samples-title" className="preview-section">
          <h3 id="samples-title">First rows, as they will be saved</h3>
          <table className="simple-table" data-testid="samples">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">City</th>
                <th scope="col">State</th>
                <th scope="col">Postal code</th>
                <th scope="col">Country</th>
                <th scope="col">Health</th>
              </tr>
            </thead>
            <tbody>
              {report.samples.map((sample) => (
                <tr key={sample.line}>
                  <td>{formatCount(sample.line)}</td>
                  <td>{sample.values.name}</td>
                  <td>{sample.values.address}</td>
                  <td>{sample.values.city}</td>
                  <td>{sample.values.state}</td>
                  <td>{sample.values.zip}</td>
                  <td>{sample.values.country}</td>
                  <td>
                    <HealthBadge status={sample.health} score={sample.healthScore} issues={sample.issues} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
