import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cachedBuildFile,
  prepareDriverForElectron,
  probeDriver,
  type DriverSetup,
  type RunResult,
  type Runner,
} from '../../main/electron-driver.js';
import { runChild } from '../../main/launch.js';
import { tempDir } from '../helpers/app.js';
import { NODE_DRIVER_BUILD } from '../helpers/native-driver.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
function dir(): string {
  const created = tempDir('agency-desk-driver-test-');
  dirs.push(created);
  return created;
}

/** A stand-in for node_modules/better-sqlite3-multiple-ciphers holding "Node's build". */
function setup(overrides: Partial<DriverSetup> = {}): DriverSetup & { lines: string[] } {
  const driverDir = dir();
  fs.writeFileSync(
    path.join(driverDir, 'package.json'),
    '{"name":"better-sqlite3-multiple-ciphers","version":"12.10.0"}',
  );
  fs.mkdirSync(path.join(driverDir, 'src'));
  fs.writeFileSync(path.join(driverDir, 'src', 'better_sqlite3.cpp'), '// source');
  fs.mkdirSync(path.join(driverDir, 'build', 'Release'), { recursive: true });
  fs.writeFileSync(path.join(driverDir, 'build', 'Release', 'better_sqlite3.node'), 'node build');
  const lines: string[] = [];
  return {
    electronBinary: '/electron/dist/electron',
    electronVersion: '45.4.1',
    arch: 'x64',
    root: '/checkout',
    driverDir,
    driverVersion: '12.10.0',
    cacheRoot: path.join(dir(), 'electron-native'),
    node: '/usr/bin/node',
    prebuildInstall: '/driver/node_modules/prebuild-install/bin.js',
    nodeGyp: '/npm/node_modules/node-gyp/bin/node-gyp.js',
    env: { PATH: '/usr/bin', npm_config_nodedir: '/usr/include/node' },
    say: (line) => lines.push(line),
    lines,
    ...overrides,
  };
}

interface Call {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** What the working folder held when the tool ran. */
  sawPackageJson: boolean;
  sawNodeBuild: boolean;
}

/**
 * A fake Runner: the probe loads only the builds listed in `loads` (by file; 'installed' for
 * node_modules' own), and each build tool either writes an addon into build/Release of its working
 * folder, as the real ones do, or fails with the given message.
 */
function fakeRunner(outcomes: {
  loads: (string | 'installed')[];
  prebuild?: 'writes' | string;
  nodeGyp?: 'writes' | string;
}): Runner & { calls: Call[] } {
  const calls: Call[] = [];
  const fail = (message: string): RunResult => ({
    status: 1,
    stderr: `some output\n${message}\n    at stack (x.js:1:1)`,
  });
  const runner: Runner = (command, args, options) => {
    calls.push({
      command,
      args,
      cwd: options.cwd,
      env: options.env,
      timeoutMs: options.timeoutMs,
      sawPackageJson: fs.existsSync(path.join(options.cwd, 'package.json')),
      sawNodeBuild: fs.existsSync(path.join(options.cwd, 'build', 'Release', 'better_sqlite3.node')),
    });
    if (args[0] === '-e') {
      const binding = /nativeBinding: ("[^"]*")/.exec(args[1]!);
      const which = binding ? (JSON.parse(binding[1]!) as string) : 'installed';
      return outcomes.loads.includes(which)
        ? { status: 0, stderr: '' }
        : fail(
            `Error: The module '${which}' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.`,
          );
    }
    const outcome = args[0]!.includes('prebuild-install') ? outcomes.prebuild : outcomes.nodeGyp;
    if (outcome === undefined) throw new Error(`unexpected run of ${args[0]}`);
    if (outcome !== 'writes') return fail(outcome);
    fs.mkdirSync(path.join(options.cwd, 'build', 'Release'), { recursive: true });
    fs.writeFileSync(path.join(options.cwd, 'build', 'Release', 'better_sqlite3.node'), 'electron build');
    return { status: 0, stderr: '' };
  };
  return Object.assign(runner, { calls });
}

const OFFLINE =
  'prebuild-install warn install request to https://github.com/... failed, reason: getaddrinfo ENOTFOUND github.com';

// node-gyp's own output offline (v12), shortened: the reason is in the "stack" lines, not the last one.
const GYP_OFFLINE = [
  'gyp ERR! configure error',
  'gyp ERR! stack Error: This is most likely not a problem with node-gyp or the package itself and',
  'gyp ERR! stack is related to network connectivity.',
  'gyp ERR! stack at go (node_modules/node-gyp/lib/install.js:244:21)',
  'gyp ERR! cwd /tmp/agency-desk-driver-x',
  'gyp ERR! not ok',
].join('\n');

describe('npm start: a database driver for Electron (main/electron-driver.ts)', () => {
  it('uses node_modules as it is when its driver already loads in Electron (electron-rebuild was run)', () => {
    const run = fakeRunner({ loads: ['installed'] });
    expect(prepareDriverForElectron(setup(), run)).toEqual({ ok: true, nativeBinding: undefined });
    expect(run.calls).toHaveLength(1);
    expect(run.calls[0]).toMatchObject({
      command: '/electron/dist/electron',
      cwd: '/checkout',
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('uses the cached Electron build without building again', () => {
    const s = setup();
    const cached = cachedBuildFile(s);
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, 'electron build');
    const run = fakeRunner({ loads: [cached] });
    expect(prepareDriverForElectron(s, run)).toEqual({ ok: true, nativeBinding: cached });
    expect(run.calls.map((call) => call.args[0])).toEqual(['-e', '-e']);
  });

  it('keeps the build per Electron version, architecture and driver version, outside node_modules', () => {
    const s = setup();
    expect(cachedBuildFile(s)).toBe(path.join(s.cacheRoot, '45.4.1-x64', 'better_sqlite3-12.10.0.node'));
  });

  it("fetches Electron's prebuilt driver with the package's prebuild-install, in a copy of the package", () => {
    const s = setup();
    const cached = cachedBuildFile(s);
    const run = fakeRunner({ loads: [cached], prebuild: 'writes' });
    expect(prepareDriverForElectron(s, run)).toEqual({ ok: true, nativeBinding: cached });
    expect(fs.readFileSync(cached, 'utf8')).toBe('electron build');

    const [, prebuild, probe] = run.calls;
    expect(prebuild).toMatchObject({
      command: '/usr/bin/node',
      args: [
        '/driver/node_modules/prebuild-install/bin.js',
        '--runtime',
        'electron',
        '--target',
        '45.4.1',
        '--arch',
        'x64',
      ],
      sawPackageJson: true,
      // The copy leaves Node's build behind, so nothing can mistake it for Electron's.
      sawNodeBuild: false,
    });
    expect(prebuild!.cwd).not.toBe(s.driverDir);
    expect(fs.existsSync(prebuild!.cwd)).toBe(false);
    expect(probe!.args[1]).toContain(JSON.stringify(cached));
    // node_modules keeps Node's build for npm test and npm run serve.
    expect(fs.readFileSync(path.join(s.driverDir, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe(
      'node build',
    );
    expect(s.lines.join('\n')).toContain('building a copy for Electron 45.4.1 once');
  });

  it("compiles against Electron's headers with node-gyp when no prebuilt driver can be fetched, ignoring npm's nodedir", () => {
    const s = setup();
    const cached = cachedBuildFile(s);
    const run = fakeRunner({ loads: [cached], prebuild: OFFLINE, nodeGyp: 'writes' });
    expect(prepareDriverForElectron(s, run)).toEqual({ ok: true, nativeBinding: cached });
    const gyp = run.calls[2]!;
    expect(gyp.args).toEqual([
      '/npm/node_modules/node-gyp/bin/node-gyp.js',
      'rebuild',
      '--release',
      '--target=45.4.1',
      '--arch=x64',
      '--dist-url=https://electronjs.org/headers',
    ]);
    expect(gyp.env).toEqual({ PATH: '/usr/bin' });
    expect(gyp.timeoutMs).toBeGreaterThan(run.calls[1]!.timeoutMs);
  });

  it('offline: says why each way failed, caches nothing, and leaves no temporary copy', () => {
    const s = setup();
    const run = fakeRunner({
      loads: [],
      prebuild: OFFLINE,
      nodeGyp: GYP_OFFLINE,
    });
    const outcome = prepareDriverForElectron(s, run);
    expect(outcome).toEqual({
      ok: false,
      reason:
        "Error: The module 'installed' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.; " +
        `no Electron build could be made: prebuild-install: ${OFFLINE}; ` +
        'node-gyp: Error: This is most likely not a problem with node-gyp or the package itself and is related to network connectivity.',
    });
    expect(fs.existsSync(cachedBuildFile(s))).toBe(false);
    for (const call of run.calls.slice(1)) expect(fs.existsSync(call.cwd)).toBe(false);
  });

  it('a build that still does not load in Electron is not kept', () => {
    const s = setup();
    const run = fakeRunner({ loads: [], prebuild: 'writes' });
    const outcome = prepareDriverForElectron(s, run);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toContain('the Electron build does not load either');
    expect(fs.existsSync(cachedBuildFile(s))).toBe(false);
  });

  it('a stale cached build is replaced', () => {
    const s = setup();
    const cached = cachedBuildFile(s);
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, 'stale');
    let probes = 0;
    const base = fakeRunner({ loads: [cached], prebuild: 'writes' });
    // The first probe of the cached file fails (stale), the one after the build succeeds.
    const run: Runner = (command, args, options) =>
      args[1]?.includes(JSON.stringify(cached)) && probes++ === 0
        ? { status: 1, stderr: 'Error: wrong ELF class' }
        : base(command, args, options);
    expect(prepareDriverForElectron(s, run)).toEqual({ ok: true, nativeBinding: cached });
    expect(fs.readFileSync(cached, 'utf8')).toBe('electron build');
  });

  it('without prebuild-install or node-gyp it says which is missing', () => {
    const run = fakeRunner({ loads: [] });
    const outcome = prepareDriverForElectron(setup({ prebuildInstall: null, nodeGyp: null }), run);
    expect(!outcome.ok && outcome.reason).toContain('prebuild-install: not found; node-gyp: not found');
  });

  it('every child runs under a time limit', () => {
    const run = fakeRunner({ loads: [], prebuild: OFFLINE, nodeGyp: 'no compiler' });
    prepareDriverForElectron(setup(), run);
    expect(run.calls).toHaveLength(3);
    for (const call of run.calls) expect(call.timeoutMs).toBeGreaterThan(0);
  });
});

describe('the real runner and probe (Node standing in for Electron)', () => {
  const real = (): DriverSetup => ({ ...setup(), electronBinary: process.execPath, root: ROOT, env: process.env });

  it("probes the driver with a nativeBinding path: Node's own build loads, a missing file does not", () => {
    expect(probeDriver(real(), runChild)).toBeNull();
    expect(probeDriver(real(), runChild, NODE_DRIVER_BUILD)).toBeNull();
    const missing = path.join(os.tmpdir(), 'no-such-dir', 'better_sqlite3.node');
    expect(probeDriver(real(), runChild, missing)).toMatch(/Cannot find module/);
  });

  it('stops a child at its time limit and says so', () => {
    const result = runChild(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], {
      cwd: ROOT,
      env: process.env,
      timeoutMs: 300,
    });
    expect(result.error).toBe('no result within 0.3 s');
  });
});
