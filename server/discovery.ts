import fs from 'node:fs';
import path from 'node:path';
import { processIsAlive } from './backups/running.js';

export { processIsAlive };

/**
 * The runtime file that lets local scripts find the running app, after Jupyter's
 * `jpserver-<pid>.json`: one JSON file per process in `<dataDir>/runtime`, mode 0600, written
 * atomically, removed on clean quit; a file whose process is gone is stale and ignored.
 * One implementation for `agency-desk serve` and the desktop app (main/discovery.ts re-exports it); it
 * never imports electron, so scripts can use `findRunningApp` with plain Node.
 */
export interface RuntimeInfo {
  url: string;
  pid: number;
  /** ISO 8601 UTC. */
  started_at: string;
  /** The Agency Desk version serving (package.json's). */
  version?: string;
}

export const RUNTIME_DIR = 'runtime';

export function runtimeDirIn(dataDir: string): string {
  return path.join(dataDir, RUNTIME_DIR);
}

export function runtimeFileFor(dataDir: string, pid: number): string {
  return path.join(runtimeDirIn(dataDir), `agency-desk-${pid}.json`);
}

/** Writes this process's runtime file and returns the function that removes it. */
export function writeRuntimeFile(
  dataDir: string,
  info: RuntimeInfo,
  isAlive: (pid: number) => boolean = processIsAlive,
): () => void {
  const dir = runtimeDirIn(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeStaleRuntimeFiles(dataDir, isAlive);
  const file = runtimeFileFor(dataDir, info.pid);
  const temporary = `${file}.${process.pid}.tmp`;
  // The mode is set at creation, so the URL is never readable by others even for an instant.
  fs.writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return () => fs.rmSync(file, { force: true });
}

/** The live instances using this data directory, newest first; stale and unreadable files are skipped. */
export function findRunningApps(dataDir: string, isAlive: (pid: number) => boolean = processIsAlive): RuntimeInfo[] {
  return readRuntimeFiles(dataDir)
    .filter(({ info }) => info !== null && isAlive(info.pid))
    .map(({ info }) => info as RuntimeInfo)
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
}

/** The running app's URL for a script, or null when none is running. */
export function findRunningApp(dataDir: string): RuntimeInfo | null {
  return findRunningApps(dataDir)[0] ?? null;
}

function removeStaleRuntimeFiles(dataDir: string, isAlive: (pid: number) => boolean): void {
  for (const { file, info } of readRuntimeFiles(dataDir)) {
    if (info !== null && !isAlive(info.pid)) fs.rmSync(file, { force: true });
  }
}

function readRuntimeFiles(dataDir: string): { file: string; info: RuntimeInfo | null }[] {
  const dir = runtimeDirIn(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^agency-desk-\d+\.json$/.test(name))
    .map((name) => {
      const file = path.join(dir, name);
      return { file, info: parseRuntimeInfo(readOrNull(file)) };
    });
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function parseRuntimeInfo(text: string | null): RuntimeInfo | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<RuntimeInfo>;
    if (typeof value.url !== 'string' || !Number.isInteger(value.pid) || typeof value.started_at !== 'string') {
      return null;
    }
    const info: RuntimeInfo = { url: value.url, pid: value.pid as number, started_at: value.started_at };
    if (typeof value.version === 'string') info.version = value.version;
    return info;
  } catch {
    return null;
  }
}

/** This Agency Desk's version: package.json's, found above this module in sources, dist/ and the asar. */
export function agencyDeskVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(fs.readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === 'agency-desk' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not there: look one level up.
    }
  }
  return 'unknown';
}
