import os from 'node:os';

/**
 * The nice value of the threads that do an import's long work (the writer and the planner): above the
 * event loop's 0, so that on a machine with few cores the thread that answers requests runs first when
 * it wakes. Linux's scheduler shares the CPU by weight (nice 0 weighs 1024, nice 5 weighs 335), and a
 * busy thread's weight only counts when two want the same core: alone, an import runs as fast as before.
 */
export const BACKGROUND_NICE = 5;

/**
 * Gives the calling thread (a worker thread's own OS thread, not the process) the background nice value,
 * on Linux: `os.setPriority` without a pid is `setpriority(PRIO_PROCESS, 0, ...)`, which Linux applies to
 * the calling thread alone (a nice value is per thread there: setpriority(2), BUGS). On macOS and Windows
 * the same call would lower the whole process, the event loop with it, so nothing is asked there. Raising
 * one's own nice value needs no privilege. Returns whether it was set.
 */
export function runInBackground(
  setPriority: (priority: number) => void = os.setPriority,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform !== 'linux') return false;
  try {
    setPriority(BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}
