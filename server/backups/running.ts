import fs from 'node:fs';
import path from 'node:path';

/**
 * The processes serving the data directory's database: the discovery files
 * (`<data dir>/runtime/agency-desk-<pid>.json`, README: "Discovery file") whose pid is alive.
 */
export function runningServers(dataDir: string, exceptPid?: number): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dataDir, 'runtime'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const pid = Number(/^agency-desk-(\d+)\.json$/.exec(name)?.[1]);
    return Number.isInteger(pid) && pid !== exceptPid && processIsAlive(pid) ? [pid] : [];
  });
}

/** Signal 0 checks existence without touching the process; EPERM means it exists under another user. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
