import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The database driver is a NAN addon compiled for one ABI: node_modules holds Node's build (npm test and
 * npm run serve need it). For the desktop app from a checkout, `npm start` keeps an Electron build of
 * its own outside node_modules and hands its path to the main process in this variable.
 */
export const NATIVE_BINDING_ENV = 'AGENCY_DESK_NATIVE_BINDING';

const PROBE_TIMEOUT_MS = 60_000;
// A prebuilt download is a few MB; an offline machine fails in seconds (DNS).
const PREBUILD_TIMEOUT_MS = 180_000;
// Compiling SQLite3 Multiple Ciphers takes a few minutes on a slow laptop, plus Electron's headers.
const COMPILE_TIMEOUT_MS = 900_000;

export interface RunResult {
  /** null when the child did not exit by itself (a signal, a time limit, or it could not start). */
  status: number | null;
  stderr: string;
  /** Why it did not run to the end (could not start, time limit), when that is the case. */
  error?: string;
}

/** Runs a child to its end or its time limit; injected so that tests can play every outcome. */
export type Runner = (
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
) => RunResult;

export interface DriverSetup {
  electronBinary: string;
  electronVersion: string;
  arch: string;
  /** The folder the driver is required from (the checkout's root). */
  root: string;
  /** node_modules/better-sqlite3-multiple-ciphers: copied, never built in place. */
  driverDir: string;
  driverVersion: string;
  /** Where Electron builds are kept, e.g. <root>/.cache/electron-native. */
  cacheRoot: string;
  /** The Node that runs the build tools (process.execPath). */
  node: string;
  /** The package's own prebuild-install (bin.js), or null when it is missing. */
  prebuildInstall: string | null;
  /** node-gyp's bin/node-gyp.js (npm's, or node_modules'), or null when none is found. */
  nodeGyp: string | null;
  env: NodeJS.ProcessEnv;
  /** Progress for the person waiting: one line per slow step. */
  say: (line: string) => void;
}

/** undefined: node_modules' own build already loads in Electron (electron-rebuild was run). */
export type DriverForElectron = { ok: true; nativeBinding: string | undefined } | { ok: false; reason: string };

/** The cached build is per Electron version, architecture and driver version: any of them changes the ABI or the code. */
export function cachedBuildFile(
  setup: Pick<DriverSetup, 'cacheRoot' | 'electronVersion' | 'arch' | 'driverVersion'>,
): string {
  return path.join(
    setup.cacheRoot,
    `${setup.electronVersion}-${setup.arch}`,
    `better_sqlite3-${setup.driverVersion}.node`,
  );
}

/** Opens an in-memory database in Electron's own Node (ELECTRON_RUN_AS_NODE): null when it works, else why not. */
export function probeDriver(setup: DriverSetup, run: Runner, nativeBinding?: string): string | null {
  const options = nativeBinding === undefined ? '' : `, { nativeBinding: ${JSON.stringify(nativeBinding)} }`;
  // The message's first line alone: an uncaught error would end with a stack and Node's version line.
  const script =
    `try { new (require('better-sqlite3-multiple-ciphers'))(':memory:'${options}).close() } ` +
    `catch (error) { console.error(String(error.message).split('\\n')[0]); process.exit(1) }`;
  const result = run(setup.electronBinary, ['-e', script], {
    cwd: setup.root,
    env: { ...setup.env, ELECTRON_RUN_AS_NODE: '1' },
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  return result.status === 0 && result.error === undefined ? null : failureOf(result);
}

/**
 * A driver that loads in Electron: node_modules' own when it already does, else the cached Electron
 * build, made first when missing (a prebuilt binary, else a compile against Electron's headers).
 */
export function prepareDriverForElectron(setup: DriverSetup, run: Runner): DriverForElectron {
  const asInstalled = probeDriver(setup, run);
  if (asInstalled === null) return { ok: true, nativeBinding: undefined };
  const cached = cachedBuildFile(setup);
  if (fs.existsSync(cached) && probeDriver(setup, run, cached) === null) return { ok: true, nativeBinding: cached };
  setup.say(
    `The database driver in node_modules is built for Node; building a copy for Electron ${setup.electronVersion} once, into ${path.relative(setup.root, cached) || cached}...`,
  );
  const buildFailure = buildForElectron(setup, run, cached);
  if (buildFailure !== null)
    return { ok: false, reason: `${asInstalled}; no Electron build could be made: ${buildFailure}` };
  const built = probeDriver(setup, run, cached);
  if (built !== null) {
    fs.rmSync(cached, { force: true });
    return { ok: false, reason: `${asInstalled}; the Electron build does not load either: ${built}` };
  }
  return { ok: true, nativeBinding: cached };
}

/** Builds in a temporary copy of the package, so node_modules keeps Node's build; null on success, else why not. */
function buildForElectron(setup: DriverSetup, run: Runner, target: string): string | null {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-desk-driver-'));
  try {
    fs.cpSync(setup.driverDir, work, {
      recursive: true,
      filter: (source) => !['build', 'node_modules'].includes(path.relative(setup.driverDir, source)),
    });
    const output = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    const attempts: [name: string, script: string | null, args: string[], timeoutMs: number][] = [
      [
        'prebuild-install',
        setup.prebuildInstall,
        ['--runtime', 'electron', '--target', setup.electronVersion, '--arch', setup.arch],
        PREBUILD_TIMEOUT_MS,
      ],
      [
        'node-gyp',
        setup.nodeGyp,
        [
          'rebuild',
          '--release',
          `--target=${setup.electronVersion}`,
          `--arch=${setup.arch}`,
          '--dist-url=https://electronjs.org/headers',
        ],
        COMPILE_TIMEOUT_MS,
      ],
    ];
    const failures: string[] = [];
    for (const [name, script, args, timeoutMs] of attempts) {
      if (script === null) {
        failures.push(`${name}: not found`);
        continue;
      }
      if (name === 'node-gyp')
        setup.say('No prebuilt driver could be fetched; compiling it against Electron’s headers...');
      const result = run(setup.node, [script, ...args], { cwd: work, env: buildEnv(setup.env), timeoutMs });
      if (result.status === 0 && result.error === undefined && fs.existsSync(output)) {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        // Copied beside the target, then renamed: a build cut short never leaves a half-written cache.
        const partial = `${target}.${process.pid}.partial`;
        fs.copyFileSync(output, partial);
        fs.renameSync(partial, target);
        return null;
      }
      failures.push(`${name}: ${result.status === 0 ? 'it left no better_sqlite3.node' : failureOf(result)}`);
    }
    return failures.join('; ');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * npm hands its configuration to scripts as npm_config_*; a nodedir, target or runtime from an .npmrc
 * would make the tools build for Node again, whatever the arguments say.
 */
function buildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const overriding = /^npm_config_(nodedir|target|runtime|arch|target_arch|disturl|dist_url|build_from_source)$/i;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !overriding.test(name)));
}

function failureOf(result: RunResult): string {
  return result.error ?? (gypError(result.stderr) || lastLine(result.stderr) || `exit status ${result.status}`);
}

/** node-gyp ends with "gyp ERR! not ok"; the reason is the message of its "gyp ERR! stack" lines. */
function gypError(text: string): string {
  const stack = text
    .split('\n')
    .filter((line) => line.startsWith('gyp ERR! stack '))
    .map((line) => line.slice('gyp ERR! stack '.length).trim())
    .filter((line) => !line.startsWith('at '));
  return stack.join(' ');
}

/** The last line of an error's output that is not a stack frame: the message a person can act on. */
export function lastLine(text: string | null | undefined): string {
  const lines = (text ?? '')
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // An uncaught error ends with its stack and, since Node 20, a "Node.js v20.x" line.
  const message = lines.filter((line) => !line.startsWith('at ') && !/^Node\.js v\d/.test(line));
  return message.at(-1) ?? lines.at(-1) ?? '';
}
