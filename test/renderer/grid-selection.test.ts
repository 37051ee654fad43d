import { describe, expect, it } from 'vitest';
import type { GridFilter, GridRow } from '../../renderer/src/import/protocol.js';
import { NOTHING, clicked, targetCount, targetOf } from '../../renderer/src/import/steps/preview/selection.js';

const filter: GridFilter = { show: 'error', text: 'paris' };
const rowAt = (position: number): GridRow => ({
  row: position + 2,
  line: position + 2,
  status: 'unchecked',
  values: {},
  errors: [],
  flag: null,
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

  it('with the one clicked row clicked again: back to every row shown', () => {
    const selection = clicked(clicked(NOTHING, 0, false, rowAt), 0, false, rowAt);
    expect(targetOf(selection, filter)).toEqual({ filter });
    expect(targetCount(selection, 40)).toBe(40);
  });
});
