import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../server/http/body.js';
import { ALLOCATOR_SETTINGS, processAllocator } from '../../server/memory.js';

const MiB = 1024 * 1024;

/** Whether this process runs on glibc, as Node's diagnostic report says. */
const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;

describe('the C allocator (server/memory.ts)', () => {
  it('is tuned on Linux with glibc (through koffi), and left alone elsewhere', () => {
    const allocator = processAllocator();
    expect(allocator.tuned).toBe(process.platform === 'linux' && glibc !== undefined);
    expect(ALLOCATOR_SETTINGS).toEqual({ arenaMax: 2, mmapThreshold: 128 * 1024 });
    // malloc_trim through the FFI: a wrong signature or a missing symbol throws here.
    expect(() => allocator.release()).not.toThrow();
  });

  it('is tuned once for the process: every caller gets the same allocator', () => {
    expect(processAllocator()).toBe(processAllocator());
  });
});

describe('the body budget says when a burst of bodies has been let go', () => {
  it('once everything is given back after at least 1 MiB was held at once', () => {
    let drained = 0;
    const budget = new BodyBudget(32 * MiB, () => drained++);
    expect(budget.take(MiB)).toBe(true);
    expect(budget.take(MiB)).toBe(true);
    budget.give(MiB);
    expect(drained).toBe(0);
    budget.give(MiB);
    expect(drained).toBe(1);
    expect(budget.inUse).toBe(0);
    // The next burst counts from zero again.
    budget.take(MiB / 2);
    budget.give(MiB / 2);
    expect(drained).toBe(1);
  });

  it('small bodies one after the other never add up to a burst', () => {
    let drained = 0;
    const budget = new BodyBudget(32 * MiB, () => drained++);
    for (let i = 0; i < 100; i++) {
      budget.take(64 * 1024);
      budget.give(64 * 1024);
    }
    expect(drained).toBe(0);
  });

  it('a body refused for the budget takes nothing and drains nothing', () => {
    let drained = 0;
    const budget = new BodyBudget(2 * MiB, () => drained++);
    expect(budget.take(2 * MiB)).toBe(true);
    expect(budget.take(1)).toBe(false);
    budget.give(2 * MiB);
    expect(drained).toBe(1);
    expect(budget.inUse).toBe(0);
  });
});
