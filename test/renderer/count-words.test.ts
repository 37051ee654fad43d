import { describe, expect, it } from 'vitest';
import { everyOne, plural } from '../../renderer/src/format.js';

describe('counted words', () => {
  it('plural: "1 row", "2 rows", "1,204 rows"', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(2, 'row')).toBe('2 rows');
    expect(plural(1204, 'row')).toBe(`${(1204).toLocaleString()} rows`);
  });

  it('everyOne: "the flagged row" for one, "all 2 flagged rows" for more', () => {
    expect(everyOne(1, 'flagged row')).toBe('the flagged row');
    expect(everyOne(2, 'flagged row')).toBe('all 2 flagged rows');
    expect(everyOne(3, 'entry', 'entries')).toBe('all 3 entries');
  });
});
