import { describe, expect, it } from 'vitest';
import type { FileSummary, GridWindow, MappingCheck } from '../../renderer/src/import/protocol.js';
import { NOTHING } from '../../renderer/src/import/steps/preview/selection.js';
import { INITIAL, loadedOf, reduce, type ImportState } from '../../renderer/src/import/steps/step.js';

const SHEETS = [
  { name: 'Read me', rowCount: 1 },
  { name: 'Stores', rowCount: 2 },
];

const FILE: FileSummary = {
  name: 'stores.xlsx',
  size: 4_096,
  encoding: 'utf-8',
  delimiter: ',',
  sheet: 'Stores',
  headers: ['Name', 'Postcode'],
  headerLine: 1,
  mapping: ['name', 'zip'],
  samples: [['Fjord Bakery Leeds', 'LS1 6HD']],
  looks: [null, 'zip'],
  rowCount: 2,
  problems: [],
  problemCount: 0,
  lostLetters: { count: 0, lines: [], example: '' },
};
const CHECK: MappingCheck = { rowsWithoutName: 0, firstLinesWithoutName: [] };

function reading(): ImportState {
  return reduce(INITIAL, { type: 'reading', fileName: 'stores.xlsx' });
}

describe('the import steps: a workbook with several sheets', () => {
  it('reading, then the sheets message, asks which sheet; the chosen sheet is read into the mapping step', () => {
    const asked = reduce(reading(), { type: 'sheets', sheets: SHEETS });
    expect(asked.step).toEqual({ kind: 'sheet', fileName: 'stores.xlsx', sheets: SHEETS });
    expect(loadedOf(asked.step)).toBeNull();

    const again = reduce(asked, { type: 'reading', fileName: 'stores.xlsx' });
    expect(again.step.kind).toBe('reading');
    const mapped = reduce(again, { type: 'read', file: FILE, mapping: CHECK });
    expect(mapped.step).toMatchObject({ kind: 'mapping', fileName: 'stores.xlsx', mapping: ['name', 'zip'] });
    expect(loadedOf(mapped.step)?.file.sheet).toBe('Stores');
  });

  it('a sheets message outside reading changes nothing (a late answer after "Choose another file")', () => {
    const reset = reduce(reduce(reading(), { type: 'reset' }), { type: 'sheets', sheets: SHEETS });
    expect(reset.step).toEqual(INITIAL.step);
  });

  it('a whole new mapping from the column step replaces the old one (a swap changes two columns)', () => {
    const mapped = reduce(reading(), { type: 'read', file: FILE, mapping: CHECK });
    const swapped = reduce(mapped, { type: 'remapped', mapping: ['zip', 'name'] });
    expect(loadedOf(swapped.step)?.mapping).toEqual(['zip', 'name']);
  });
});

describe('the import steps: the grid selection follows the rows shown', () => {
  const ticked = reduce(INITIAL, { type: 'select', selection: { kind: 'rows', rows: new Set([4, 7, 9]), anchor: 2 } });
  const window = (id: number, total: number, hidden: number[]): GridWindow => ({
    id,
    start: 0,
    total,
    rows: [],
    fields: ['name'],
    canUndo: false,
    hidden,
    locked: { shown: 0, selected: 0 },
    leftOut: { shown: 0, selected: 0 },
  });

  it('a window after "Leave out" on the problems tile: the rows left out leave the selection', () => {
    const after = reduce(ticked, { type: 'grid', window: window(2, 0, [4, 7, 9]) });
    expect(after.selection).toEqual(NOTHING);
    const some = reduce(ticked, { type: 'grid', window: window(2, 5, [7]) });
    expect(some.selection).toMatchObject({ kind: 'rows', rows: new Set([4, 9]) });
  });

  it('a late window (an older request) changes neither the grid nor the selection', () => {
    const shown = reduce(ticked, { type: 'grid', window: window(5, 3, []) });
    const late = reduce(shown, { type: 'grid', window: window(4, 0, [4, 7, 9]) });
    expect(late.selection).toBe(shown.selection);
    expect(late.grid?.id).toBe(5);
  });

  it('a new file or a new check starts with no row selected', () => {
    expect(reduce(ticked, { type: 'reading', fileName: 'stores.csv' }).selection).toEqual(NOTHING);
    expect(reduce(ticked, { type: 'reset' }).selection).toEqual(NOTHING);
  });
});
