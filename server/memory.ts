import { createRequire } from 'node:module';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The C allocator's settings for a server whose requests come with bodies of megabytes, on Linux (glibc).
 *
 * Left to its defaults, glibc's malloc kept the server's resident memory 100 to 170 MB above what it
 * used (npm run bench: imports and upserts peaked at 334 to 404 MB, the idle level after hostile bodies
 * crept up by a third):
 * - each thread that allocates gets an arena of its own (up to 8 per core) and freed memory stays in the
 *   arena it came from: the writer thread's arena held an import's garbage for the next one;
 * - the threshold above which a block is mapped on its own (and unmapped when freed) grows with every
 *   big block freed, up to 32 MiB: after one import body, the next ones went to the arenas and stayed.
 *
 * So: at most two arenas for the threads that allocate from then on (the CLI sets this before it loads the
 * rest of itself: tune-allocator.ts), a fixed 128 KiB mmap threshold (glibc's default before it adapts),
 * and the free pages of every arena given back to the system (`malloc_trim`) after the work that made them.
 * Agency Desk calls libc through koffi (a maintained FFI library with prebuilt binaries, no compiler
 * needed): `MALLOC_ARENA_MAX` and friends are environment variables, read only when a process starts,
 * and the desktop app or `npm run serve` cannot set them for themselves. Elsewhere (macOS, Windows,
 * musl) this does nothing: their allocators return memory on their own.
 */
export interface Allocator {
  /** Whether the settings were applied (Linux with glibc and koffi loaded). */
  readonly tuned: boolean;
  /** Gives the free pages of every arena back to the system now. */
  release(): void;
  /**
   * release(), once, a moment after the last call: for work that has just let go of megabytes. And, once
   * nothing is busy (busyWhile), one full collection: what a burst of requests held (their body chunks,
   * their sockets' buffers) is freed only when V8 collects them, and an idle server may never do it.
   */
  releaseSoon(): void;
  /** While `busy()` says so, the collection after a burst waits; returns the call that removes it. */
  busyWhile(busy: () => boolean): () => void;
}

/** glibc's mallopt parameters (malloc.h). */
const M_MMAP_THRESHOLD = -3;
const M_ARENA_MAX = -8;
export const ALLOCATOR_SETTINGS = { arenaMax: 2, mmapThreshold: 128 * 1024 } as const;

/** After the last big piece of work, how long before the free pages are given back (one call per burst). */
const RELEASE_AFTER_MS = 1_000;
/** How long after a burst V8's collections are followed by a release. */
const WATCH_COLLECTIONS_MS = 60_000;
const GC_MAJOR = constants.NODE_PERFORMANCE_GC_MAJOR;
/** How long after the last burst the full collection comes (and again, while something is busy). */
const COLLECT_AFTER_MS = 10_000;

/**
 * V8's full collection, as a function: Node has none without --expose-gc, which the desktop app and
 * `npm run serve` cannot pass; the flag set now exposes `gc` to new contexts (Jest's leak detection does
 * the same). Null when it cannot be had.
 */
function fullCollection(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/**
 * For a thread that has just done big work (an import's 100,000 rows): one full collection once it has
 * been idle for `afterMs`, so that the garbage of that work does not stay committed under what comes
 * next. V8 collects a thread's heap only as the thread allocates, and an idle worker never does: after an
 * import, the planner's and the writer's heaps kept tens of megabytes of its garbage through the bulk
 * edits and undos that followed (npm run bench: undo.bench.ts peaked at 314 MB). A collection of a heap
 * that is mostly garbage costs a few milliseconds, on a thread with nothing else to do. `busy` puts it
 * off again while it says so; `before` runs just before it (the allocator watches what it frees).
 */
export function idleCollector(
  afterMs = 250,
  collect: () => (() => void) | null = fullCollection,
  { busy = () => false, before = () => undefined }: { busy?: () => boolean; before?: () => void } = {},
): { soon(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let gc: (() => void) | null | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // While something is busy, the collection waits again.
      if (busy()) return soon();
      // Asked once: null (no collection to be had) is kept too.
      if (gc === undefined) gc = collect();
      before();
      gc?.();
    }, afterMs);
    timer.unref();
  };
  return { soon, cancel: () => clearTimeout(timer) };
}

export interface Libc {
  mallopt(param: number, value: number): number;
  malloc_trim(pad: number): number;
}

/**
 * glibc's functions, or null elsewhere: macOS and Windows, and a Linux without glibc (musl has no
 * libc.so.6, or not these functions), where loading them throws.
 */
export function loadLibc(): Libc | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const libc = koffi.load('libc.so.6');
    return {
      mallopt: libc.func('int mallopt(int, int)') as Libc['mallopt'],
      malloc_trim: libc.func('int malloc_trim(size_t)') as Libc['malloc_trim'],
    };
  } catch {
    // Not glibc, or no prebuilt koffi for this machine: the allocator keeps its defaults, which work.
    return null;
  }
}

/**
 * An allocator over `libc` (null: none to tune). What a burst of work lets go is freed by V8 when it
 * collects (a request's body chunks, its sockets' buffers), often seconds after the work: so for a
 * minute after releaseSoon(), each major collection on this thread is followed by a release too.
 */
export function allocatorOf(
  libc: Libc | null,
  { collect = fullCollection, collectAfterMs = COLLECT_AFTER_MS } = {} as {
    collect?: () => (() => void) | null;
    collectAfterMs?: number;
  },
): Allocator {
  let timer: NodeJS.Timeout | undefined;
  let watchUntil = 0;
  const busy = new Set<() => boolean>();
  const tuned =
    libc !== null &&
    libc.mallopt(M_ARENA_MAX, ALLOCATOR_SETTINGS.arenaMax) === 1 &&
    libc.mallopt(M_MMAP_THRESHOLD, ALLOCATOR_SETTINGS.mmapThreshold) === 1;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    libc?.malloc_trim(0);
  };
  const releaseLater = () => {
    clearTimeout(timer);
    timer = setTimeout(release, RELEASE_AFTER_MS).unref();
  };
  const collections = new PerformanceObserver((list) => {
    if (Date.now() > watchUntil) return collections.disconnect();
    const major = list
      .getEntries()
      .some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === GC_MAJOR);
    if (major) releaseLater();
  });
  /** For a minute from now, each major collection is followed by a release. */
  const watchCollections = () => {
    if (Date.now() > watchUntil) collections.observe({ entryTypes: ['gc'] });
    watchUntil = Date.now() + WATCH_COLLECTIONS_MS;
  };
  const collector = idleCollector(collectAfterMs, collect, {
    busy: () => [...busy].some((check) => check()),
    // Watched, however long it waited: the buffers the collection frees are given back after it.
    before: watchCollections,
  });
  return {
    tuned,
    release,
    releaseSoon() {
      if (libc === null) return;
      releaseLater();
      collector.soon();
      watchCollections();
    },
    busyWhile(check) {
      busy.add(check);
      return () => busy.delete(check);
    },
  };
}

let allocator: Allocator | undefined;

/** The process's allocator, tuned on first use (settings are process-wide: once is enough). */
export function processAllocator(): Allocator {
  allocator ??= allocatorOf(loadLibc());
  return allocator;
}
