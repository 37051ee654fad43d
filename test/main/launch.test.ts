import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  electronArgs,
  findInstalledElectron,
  headlessArgs,
  headlessParagraph,
  locateElectron,
} from '../../main/launch.js';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { tempDir } from '../helpers/app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
function dir(): string {
  const created = tempDir('agency-desk-launch-');
  dirs.push(created);
  return created;
}

/** A stand-in for node_modules/electron: path.txt, and the binary under dist/ when `installed`. */
function electronPackage(installed: boolean): string {
  const packageDir = dir();
  if (installed) {
    fs.writeFileSync(path.join(packageDir, 'path.txt'), 'electron');
    fs.mkdirSync(path.join(packageDir, 'dist'));
    fs.writeFileSync(path.join(packageDir, 'dist', 'electron'), '');
  }
  return packageDir;
}

describe('locating Electron', () => {
  const noFetch = () => {
    throw new Error('must not download');
  };

  it('finds an installed binary without downloading', () => {
    const packageDir = electronPackage(true);
    expect(locateElectron({ packageDir, env: {}, fetch: noFetch })).toEqual({
      found: true,
      binary: path.join(packageDir, 'dist', 'electron'),
    });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const override = dir();
    fs.writeFileSync(path.join(override, 'electron'), '');
    expect(findInstalledElectron(electronPackage(false), { ELECTRON_OVERRIDE_DIST_PATH: override })).toBe(
      path.join(override, 'electron'),
    );
  });

  it('skips the download when ELECTRON_SKIP_BINARY_DOWNLOAD is set', () => {
    const lookup = locateElectron({
      packageDir: electronPackage(false),
      env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      fetch: noFetch,
    });
    expect(lookup).toEqual({ found: false, reason: 'it is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set' });
  });

  it("otherwise runs Electron's installer with a time limit and reports why it failed", () => {
    const timeouts: number[] = [];
    const lookup = locateElectron({
      packageDir: electronPackage(false),
      env: { AGENCY_DESK_ELECTRON_FETCH_TIMEOUT_MS: '5000' },
      fetch: (_packageDir, timeoutMs) => {
        timeouts.push(timeoutMs);
        return 'getaddrinfo ENOTFOUND github.com';
      },
    });
    expect(timeouts).toEqual([5000]);
    expect(lookup).toEqual({
      found: false,
      reason: 'it is not installed and could not be downloaded (getaddrinfo ENOTFOUND github.com)',
    });
  });

  it('uses the binary the installer extracted', () => {
    const packageDir = electronPackage(false);
    const lookup = locateElectron({
      packageDir,
      env: {},
      fetch: () => {
        fs.rmSync(packageDir, { recursive: true });
        fs.renameSync(electronPackage(true), packageDir);
        return null;
      },
    });
    expect(lookup).toEqual({ found: true, binary: path.join(packageDir, 'dist', 'electron') });
  });

  it('reports a missing electron package', () => {
    expect(locateElectron({ packageDir: null, env: {}, fetch: noFetch }).found).toBe(false);
  });
});

describe('npm start without Electron (node dist/main/launch.js)', () => {
  let child: ChildProcess | undefined;

  beforeAll(() => {
    for (const script of ['build:server', 'build:main']) {
      execFileSync('npm', ['run', '--silent', script], { cwd: ROOT, stdio: 'inherit' });
    }
  });
  afterAll(() => {
    // SIGTERM, not SIGKILL: the launcher relays it to the server it started.
    if (child?.exitCode === null) child.kill('SIGTERM');
  });

  it('says so in one paragraph, serves the dashboard headless, and exits cleanly on SIGTERM', async () => {
    const dataDir = dir();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AGENCY_DESK_DATA_DIR: dataDir,
      AGENCY_DESK_PORT: '0',
      AGENCY_DESK_DB_KEY: randomBytes(32).toString('hex'),
      AGENCY_DESK_LOG_LEVEL: 'warn',
      // This machine must not try to download Electron; the binary is absent, so the fallback is real.
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    };
    child = spawn(process.execPath, ['dist/main/launch.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Agency Desk is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match && output.includes('Electron') && output.includes('headless')) resolve(match[1]!);
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      void exited.then((code) => reject(new Error(`launch.js exited with ${code} before serving:\n${output}`)));
    });

    expect(output).toContain(headlessParagraph('it is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set'));
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    expect(fs.existsSync(path.join(dataDir, 'agency-desk.db'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'agency-desk.db-wal'))).toBe(false);
  });
});

describe("the server's Node flags (server/node-flags.ts)", () => {
  it('start the headless server and Electron, whose main process hosts the server', () => {
    // Paths are the built launcher's (dist/main/launch.js); here the module is read from its source.
    const [flag, cli, command, ...rest] = headlessArgs();
    expect([flag, path.basename(cli!), command, rest]).toEqual(['--max-semi-space-size=4', 'cli.js', 'serve', []]);
    expect(cli).toMatch(/dist[\\/]server[\\/]cli\.js$/);
    expect(electronArgs()).toEqual(['--js-flags=--max-semi-space-size=4', path.resolve(cli!, '../../..')]);
  });

  it('are the ones npm run serve and the agency-desk binary start with, source and build alike (built by the block above)', () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.serve).toMatch(new RegExp(`&& node ${flags} dist/server/cli\\.js serve$`));
    const shebang = `#!/usr/bin/env -S node ${flags}`;
    expect(fs.readFileSync(path.join(ROOT, 'server', 'cli.ts'), 'utf8').split('\n')[0]).toBe(shebang);
    expect(fs.readFileSync(path.join(ROOT, 'dist', 'server', 'cli.js'), 'utf8').split('\n')[0]).toBe(shebang);
  });
});
