import { describe, expect, it } from 'vitest';
import { applySaved, columnsOf, type SavedMapping } from '../../renderer/src/import/saved/saved-mappings.js';

const saved = (columns: SavedMapping['columns']): SavedMapping => ({
  id: '00000000-0000-4000-8000-000000000001',
  client_id: null,
  name: 'm',
  header_key: '',
  columns,
  options: {},
  created_at: '2026-05-03T10:00:00.000Z',
  updated_at: '2026-05-03T10:00:00.000Z',
  last_used_at: null,
});

describe('saved mappings in the column step', () => {
  it('gives each column the field saved for its header, by its exact words or its key, in the file order', () => {
    const mapping = saved([
      { header: 'Outlet', field: 'name' },
      { header: 'Kennung', field: 'store_code' },
      { header: 'Town', field: null },
    ]);
    expect(applySaved(['kennung ', 'Town', 'Outlet', 'Other'], mapping)).toEqual(['store_code', null, 'name', null]);
  });

  it('saves every named column with its field, left-out ones as null, and skips unnamed ones', () => {
    expect(columnsOf(['Outlet', '', 'Town', 'Notes'], ['name', 'city', 'city', null])).toEqual([
      { header: 'Outlet', field: 'name' },
      { header: 'Town', field: 'city' },
      { header: 'Notes', field: null },
    ]);
  });
});
