import { describe, expect, it } from 'vitest';
import { problemWith } from '../../renderer/src/import/steps/preview/flagged-cells.js';

/** The preview grid's cells a fix can be typed into: those of the fields the server found a problem with. */
describe('problemWith', () => {
  const disagree = { field: 'status' as const, message: 'Status "open" and Closed "Yes" disagree: …' };

  it('flags the cell of the field the problem is about, and no other', () => {
    expect(problemWith([{ field: 'phone', message: 'is too short' }], 'phone')).toBe('is too short');
    expect(problemWith([{ field: 'phone', message: 'is too short' }], 'status')).toBeUndefined();
    expect(problemWith([{ field: null, message: 'a duplicate' }], 'name')).toBeUndefined();
  });

  it("flags Closed with the status's problem (it is read into the status), so either cell can fix it", () => {
    expect(problemWith([disagree], 'status')).toBe(disagree.message);
    expect(problemWith([disagree], 'closed')).toBe(disagree.message);
    expect(problemWith([{ field: 'closed', message: 'must be yes or no' }], 'closed')).toBe('must be yes or no');
    expect(problemWith([{ field: 'closed', message: 'must be yes or no' }], 'status')).toBeUndefined();
  });
});
