import { describe, expect, it } from 'vitest';
import type { GridFilter, GridRow } from '../../renderer/src/import/protocol.js';
import {
  NOTHING,
  clicked,
  keptInView,
  targetCount,
  targetOf,
} from '../../renderer/src/import/steps/preview/selection.js';

const filter: GridFilter = { show: 'error', text: 'paris' };
const rowAt = (position: number): GridRow => ({
  row: position + 2,
  line: position + 2,
  status: 'unchecked',
  values: {},
  errors: [],
  flag: null,
  hoursRead: null,
  locked: false,
});

describe('the grid selection: which rows a bulk change goes to, and how many', () => {
  it('with no row clicked: every row the filter shows', () => {
    expect(targetOf(NOTHING, filter)).toEqual({ filter });
    expect(targetCount(NOTHING, 40)).toBe(40);
  });

  it('with every row shown selected: the filter, and the count shown', () => {
    expect(targetOf({ kind: 'shown' }, filter)).toEqual({ filter });
    expect(targetCount({ kind: 'shown' }, 40)).toBe(40);
  });

  it('with rows clicked, then shift-clicked: those rows only', () => {
    const selection = clicked(clicked(NOTHING, 1, false, rowAt), 3, true, rowAt);
    expect(targetOf(selection, filter)).toEqual({ rows: [3, 4, 5] });
    expect(targetCount(selection, 40)).toBe(3);
  });

  it('a shift-click on a ticked row unticks the whole range; on an unticked one, ticks it (a walk got both)', () => {
    // Lines 2 to 6 ticked by a click and a shift-click, then line 2 unticked.
    const range = clicked(clicked(NOTHING, 0, false, rowAt), 4, true, rowAt);
    expect(targetOf(range, filter)).toEqual({ rows: [2, 3, 4, 5, 6] });
    const unticked = clicked(range, 0, false, rowAt);
    expect(targetOf(unticked, filter)).toEqual({ rows: [3, 4, 5, 6] });
    // Shift-click on line 6, ticked: lines 2 to 6 all unticked, none left ticked.
    expect(targetOf(clicked(unticked, 4, true, rowAt), filter)).toEqual({ filter });
    // Line 6 ticked, then line 2; a shift-click on line 4, unticked: lines 2 to 4 ticked, line 6 kept.
    const two = clicked(clicked(NOTHING, 4, false, rowAt), 0, false, rowAt);
    expect(targetOf(clicked(two, 2, true, rowAt), filter)).toEqual({ rows: [6, 2, 3, 4] });
  });

  it('with the one clicked row clicked again: back to every row shown', () => {
    const selection = clicked(clicked(NOTHING, 0, false, rowAt), 0, false, rowAt);
    expect(targetOf(selection, filter)).toEqual({ filter });
    expect(targetCount(selection, 40)).toBe(40);
  });
});

describe('the grid selection once rows leave the view (left out, fixed, filtered away)', () => {
  const three = clicked(clicked(NOTHING, 0, false, rowAt), 2, true, rowAt);

  it('3 rows ticked in the problems tile, all 3 left out: none selected, a change goes to the 0 rows shown', () => {
    const kept = keptInView(three, [2, 3, 4], 0);
    expect(kept).toEqual(NOTHING);
    expect(targetCount(kept, 0)).toBe(0);
  });

  it('1 of 3 rows fixed out of the tile: the 2 still shown stay selected, the shift-click starts again', () => {
    const kept = keptInView(three, [3], 2);
    expect(targetOf(kept, filter)).toEqual({ rows: [2, 4] });
    expect(kept).toMatchObject({ anchor: null });
  });

  it('rows still shown (left out under "all"): the same selection', () => {
    expect(keptInView(three, [], 40)).toBe(three);
    expect(keptInView(three, [9], 40)).toBe(three);
  });

  it('every row shown selected: kept while rows are shown, none once the grid shows none', () => {
    expect(keptInView({ kind: 'shown' }, [], 3)).toEqual({ kind: 'shown' });
    expect(keptInView({ kind: 'shown' }, [], 0)).toEqual(NOTHING);
  });
});
