import { describe, expect, it } from 'vitest';
import { hoursChange, weekWords } from '../../renderer/src/hours-words.js';
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

describe('hoursChange: the days a change of hours moves, as a diff shows them', () => {
  it('names only the days that differ, a day left out as "not given"; days not next to each other apart', () => {
    const before = weekHours('Mon-Fri 9-17, Sat 10-14, Sun closed');
    expect(hoursChange(before, weekHours('Mon-Fri 9-17, Sun closed'))).toEqual({
      from: 'Sat 10:00–14:00',
      to: 'Sat not given',
    });
    expect(hoursChange(before, weekHours('Mon 8-17, Tue 9-17, Wed 8-17, Thu-Fri 9-17, Sat 10-14, Sun closed'))).toEqual(
      {
        from: 'Mon 09:00–17:00 · Wed 09:00–17:00',
        to: 'Mon 08:00–17:00 · Wed 08:00–17:00',
      },
    );
    expect(hoursChange(null, weekHours('Mon-Fri 9-17'))).toEqual({ from: '', to: 'Mon–Fri 09:00–17:00' });
    expect(hoursChange(before, null)).toEqual({ from: 'Mon–Fri 09:00–17:00 · Sat 10:00–14:00 · Sun closed', to: '' });
  });
});
