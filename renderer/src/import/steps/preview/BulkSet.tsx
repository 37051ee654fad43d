import { useState, type ReactNode } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { ColumnChoice, useColumnChoice } from './ColumnChoice.js';
import { formatCount, plural } from '../../../format.js';
import type { LeaveTarget, RowSelection } from '../../protocol.js';

/** What the selected rows (or, with none selected, every row shown) can have done in one go. */
export function BulkSet({
  fields,
  count,
  leaveOut,
  putBack,
  target,
  busy,
  onSet,
  onLeave,
  children,
}: {
  fields: RowField[];
  /** How many rows the change goes to. */
  count: number;
  /** How many of them Leave out leaves out: those not left out already. */
  leaveOut: number;
  /** How many of them Put back puts back: the left-out ones, but a second table's, which stay out. */
  putBack: number;
  target: RowSelection;
  busy: boolean;
  onSet: (target: RowSelection, field: RowField, value: string) => void;
  onLeave: (rows: LeaveTarget, leftOut: boolean) => void;
  /** After "Leave out" and "Put back": "Keep … flagged rows". */
  children?: ReactNode;
}) {
  const [field, setField] = useColumnChoice(fields);
  const [value, setValue] = useState('');
  const rows = plural(count, 'row');
  const leaveTarget: LeaveTarget = 'rows' in target ? target.rows : target;
  return (
    <form
      className="bulk-bar"
      aria-label="Change many rows"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim() === '') return;
        onSet(target, field, value);
        // Set once: a value left in the box went to the next tile's rows at the next Enter (a walk).
        setValue('');
      }}
    >
      <ColumnChoice label="Set the column" fields={fields} value={field} onChange={setField} />
      <label className="field-inline">
        <span>to the value</span>
        <input value={value} onChange={(event) => setValue(event.target.value)} />
      </label>
      {/* Enter in a blank box sets nothing: clearing a column on every row is its own button (a walk
          found "Clear on 100 rows" as the bar's first action, one keypress from emptying a column). */}
      <button type="submit" className="button" disabled={busy || count === 0 || value.trim() === ''}>
        Set on {rows}
      </button>
      <button type="button" className="button" disabled={busy || count === 0} onClick={() => onSet(target, field, '')}>
        Clear on {rows}
      </button>
      {(
        [
          ['Leave out', leaveOut],
          ['Put back', putBack],
        ] as const
      ).map(([words, rows]) => (
        <button
          key={words}
          type="button"
          className="button"
          disabled={busy || rows === 0}
          onClick={() => onLeave(leaveTarget, words === 'Leave out')}
        >
          {words} {formatCount(rows)}
        </button>
      ))}
      {children}
    </form>
  );
}
