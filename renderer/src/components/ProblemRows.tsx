import { useState } from 'react';
import type { RowField } from '../../../server/locations/schemas.js';
import { FIELDS, ROW_FIELD_LABELS } from '../import/header-mapping.js';
import type { ProblemRow } from '../import/protocol.js';
import { rowValueText } from '../import/upload-rows.js';
import { formatCount } from '../format.js';
import { PAGE, ShowMore } from './ShowMore.js';

type OnFix = (row: number, field: RowField, value: string) => void;

/** One flagged value, editable: Enter or leaving the box checks the row again. */
function FixField({
  problem,
  field,
  flagged,
  busy,
  onFix,
}: {
  problem: ProblemRow;
  field: RowField;
  flagged: boolean;
  busy: boolean;
  onFix: OnFix;
}) {
  const current = rowValueText(problem.values[field]);
  const commit = (value: string) => {
    if (value !== current) onFix(problem.row, field, value);
  };
  return (
    <label className={`field ${flagged ? 'field-flagged' : ''}`}>
      <span>{ROW_FIELD_LABELS[field]}</span>
      <input
        defaultValue={current}
        aria-invalid={flagged || undefined}
        disabled={busy}
        onBlur={(event) => commit(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          commit(event.currentTarget.value);
        }}
      />
    </label>
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
  onFix: OnFix;
  onLeave: (rows: number[], leftOut: boolean) => void;
}) {
  const flagged = new Set(problem.errors.map((error) => error.field).filter((field) => field !== null));
  const shown = FIELDS.filter((field) => flagged.has(field) || field === 'name');
  // The row's other values, so the user knows which location this is.
  const context = FIELDS.filter((field) => !shown.includes(field) && field !== 'id')
    .map((field) => rowValueText(problem.values[field]))
    .filter((value) => value.trim() !== '')
    .join(' · ');
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
            {error.field ? <strong>{ROW_FIELD_LABELS[error.field] ?? error.field}: </strong> : null}
            {error.message}
          </li>
        ))}
      </ul>
      {!problem.leftOut && (
        <div className="problem-fields">
          {shown.map((field) => (
            <FixField
              key={field}
              problem={problem}
              field={field}
              flagged={flagged.has(field)}
              busy={busy}
              onFix={onFix}
            />
          ))}
        </div>
      )}
    </li>
  );
}

/** The rows the server refused, each with its reasons, fixable in place or left out (one or all). */
export function ProblemRows({
  problems,
  total,
  busy,
  onFix,
  onLeave,
}: {
  problems: ProblemRow[];
  total: number;
  busy: boolean;
  onFix: OnFix;
  onLeave: (rows: number[] | 'problems', leftOut: boolean) => void;
}) {
  const [shown, setShown] = useState(PAGE);
  return (
    <section aria-labelledby="problems-title" className="preview-section">
      <header className="section-header">
        <h3 id="problems-title">Rows with problems</h3>
        {total > 0 && (
          <button type="button" className="button" onClick={() => onLeave('problems', true)}>
            {total === 1
              ? 'Leave out the row with a problem'
              : `Leave out all ${formatCount(total)} rows with problems`}
          </button>
        )}
      </header>
      <p className="muted small">Fix a value and press Enter (or move on): the row is checked again at once.</p>
      <ul className="problems">
        {problems.slice(0, shown).map((problem) => (
          <ProblemCard
            key={`${problem.row}:${problem.values.name}`}
            problem={problem}
            busy={busy}
            onFix={onFix}
            onLeave={onLeave}
          />
        ))}
      </ul>
      <ShowMore total={problems.length} shown={shown} onMore={setShown} />
    </section>
  );
}
