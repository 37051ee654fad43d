import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyDeskVersion, runtimeDirIn, runtimeFileFor } from '../../server/discovery.js';
import { tempDir } from '../helpers/app.js';
import {
  buildServer,
  randomHexKey,
  runCli,
  startServerProcess,
  type ServerProcess,
} from '../helpers/server-process.js';

/** Issue 10 §3: `agency-desk serve` writes the discovery file, `agency-desk url` reads it. */
const dataDir = tempDir('agency-desk-serve-discovery-');
const key = randomHexKey();

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

const url = () => runCli({ dataDir, key, args: ['url'] });

beforeAll(() => buildServer());
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the discovery file of `agency-desk serve`', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('no server yet: `agency-desk url` exits 1 and says so', async () => {
    const result = await url();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/No Agency Desk server is running/);
  });

  it('a stale file (its process gone) is ignored by `url` and cleaned by the next start', async () => {
    const stale = deadPid();
    fs.mkdirSync(runtimeDirIn(dataDir), { recursive: true });
    const staleFile = runtimeFileFor(dataDir, stale);
    fs.writeFileSync(
      staleFile,
      JSON.stringify({ url: 'http://127.0.0.1:1', pid: stale, started_at: '2026-01-01T00:00:00.000Z' }),
    );
    expect((await url()).code).toBe(1);
    server = await startServerProcess({ dataDir, key });
    expect(fs.existsSync(staleFile)).toBe(false);
  });

  it('while serving: <data dir>/runtime/agency-desk-<pid>.json, mode 0600, with url, pid, started_at and version', async () => {
    const file = runtimeFileFor(dataDir, server!.process.pid!);
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({
      url: server!.url,
      pid: server!.process.pid,
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      version: agencyDeskVersion(),
    });
    expect(agencyDeskVersion()).toMatch(/^\d+\.\d+\.\d+/);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await fetch(`${String(info.url)}/health`)).status).toBe(200);
  });

  it('`agency-desk url` prints the URL and exits 0', async () => {
    const result = await url();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${server!.url}\n`);
  });

  it('a clean stop (SIGTERM) removes the file; `url` exits 1 again', async () => {
    const file = runtimeFileFor(dataDir, server!.process.pid!);
    expect(await server!.stop()).toBe(0);
    server = undefined;
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(runtimeDirIn(dataDir))).toEqual([]);
    expect((await url()).code).toBe(1);
  });
});
