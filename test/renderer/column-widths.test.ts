import { describe, expect, it } from 'vitest';
import { fittedWidths, LOCATION_COLUMNS, totalWidthOf } from '../../renderer/src/locations/column-widths.js';

const usual = Object.fromEntries(LOCATION_COLUMNS.map(({ key, width }) => [key, width]));

describe('the locations table’s usual column widths, fitted to the window', () => {
  it('at 1280 pixels (a table 1236 wide) the Created date keeps its width and the columns still fit', () => {
    const widths = fittedWidths(1236);
    expect(widths.created_at).toBe(usual.created_at);
    expect(totalWidthOf(widths)).toBeLessThanOrEqual(1236);
    expect(widths.name).toBeLessThan(usual.name!);
  });

  it('are the usual widths where they fit exactly, and grow together in a wide window', () => {
    expect(fittedWidths(totalWidthOf(fittedWidths(0)))).toEqual(usual);
    const wide = fittedWidths(1.5 * totalWidthOf(fittedWidths(0)));
    expect(wide.created_at).toBe(Math.floor(1.5 * usual.created_at!));
    expect(wide.name).toBe(Math.floor(1.5 * usual.name!));
  });

  it('narrow no column below 80% of its usual width in a small window (the table then scrolls)', () => {
    const widths = fittedWidths(900);
    for (const { key, width } of LOCATION_COLUMNS) expect(widths[key]).toBeGreaterThanOrEqual(Math.floor(width * 0.8));
  });
});
