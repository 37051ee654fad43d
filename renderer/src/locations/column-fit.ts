import type { RefObject } from 'react';
import { LOCATION_COLUMNS } from './column-widths.js';
import type { LocationColumn } from './order.js';

/** The width of an element's content laid out on one line, without its box: what a fit measures. */
function contentWidth(element: Element): number {
  const range = document.createRange();
  range.selectNodeContents(element);
  return range.getBoundingClientRect().width;
}

/**
 * The width that shows a column's longest value among the rows drawn, and its header whole: what a
 * double-click on the column's edge gives, as in a spreadsheet. It may widen or narrow the column. Only
 * the rows on screen are measured (the table draws no others): measuring 100,000 names would be one long
 * task. Null when the column has no cell drawn.
 */
export function fitWidth(grid: HTMLElement, column: number): number | null {
  const cells = grid.querySelectorAll(`[role="row"] > :nth-child(${column + 1})`);
  if (cells.length === 0) return null;
  // Each with its own padding: a header's is narrower than a row's (its width handle sits in it).
  const padding = (cell: Element) => {
    const style = getComputedStyle(cell);
    return parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  };
  const rowPadding = padding(cells[cells.length - 1]!);
  let widest = 0;
  for (const cell of cells) {
    // A header's own content is its sort button (label and mark); the resize handle beside it is not.
    const header = cell.getAttribute('role') === 'columnheader';
    const content = header ? (cell.querySelector('button') ?? cell) : cell;
    widest = Math.max(widest, contentWidth(content) + (header ? padding(cell) : rowPadding));
  }
  // One pixel more: a width rounded down would cut the last letter into an ellipsis.
  return Math.ceil(widest) + 1;
}

/** Each column's place in a row (LOCATION_COLUMNS' order). */
const COLUMN_INDEX = Object.fromEntries(LOCATION_COLUMNS.map(({ key }, at) => [key, at])) as Record<
  LocationColumn,
  number
>;

/** Fits a column of the table in `grid` to what it shows (fitWidth), through the table's own resize. */
export function columnFitter(
  grid: RefObject<HTMLElement | null>,
  resize: (column: LocationColumn, width: number | null) => void,
): (column: LocationColumn) => void {
  return (column) => {
    const width = grid.current && fitWidth(grid.current, COLUMN_INDEX[column]);
    if (width !== null) resize(column, width);
  };
}
