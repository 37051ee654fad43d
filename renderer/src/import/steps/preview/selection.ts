import type { GridFilter, GridRow, RowSelection } from '../../protocol.js';

/** The grid's selection: rows clicked one by one (with the last one clicked, for shift-click), or every row shown. */
export type Selection = { kind: 'rows'; rows: ReadonlySet<number>; anchor: number | null } | { kind: 'shown' };

export const NOTHING: Selection = { kind: 'rows', rows: new Set(), anchor: null };

/** A click on a row's box at `position` of the list; with shift, every row from the last click to it. */
export function clicked(
  selection: Selection,
  position: number,
  range: boolean,
  rowAt: (position: number) => GridRow | undefined,
): Selection {
  const rows = new Set(selection.kind === 'rows' ? selection.rows : []);
  const anchor = selection.kind === 'rows' ? selection.anchor : null;
  const row = rowAt(position);
  if (!row) return selection;
  const selecting = !rows.has(row.row);
  const [from, to] =
    range && anchor !== null ? [Math.min(anchor, position), Math.max(anchor, position)] : [position, position];
  for (let at = from; at <= to; at++) {
    const target = rowAt(at);
    if (!target) continue;
    if (selecting || (range && at !== position)) rows.add(target.row);
    else rows.delete(target.row);
  }
  return { kind: 'rows', rows, anchor: position };
}

export function isSelected(selection: Selection, row: number): boolean {
  return selection.kind === 'shown' || selection.rows.has(row);
}

/** Rows clicked one by one; with none, a bulk change goes to every row shown. */
function clickedRows(selection: Selection): ReadonlySet<number> | null {
  return selection.kind === 'rows' && selection.rows.size > 0 ? selection.rows : null;
}

/** The rows a bulk change goes to: the selection, or with none every row the filter shows. */
export function targetOf(selection: Selection, filter: GridFilter): RowSelection {
  const rows = clickedRows(selection);
  return rows ? { rows: [...rows] } : { filter };
}

/** How many rows a bulk change goes to, by the same rule as targetOf. */
export function targetCount(selection: Selection, shown: number): number {
  return clickedRows(selection)?.size ?? shown;
}
