import { describe, expect, it } from 'vitest';
import type { FileSummary, MappingCheck } from '../../renderer/src/import/protocol.js';
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
