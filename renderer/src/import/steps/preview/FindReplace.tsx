import { useEffect, useState, type ReactNode } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { ColumnChoice, useColumnChoice } from './ColumnChoice.js';
import { plural } from '../../../format.js';
import type { CheckReport, RowSelection } from '../../protocol.js';

type OnReplace = (target: RowSelection, field: RowField, find: string, replacement: string, apply: boolean) => void;

/** Find and replace within one column ("England" -> "GB"): the count of rows it changes first, then the change. */
export function FindReplace({
  fields,
  target,
  report,
  count,
  busy,
  onReplace,
  children,
}: {
  fields: RowField[];
  target: RowSelection;
  /** The rows' latest check: counted again after each fix. */
  report: CheckReport;
  count: number | null;
  busy: boolean;
  onReplace: OnReplace;
  /** Said after the bar's own button: the grid's "Undo the last fix". */
  children?: ReactNode;
}) {
  const [field, setField] = useColumnChoice(fields);
  const [find, setFind] = useState('');
  const [replacement, setReplacement] = useState('');
  useEffect(() => {
    if (find === '') return;
    const timer = setTimeout(() => onReplace(target, field, find, replacement, false), 150);
    return () => clearTimeout(timer);
    // The target is a new object each render; the report says when the rows changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field, find, replacement, report, onReplace]);
  const known = find !== '' && count !== null;
  return (
    <form
      className="bulk-bar"
      aria-label="Find and replace"
      onSubmit={(event) => {
        event.preventDefault();
        onReplace(target, field, find, replacement, true);
        // Replaced once: a second click replaced in the replacement ("St" -> "Street" made "Streetreet", a walk).
        setFind('');
        setReplacement('');
      }}
    >
      <ColumnChoice label="In the column" fields={fields} value={field} onChange={setField} />
      <label className="field-inline">
        <span>find</span>
        <input value={find} onChange={(event) => setFind(event.target.value)} />
      </label>
      <label className="field-inline">
        <span>replace with</span>
        <input value={replacement} onChange={(event) => setReplacement(event.target.value)} />
      </label>
      <span role="status" className="muted" data-testid="replace-count">
        {known ? `${plural(count, 'row')} will change` : ''}
      </span>
      <button type="submit" className="button" disabled={busy || !known || count === 0}>
        Replace
      </button>
      {children}
    </form>
  );
}
