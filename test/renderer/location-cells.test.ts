import { describe, expect, it } from 'vitest';
import { weekHours } from '../../server/locations/hours.js';
import { cellText } from '../../renderer/src/export/location-cells.js';

describe('cellText: a stored value as the cell the export writes and the diff shows', () => {
  it('writes labels comma-separated, numbers as numbers, nothing for null', () => {
    expect(cellText('labels', ['downtown', 'flagship'])).toBe('downtown, flagship');
    expect(cellText('latitude', -89.6501)).toBe('-89.6501');
    expect(cellText('phone', null)).toBe('');
    expect(cellText('status', 'temporarily_closed')).toBe('temporarily_closed');
  });

  it('writes hours as one line that the server reads back to the same week', () => {
    const hours = {
      mon: [['07:00', '19:00']],
      sat: [
        ['08:00', '12:00'],
        ['13:00', '17:00'],
      ],
      sun: [],
      fri: [['18:00', '02:00']],
    };
    const text = cellText('hours', hours);
    expect(text).toBe('Mon 07:00-19:00; Fri 18:00-02:00; Sat 08:00-12:00,13:00-17:00; Sun closed');
    expect(weekHours(text)).toEqual(hours);
  });
});
