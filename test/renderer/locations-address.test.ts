import { describe, expect, it } from 'vitest';
import { MAX_SELECTED_IN_ADDRESS, searchOf, tableAddressOf } from '../../renderer/src/locations/url-state.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the client page address', () => {
  it('reads search, health, sort and the open location, "-" sorting descending', () => {
    expect(tableAddressOf('?q=oak+st&health=red&sort=-city&location=abc')).toEqual({
      search: 'oak st',
      health: 'red',
      sort: { key: 'city', direction: 'descending' },
      location: 'abc',
      selected: [],
    });
  });

  it('falls back to the defaults for what is missing or unknown', () => {
    expect(tableAddressOf('?health=purple&sort=-password')).toEqual({
      search: '',
      health: 'all',
      sort: { key: 'name', direction: 'ascending' },
      location: null,
      selected: [],
    });
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const address = tableAddressOf('');
    expect(searchOf(address)).toBe('');
    const changed = { ...address, search: 'café #2', sort: { key: 'zip', direction: 'descending' } } as const;
    expect(searchOf(changed)).toBe('?q=caf%C3%A9+%232&sort=-zip');
    expect(tableAddressOf(searchOf(changed))).toEqual(changed);
  });

  it('keeps the chosen rows as ids joined by dots; anything that is no location id is dropped, and repeats', () => {
    const address = { ...tableAddressOf(''), selected: [id(2), id(1)] };
    expect(searchOf(address)).toBe(`?selected=${id(2)}.${id(1)}`);
    expect(tableAddressOf(searchOf(address))).toEqual(address);
    expect(tableAddressOf(`?selected=${id(3)}.x.${id(3)}..<b>.${id(4).toUpperCase()}`).selected).toEqual([
      id(3),
      id(4).toUpperCase(),
    ]);
  });

  it(`writes no choice of more than ${MAX_SELECTED_IN_ADDRESS} rows (it stays in the page), and reads no more`, () => {
    const many = Array.from({ length: MAX_SELECTED_IN_ADDRESS + 1 }, (_, n) => id(n));
    expect(searchOf({ ...tableAddressOf('?q=oak'), selected: many })).toBe('?q=oak');
    const most = many.slice(0, MAX_SELECTED_IN_ADDRESS);
    expect(tableAddressOf(searchOf({ ...tableAddressOf(''), selected: most })).selected).toEqual(most);
    expect(tableAddressOf(`?selected=${many.join('.')}`).selected).toEqual(most);
  });
});
