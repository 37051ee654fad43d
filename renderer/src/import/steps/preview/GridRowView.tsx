import { memo, useRef } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { ROW_FIELD_LABELS } from '../../header-mapping.js';
import type { GridRow } from '../../protocol.js';
import { problemWith } from './flagged-cells.js';

export const ROW_HEIGHT = 38;

/** Whether the name leads the fields (its column comes before the action and the problems), and the rest. */
export function splitName(fields: RowField[]): { named: boolean; others: RowField[] } {
  const named = fields[0] === 'name';
  return { named, others: named ? fields.slice(1) : fields };
}

const STATUS_LABELS: Record<GridRow['status'], string> = {
  created: 'New',
  updated: 'Update',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
  error: 'Problem',
  'left-out': 'Left out',
  unchecked: 'Checking…',
};

/** A flagged cell: typed over in place, checked again by the server on Enter or when focus leaves. */
function FixCell({ row, field, onFix }: { row: GridRow; field: RowField; onFix: (value: string) => void }) {
  const current = row.values[field] ?? '';
  const message = problemWith(row.errors, field);
  // Enter moves the focus on, and the blur that follows must not send the same fix a second time.
  const sent = useRef(current);
  const commit = (value: string) => {
    if (value === current || value === sent.current) return;
    sent.current = value;
    onFix(value);
  };
  return (
    <input
      className="grid-input"
      defaultValue={current}
      aria-label={`${ROW_FIELD_LABELS[field]}, line ${row.line}`}
      aria-invalid="true"
      data-field={field}
      title={message}
      onBlur={(event) => commit(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        const input = event.currentTarget;
        commit(input.value);
        // On to the next problem, as a sheet moves on: the fixed cell leaves the grid of problems, and
        // the focus must not fall to the page with it.
        nextProblemOrGrid(input)?.focus();
      }}
    />
  );
}

/** The cell to type in after this one (the next flagged cell shown), else the grid itself. */
function nextProblemOrGrid(input: HTMLInputElement): HTMLElement | null {
  const grid = input.closest<HTMLElement>('.grid-scroller');
  const cells = [...(grid?.querySelectorAll<HTMLInputElement>('.grid-input') ?? [])];
  return cells[cells.indexOf(input) + 1] ?? grid;
}

/** A row the junk-row rule flagged: why, and one click to keep it (or leave it out again), unless it cannot be kept. */
function FlagNote({ row, onLeave }: { row: GridRow; onLeave: (row: number, leftOut: boolean) => void }) {
  const leftOut = row.status === 'left-out';
  return (
    <span className="grid-flag" data-testid="junk-flag">
      {row.flag}
      {!row.locked && (
        <>
          {' '}
          <button
            type="button"
            className="button button-quiet grid-keep"
            aria-label={`${leftOut ? 'Keep' : 'Leave out'} line ${row.line}`}
            onClick={() => onLeave(row.row, !leftOut)}
          >
            {leftOut ? 'Keep' : 'Leave out'}
          </button>
        </>
      )}
    </span>
  );
}

/**
 * A value as the file gives it; the hours, once checked, as the server read them (a file's "9-5 M-F"
 * is shown as "Mon–Fri 09:00–17:00"), with the file's own text on hover.
 */
function ValueCell({ row, field }: { row: GridRow; field: RowField }) {
  const given = row.values[field];
  if (field === 'hours' && row.hoursRead !== null) {
    return (
      <span className="grid-read" title={`In the file: ${given ?? ''}`}>
        {row.hoursRead}
      </span>
    );
  }
  return <span title={given}>{given}</span>;
}

/** A field's cell: typed over in place when the server flagged it, else its value. */
function FieldCell({
  row,
  field,
  flagged,
  onFix,
}: {
  row: GridRow;
  field: RowField;
  flagged: boolean;
  onFix: (row: number, field: RowField, value: string) => void;
}) {
  const classes = [field === 'name' ? 'grid-name' : '', flagged ? 'grid-flagged' : ''].filter(Boolean).join(' ');
  return (
    <td className={classes || undefined}>
      {flagged ? (
        <FixCell
          key={row.values[field] ?? ''}
          row={row}
          field={field}
          onFix={(value) => onFix(row.row, field, value)}
        />
      ) : (
        <ValueCell row={row} field={field} />
      )}
    </td>
  );
}

/** Takes the focus to the row's cell of `field`, scrolled into view beside the columns that stay. */
function goToCell(from: HTMLElement, field: RowField): void {
  const input = from.closest('tr')?.querySelector<HTMLInputElement>(`.grid-input[data-field="${field}"]`);
  input?.scrollIntoView({ block: 'nearest', inline: 'center' });
  input?.focus();
}

/**
 * The row's problems; one with a cell to type in is a link to that cell (a walk saw "Phone: …" while the
 * phone's cell was scrolled far right, out of sight).
 */
function Problems({ row, flagged }: { row: GridRow; flagged: ReadonlySet<RowField> }) {
  return row.errors.map((error, index) => {
    const words = (error.field ? `${ROW_FIELD_LABELS[error.field]}: ` : '') + error.message;
    const field = error.field;
    const separator = index > 0 ? '; ' : '';
    if (!field || !flagged.has(field)) return <span key={index}>{separator + words}</span>;
    return (
      <span key={index}>
        {separator}
        <button type="button" className="button-link" onClick={(event) => goToCell(event.currentTarget, field)}>
          {words}
        </button>
      </span>
    );
  });
}

/**
 * One row of the file in the grid: its box, line and name (these three stay in view when the grid
 * scrolls sideways), what the import does with it, its problems, then its other values. Drawn again
 * only when one of these changes: a scroll draws only the rows that come into view.
 */
export const GridRowView = memo(function GridRowView({
  row,
  position,
  fields,
  selected,
  onSelect,
  onFix,
  onLeave,
}: {
  row: GridRow;
  position: number;
  /** The mapped fields, the name first when it is mapped (ImportGrid). */
  fields: RowField[];
  selected: boolean;
  onSelect: (position: number, range: boolean) => void;
  onFix: (row: number, field: RowField, value: string) => void;
  onLeave: (row: number, leftOut: boolean) => void;
}) {
  const flagged = new Set(fields.filter((field) => problemWith(row.errors, field) !== undefined));
  const name = row.values.name?.trim() || 'no name';
  const cell = (field: RowField) => (
    <FieldCell key={field} row={row} field={field} flagged={flagged.has(field)} onFix={onFix} />
  );
  const { named, others } = splitName(fields);
  return (
    <tr
      className={`grid-row grid-${row.status}`}
      data-testid="grid-row"
      data-line={row.line}
      aria-rowindex={position + 2}
      style={{ height: ROW_HEIGHT }}
    >
      <td>
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select line ${row.line}, ${name}`}
          onChange={(event) => onSelect(position, (event.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </td>
      <td className="grid-line">{row.line}</td>
      {named && cell('name')}
      <td className="grid-action">
        <span className={`grid-status grid-status-${row.status}`}>{STATUS_LABELS[row.status]}</span>
      </td>
      <td className="grid-reasons" title={row.errors.map((error) => error.message).join('; ')}>
        {row.flag && <FlagNote row={row} onLeave={onLeave} />}
        <Problems row={row} flagged={flagged} />
      </td>
      {others.map(cell)}
    </tr>
  );
});
