import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { plural } from '../../../format.js';
import type { CheckReport, GridFilter, GridRow, GridWindow } from '../../protocol.js';
import { GridHead } from './GridHead.js';
import { GridRowView, ROW_HEIGHT } from './GridRowView.js';
import { isSelected, type Selection } from './selection.js';
import { useVirtualRows, type ShowRows } from './use-grid-window.js';

const NAME_ONLY: RowField[] = ['name'];

/** The mapped fields with the name first: it stays in view beside the line (GridRowView). */
function nameFirst(fields: RowField[]): RowField[] {
  return fields.includes('name') ? ['name', ...fields.filter((field) => field !== 'name')] : fields;
}

/** The height of the rows not drawn, above or below those in view. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="grid-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}

/** A row in view whose values are still on their way from the worker. */
function PendingRow({ position, columns }: { position: number; columns: number }) {
  return (
    <tr style={{ height: ROW_HEIGHT }} aria-rowindex={position + 2} data-testid="grid-pending">
      <td colSpan={columns} className="muted">
        …
      </td>
    </tr>
  );
}

/**
 * A row's tick as one function for the grid's life, calling the latest `onSelect` with the latest
 * window of rows: a new function each time would draw every row again.
 */
function useSelectRow(
  onSelect: (position: number, range: boolean, rowAt: (position: number) => GridRow | undefined) => void,
  rowAt: (position: number) => GridRow | undefined,
): (position: number, range: boolean) => void {
  const latest = useRef({ onSelect, rowAt });
  useLayoutEffect(() => {
    latest.current = { onSelect, rowAt };
  });
  return useCallback(
    (position: number, range: boolean) => latest.current.onSelect(position, range, latest.current.rowAt),
    [],
  );
}

/**
 * Why the grid is empty, and the way back: a tile whose last rows were fixed or left out stays pressed (so
 * that no change goes to rows out of sight), which a walk read as a grid gone blank.
 */
function nothingShown(filter: GridFilter): string {
  if (filter.text.trim() !== '') return 'No row matches the search.';
  if (filter.show !== 'all')
    return 'No row matches. The pressed tile holds none now: click it again to show every row.';
  return 'No row matches.';
}

/**
 * Every row of the file the filter shows, virtualized: only the rows in view are drawn, and only
 * those (and a margin) cross from the worker.
 */
export function ImportGrid({
  grid,
  filter,
  report,
  selection,
  showRows,
  onSelect,
  onSelection,
  onFix,
  onLeave,
}: {
  grid: GridWindow | null;
  filter: GridFilter;
  report: CheckReport;
  selection: Selection;
  showRows: ShowRows;
  onSelect: (position: number, range: boolean, rowAt: (position: number) => GridRow | undefined) => void;
  /** The head's box: every row shown, or none. */
  onSelection: (selection: Selection) => void;
  onFix: (row: number, field: RowField, value: string) => void;
  onLeave: (row: number, leftOut: boolean) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const total = grid?.total ?? 0;
  // The same array while the mapping stays: GridRowView is drawn again only when its props change.
  const fields = useMemo(() => nameFirst(grid?.fields ?? NAME_ONLY), [grid?.fields]);
  const { items, before, after, rowAt } = useVirtualRows({ grid, filter, report, selection, showRows, scroller });
  const selectRow = useSelectRow(onSelect, rowAt);
  const columns = fields.length + 4;
  return (
    // tabIndex -1: where the focus goes when the last problem shown is fixed (GridRowView), not a tab stop.
    <div className="grid-scroller" ref={scroller} data-testid="import-grid" tabIndex={-1}>
      <table className="grid" aria-label="Rows of the file" aria-rowcount={total + 1}>
        <GridHead fields={fields} selection={selection} shown={total} onSelection={onSelection} />
        <tbody>
          <Spacer height={before} columns={columns} />
          {items.map((item) => {
            const row = rowAt(item.index);
            if (!row) return <PendingRow key={`pending-${item.index}`} position={item.index} columns={columns} />;
            return (
              <GridRowView
                key={`${row.row}`}
                row={row}
                position={item.index}
                fields={fields}
                selected={isSelected(selection, row.row)}
                onSelect={selectRow}
                onFix={onFix}
                onLeave={onLeave}
              />
            );
          })}
          <Spacer height={after} columns={columns} />
        </tbody>
      </table>
      {grid && total === 0 && <p className="muted grid-empty">{nothingShown(filter)}</p>}
      <p className="sr-only" aria-live="polite">
        {grid ? `${plural(total, 'row')} shown` : ''}
      </p>
    </div>
  );
}
