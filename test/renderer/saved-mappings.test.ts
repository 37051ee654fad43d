import { describe, expect, it } from 'vitest';
import { PLACEHOLDERS } from '../../server/imports/placeholders.js';
import {
  DEFAULT_OPTIONS,
  optionsOf,
  optionsSummary,
  savedOptions,
} from '../../renderer/src/import/columns/column-options.js';
import { formatDate } from '../../renderer/src/format.js';
import {
  applySaved,
  appliedNote,
  columnsOf,
  lastUsedOf,
  mappingName,
  sameMapping,
  type SavedMapping,
} from '../../renderer/src/import/saved/saved-mappings.js';

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

describe("a saved mapping's options", () => {
  const noNa = PLACEHOLDERS.filter((word) => word !== 'NA');

  it('stores only what is not the default, and gives the defaults back for what it lacks', () => {
    expect(savedOptions(DEFAULT_OPTIONS)).toEqual({});
    expect(savedOptions({ separator: ' / ', placeholders: [...PLACEHOLDERS].reverse(), country: null })).toEqual({
      separator: ' / ',
    });
    expect(savedOptions({ separator: ', ', placeholders: noNa, country: null })).toEqual({ placeholders: noNa });
    expect(savedOptions({ ...DEFAULT_OPTIONS, country: 'US' })).toEqual({ country: 'US' });
    expect(optionsOf({})).toEqual(DEFAULT_OPTIONS);
    expect(optionsOf({ separator: ' ', placeholders: ['fehlt'] })).toEqual({
      separator: ' ',
      placeholders: ['fehlt'],
      country: null,
    });
    expect(optionsOf({ country: 'CA' })).toEqual({ ...DEFAULT_OPTIONS, country: 'CA' });
  });

  it('says them in a few words', () => {
    expect(optionsSummary({})).toBe('');
    expect(optionsSummary({ separator: ' / ', placeholders: [...noNa, 'fehlt'] })).toBe(
      'address lines joined with “ / ”; NA kept as a value; fehlt read as empty',
    );
    expect(optionsSummary({ country: 'US' })).toBe('rows without a country in United States');
  });

  it('is saved over only when it changed; the note dates it by its last use or save, whichever is later', () => {
    const columns = [{ header: 'Outlet', field: 'name' as const }];
    const one = { ...saved(columns), options: { separator: ' / ' } };
    expect(sameMapping(one, { columns, options: { separator: ' / ' } })).toBe(true);
    expect(sameMapping(one, { columns, options: { separator: ' / ', country: 'US' } })).toBe(false);
    expect(sameMapping(one, { columns, options: {} })).toBe(false);
    expect(sameMapping(one, { columns: [{ header: 'Outlet', field: null }], options: { separator: ' / ' } })).toBe(
      false,
    );
    expect(lastUsedOf(one)).toBe('2026-05-03T10:00:00.000Z');
    expect(lastUsedOf({ ...one, last_used_at: '2026-06-01T08:00:00.000Z' })).toBe('2026-06-01T08:00:00.000Z');
  });

  it('names the mapping in its note, and its last use only when that is another day than its name says', () => {
    const named = { ...saved([]), name: mappingName('stores.csv', new Date('2026-05-03T10:00:00.000Z')) };
    expect(appliedNote(named)).toBe(`Saved mapping “${named.name}” applied`);
    const later = { ...named, last_used_at: '2026-06-09T08:00:00.000Z' };
    expect(appliedNote(later)).toBe(
      `Saved mapping “${named.name}” applied, last used ${formatDate('2026-06-09T08:00:00.000Z')}`,
    );
  });
});
