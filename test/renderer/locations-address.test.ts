import { describe, expect, it } from 'vitest';
import { searchOf, tableAddressOf } from '../../renderer/src/locations/url-state.js';

describe('the client page address', () => {
  it('reads search, health, sort and the open location, "-" sorting descending', () => {
    expect(tableAddressOf('?q=oak+st&health=red&sort=-city&location=abc')).toEqual({
      search: 'oak st',
      health: 'red',
      sort: { key: 'city', direction: 'descending' },
      location: 'abc',
    });
  });

  it('falls back to the defaults for what is missing or unknown', () => {
    expect(tableAddressOf('?health=purple&sort=-password')).toEqual({
      search: '',
      health: 'all',
      sort: { key: 'name', direction: 'ascending' },
      location: null,
    });
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const address = tableAddressOf('');
    expect(searchOf(address)).toBe('');
    const changed = { ...address, search: 'café #2', sort: { key: 'zip', direction: 'descending' } } as const;
    expect(searchOf(changed)).toBe('?q=caf%C3%A9+%232&sort=-zip');
    expect(tableAddressOf(searchOf(changed))).toEqual(changed);
  });
});
