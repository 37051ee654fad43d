import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findRunningApp,
  findRunningApps,
  processIsAlive,
  runtimeDirIn,
  runtimeFileFor,
  writeRuntimeFile,
} from '../../main/discovery.js';
import { tempDir } from '../helpers/app.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = tempDir('agency-desk-discovery-');
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const info = (pid: number, started = '2026-01-15T09:00:00.000Z') => ({
  url: 'http://127.0.0.1:4870',
  pid,
  started_at: started,
});

describe('the runtime file', () => {
  it('is JSON with url, pid and started_at, readable by its owner only', () => {
    const dir = dataDir();
    writeRuntimeFile(dir, info(process.pid));
    const file = runtimeFileFor(dir, process.pid);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(info(process.pid));
    if (process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(runtimeDirIn(dir)).mode & 0o777).toBe(0o700);
    }
    // Written through a temporary file and a rename: nothing else is left in the folder.
    expect(fs.readdirSync(runtimeDirIn(dir))).toEqual([path.basename(file)]);
  });

  it('is found by a script while the app runs, and gone after a clean quit', () => {
    const dir = dataDir();
    const remove = writeRuntimeFile(dir, info(process.pid));
    expect(findRunningApp(dir)).toEqual(info(process.pid));
    remove();
    expect(fs.existsSync(runtimeFileFor(dir, process.pid))).toBe(false);
    expect(findRunningApp(dir)).toBeNull();
  });

  it('of a process that died is ignored by readers and cleared by the next start', () => {
    const dir = dataDir();
    const dead = deadPid();
    expect(processIsAlive(dead)).toBe(false);
    writeRuntimeFile(dir, info(dead));
    expect(findRunningApps(dir)).toEqual([]);
    writeRuntimeFile(dir, info(process.pid));
    expect(fs.existsSync(runtimeFileFor(dir, dead))).toBe(false);
    expect(findRunningApps(dir)).toEqual([info(process.pid)]);
  });

  it('that is damaged is skipped, not fatal', () => {
    const dir = dataDir();
    writeRuntimeFile(dir, info(process.pid));
    fs.writeFileSync(path.join(runtimeDirIn(dir), 'agency-desk-12345.json'), '{"url": ');
    expect(findRunningApps(dir)).toEqual([info(process.pid)]);
  });

  it('lists live instances newest first', () => {
    const dir = dataDir();
    const alive = () => true;
    writeRuntimeFile(dir, info(101, '2026-01-15T09:00:00.000Z'), alive);
    writeRuntimeFile(dir, info(102, '2026-01-15T10:00:00.000Z'), alive);
    expect(findRunningApps(dir, alive).map((entry) => entry.pid)).toEqual([102, 101]);
  });

  it('is not found where no app ever ran', () => {
    expect(findRunningApp(path.join(dataDir(), 'missing'))).toBeNull();
  });
});
