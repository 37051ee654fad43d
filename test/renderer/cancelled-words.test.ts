import { describe, expect, it } from 'vitest';
import { cancelledWords } from '../../renderer/src/import/steps/cancelled/CancelledStep.js';

describe('a cancelled import in words (issue 12, "Cancel and leave")', () => {
  it('nothing written: says so', () => {
    expect(cancelledWords({ undone: 0, removed: 0, restored: 0, notUndone: [] })).toBe(
      'Import cancelled: nothing was written.',
    );
  });

  it('requests already written: what their undo removed and put back, never "nothing was written"', () => {
    expect(cancelledWords({ undone: 1, removed: 100_000, restored: 0, notUndone: [] })).toBe(
      'Import cancelled: 100,000 locations already written were removed again. Nothing of this file stays written.',
    );
    expect(cancelledWords({ undone: 2, removed: 1, restored: 3, notUndone: [] })).toBe(
      'Import cancelled: 1 location already written was removed again and 3 locations already updated were put back. Nothing of this file stays written.',
    );
    expect(cancelledWords({ undone: 1, removed: 0, restored: 0, notUndone: [] })).toBe(
      'Import cancelled: 1 request already written was undone. Nothing of this file stays written.',
    );
  });
});
