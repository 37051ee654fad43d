import { glibc } from './glibc.js';

/**
 * The nice value of the threads that do an import's long work (the writer and the planner): above the
 * event loop's 0, so that on a machine with few cores the thread that answers requests runs first when
 * it wakes. Linux's scheduler shares the CPU by weight (nice 0 weighs 1024, nice 5 weighs 335), and a
 * busy thread's weight only counts when two want the same core: alone, an import runs as fast as before.
 */
export const BACKGROUND_NICE = 5;

/** glibc's `setpriority` and `gettid`: enough to set one thread's nice value. */
export interface ThreadPriorityCalls {
  gettid(): number;
  setpriority(which: number, who: number, nice: number): number;
}

/** sys/resource.h: `who` is a process, which on Linux a thread id names too (one thread alone). */
const PRIO_PROCESS = 0;

/**
 * glibc's calls (glibc.ts), or null: macOS and Windows, or a Linux without glibc 2.30's gettid. There the
 * threads keep the priority they start with.
 */
export function loadThreadPriorityCalls(): ThreadPriorityCalls | null {
  const libc = glibc();
  if (libc === null) return null;
  try {
    return {
      gettid: libc.func('int gettid()') as ThreadPriorityCalls['gettid'],
      setpriority: libc.func('int setpriority(int, int, int)') as ThreadPriorityCalls['setpriority'],
    };
  } catch {
    return null;
  }
}

/**
 * Gives the calling thread (a worker thread's own OS thread, not the process) the background nice value.
 * Returns whether it was set. Raising one's own nice value needs no privilege.
 */
export function runInBackground(calls: ThreadPriorityCalls | null = loadThreadPriorityCalls()): boolean {
  if (calls === null) return false;
  return calls.setpriority(PRIO_PROCESS, calls.gettid(), BACKGROUND_NICE) === 0;
}
