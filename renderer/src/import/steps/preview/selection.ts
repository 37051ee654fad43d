import type { GridFilter, GridRow, RowSelection } from '../../protocol.js';

/** The grid's selection: rows clicked one by one (with the last one clicked, for shift-click), or every row shown. */
export type Selection = { kind: 'rows'; rows: ReadonlySet<number>; anchor: number | null } | { kind: 'shown' };

export const NOTHING: Selection = { kind: 'rows', rows: new Set(), anchor: null };

/**
 * A click on a row's box at `position` of the list; with shift, every row from the last click to it takes
 * the state the clicked box takes (as Gmail's and GitHub's lists do). A walk unticked line 2, shift-clicked
 * the ticked line 6, and got lines 2 to 5 ticked and line 6 alone unticked.
 */
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
    if (selecting) rows.add(target.row);
    else rows.delete(target.row);
  }
  return { kind: 'rows', rows, anchor: position };
}

/** The rows clicked one by one, for the worker to say which of them the grid no longer shows. */
export function clickedList(selection: Selection): number[] {
  return selection.kind === 'rows' ? [...selection.rows] : [];
}

/**
 * The selection once the grid's rows have changed (rows left out, fixed or put back, another filter):
 * without the rows it no longer shows, so no change goes to a row out of sight; "every row shown" of a
 * grid that shows none is no selection.
 */
export function keptInView(selection: Selection, hidden: readonly number[], shown: number): Selection {
  if (selection.kind === 'shown') return shown === 0 ? NOTHING : selection;
  const gone = hidden.filter((row) => selection.rows.has(row));
  if (gone.length === 0) return selection;
  const rows = new Set(selection.rows);
  for (const row of gone) rows.delete(row);
  // The click a shift-click ranges from was a position in the rows as they were.
  return { kind: 'rows', rows, anchor: null };
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

type Counted = { shown: number; selected: number };

/**
 * How many of them "Put back" puts back: the rows left out, but a second table's, which stay out
 * (GridWindow.locked, always left out). A row not left out has nothing to put back: "Put back 1" on a
 * row kept read as a broken button (a walk).
 */
export function putBackCount(selection: Selection, leftOut: Counted, locked: Counted): number {
  // Never below 0: the counts are the last window's, the selection may be newer (a row unticked since).
  return Math.max(0, clickedRows(selection) ? leftOut.selected - locked.selected : leftOut.shown - locked.shown);
}

/** How many of them "Leave out" leaves out: those not left out already. */
export function leaveOutCount(selection: Selection, shown: number, leftOut: Counted): number {
  const rows = clickedRows(selection);
  return Math.max(0, rows ? rows.size - leftOut.selected : shown - leftOut.shown);
}
