import { describe, expect, it } from 'vitest';
import { weekWords } from '../../renderer/src/hours-words.js';
import { weekHours } from '../../server/locations/hours.js';

describe('weekWords: the week as the import preview shows it', () => {
  it('runs days with the same hours together; an unknown day breaks a run and is left out', () => {
    expect(weekWords(weekHours('Mon-Thu 7-19, Fri 7-21, Sat 8-12 & 13-17, Sun closed'))).toBe(
      'Mon–Thu 07:00–19:00 · Fri 07:00–21:00 · Sat 08:00–12:00, 13:00–17:00 · Sun closed',
    );
    expect(weekWords(weekHours('Mon-Tue 9-17, Thu-Fri 9-17'))).toBe('Mon–Tue 09:00–17:00 · Thu–Fri 09:00–17:00');
    expect(weekWords(weekHours('24/7'))).toBe('Mon–Sun 00:00–24:00');
    expect(weekWords({})).toBe('');
  });
});
