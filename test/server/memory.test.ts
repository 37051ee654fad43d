import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../server/http/body.js';
import {
  ALLOCATOR_SETTINGS,
  allocatorOf,
  idleCollector,
  loadLibc,
  processAllocator,
  type Libc,
} from '../../server/memory.js';
import { GLIBC } from '../helpers/server-process.js';

const MiB = 1024 * 1024;

/** The real libc where there is one (a no-op elsewhere), its trims counted. */
function countedLibc(): { libc: Libc; trims: () => number } {
  const real = loadLibc();
  let trims = 0;
  const libc: Libc = {
    mallopt: (param, value) => (real ? real.mallopt(param, value) : 1),
    malloc_trim: (pad) => (trims++, real ? real.malloc_trim(pad) : 0),
  };
  return { libc, trims: () => trims };
}

describe('the C allocator (server/memory.ts)', () => {
  it('is tuned on Linux with glibc (through koffi), and left alone elsewhere', () => {
    const allocator = processAllocator();
    expect(allocator.tuned).toBe(process.platform === 'linux' && GLIBC !== undefined);
    expect(ALLOCATOR_SETTINGS).toEqual({ arenaMax: 2, mmapThreshold: 128 * 1024 });
    // malloc_trim through the FFI: a wrong signature or a missing symbol throws here.
    expect(() => allocator.release()).not.toThrow();
  });

  it('is tuned once for the process: every caller gets the same allocator', () => {
    expect(processAllocator()).toBe(processAllocator());
  });

  it('releases a moment after a burst, once for two calls, and again after a major collection that follows it', async () => {
    const { libc, trims } = countedLibc();
    const allocator = allocatorOf(libc);
    const until = async (count: number) => {
      for (let waited = 0; trims() < count && waited < 100; waited++) await sleep(50);
    };
    allocator.releaseSoon();
    allocator.releaseSoon();
    expect(trims()).toBe(0);
    await until(1);
    // Two calls, one release. (Whether more follow depends on V8 collecting by itself meanwhile, which a
    // loaded machine makes it do: that is the next assertion's rule, not a count to hold here.)
    expect(trims()).toBe(1);
    // What the burst let go is freed when V8 collects: a major collection is followed by a release.
    const before = trims();
    v8.setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    await until(before + 1);
    expect(trims()).toBeGreaterThan(before);
  });
});

describe('the full collection after a burst', () => {
  it('comes once nothing is busy, once for a burst, and is followed by a release', async () => {
    const { libc, trims } = countedLibc();
    // V8's own full collection, its calls counted.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let collections = 0;
    const allocator = allocatorOf(libc, { collect: () => () => (collections++, gc()), collectAfterMs: 200 });
    let busy = true;
    const stop = allocator.busyWhile(() => busy);
    allocator.releaseSoon();
    await sleep(700);
    expect(collections).toBe(0);
    busy = false;
    for (let waited = 0; collections === 0 && waited < 40; waited++) await sleep(50);
    expect(collections).toBe(1);
    const trimsBefore = trims();
    for (let waited = 0; trims() === trimsBefore && waited < 60; waited++) await sleep(50);
    expect(trims()).toBeGreaterThan(trimsBefore);
    await sleep(600);
    expect(collections).toBe(1);
    stop();
  });

  it('a check that is removed no longer holds it back', async () => {
    let collections = 0;
    const { libc } = countedLibc();
    const allocator = allocatorOf(libc, { collect: () => () => collections++, collectAfterMs: 100 });
    const stop = allocator.busyWhile(() => true);
    allocator.releaseSoon();
    await sleep(300);
    expect(collections).toBe(0);
    stop();
    for (let waited = 0; collections === 0 && waited < 40; waited++) await sleep(50);
    expect(collections).toBe(1);
  });
});

describe("a thread's collection once it is idle after a long write (idleCollector)", () => {
  it('comes once after the last call, not while calls keep coming, and not after cancel', async () => {
    let collections = 0;
    const collector = idleCollector(100, () => () => collections++);
    for (let call = 0; call < 5; call++) {
      collector.soon();
      await sleep(40);
    }
    expect(collections).toBe(0);
    await sleep(250);
    expect(collections).toBe(1);
    collector.soon();
    collector.cancel();
    await sleep(250);
    expect(collections).toBe(1);
  });

  it("with V8's own collection, frees what the thread has let go", async () => {
    // V8's own collection, in a context of this thread: what the collector calls by default.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let held: unknown[] | null = Array.from({ length: 200_000 }, (_, at) => ({ at, text: `row ${at}` }));
    const before = v8.getHeapStatistics().used_heap_size;
    held = null;
    const collector = idleCollector(50, () => gc);
    collector.soon();
    await sleep(300);
    expect(held).toBeNull();
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(before - 5_000_000);
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
