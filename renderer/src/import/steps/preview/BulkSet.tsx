import { useState } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { formatCount, plural } from '../../../format.js';
import { ROW_FIELD_LABELS } from '../../header-mapping.js';
import type { LeaveTarget, RowSelection } from '../../protocol.js';

/** What the selected rows (or, with none selected, every row shown) can have done in one go. */
export function BulkSet({
  fields,
  count,
  target,
  busy,
  onSet,
  onLeave,
}: {
  fields: RowField[];
  /** How many rows the change goes to. */
  count: number;
  target: RowSelection;
  busy: boolean;
  onSet: (target: RowSelection, field: RowField, value: string) => void;
  onLeave: (rows: LeaveTarget, leftOut: boolean) => void;
}) {
  const [field, setField] = useState<RowField>(fields.includes('country') ? 'country' : (fields[0] ?? 'name'));
  const [value, setValue] = useState('');
  const rows = plural(count, 'row');
  const leaveTarget: LeaveTarget = 'rows' in target ? target.rows : target;
  return (
    <form
      className="bulk-bar"
      aria-label="Change many rows"
      onSubmit={(event) => {
        event.preventDefault();
        onSet(target, field, value);
      }}
    >
      <label className="field-inline">
        <span>Set the column</span>
        <select value={field} onChange={(event) => setField(event.target.value as RowField)}>
          {fields.map((option) => (
            <option key={option} value={option}>
              {ROW_FIELD_LABELS[option]}
            </option>
          ))}
        </select>
      </label>
      <label className="field-inline">
        <span>to the value</span>
        <input value={value} onChange={(event) => setValue(event.target.value)} />
      </label>
      <button type="submit" className="button" disabled={busy || count === 0}>
        Set on {rows}
      </button>
      <button
        type="button"
        className="button"
        disabled={busy || count === 0}
        onClick={() => onLeave(leaveTarget, true)}
      >
        Leave out {formatCount(count)}
      </button>
      <button
        type="button"
        className="button"
        disabled={busy || count === 0}
        onClick={() => onLeave(leaveTarget, false)}
      >
        Put back {formatCount(count)}
      </button>
    </form>
  );
}
