import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  lastLine,
  NATIVE_BINDING_ENV,
  prepareDriverForElectron,
  type DriverSetup,
  type Runner,
} from './electron-driver.js';
import { SERVER_NODE_FLAGS } from '../server/node-flags.js';

/**
 * `npm start`, run by plain Node: the desktop app when Electron's binary is there (or can be fetched),
 * otherwise the headless server through the very entry `npm run serve` uses, so the product still runs.
 * It never imports electron: since Electron 45 merely requiring it downloads the binary.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SERVER_CLI = path.join(ROOT, 'dist', 'server', 'cli.js');
// Generous: the binary is about 100 MB; an offline machine usually fails in seconds (DNS).
const DEFAULT_FETCH_TIMEOUT_MS = 180_000;

export type ElectronLookup = { found: true; binary: string } | { found: false; reason: string };

export interface LocateOptions {
  /** The electron npm package's folder, or null when it is not installed. */
  packageDir: string | null;
  env: NodeJS.ProcessEnv;
  /** Runs the package's own installer; returns why it failed, or null on success. */
  fetch: (packageDir: string, timeoutMs: number) => string | null;
}

/** Finds Electron's binary the way the electron package does, without its implicit download. */
export function findInstalledElectron(packageDir: string, env: NodeJS.ProcessEnv): string | null {
  let relative = '';
  try {
    relative = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    // No path.txt: the binary was never extracted.
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return fs.existsSync(binary) ? binary : null;
  }
  if (!relative) return null;
  const binary = path.join(packageDir, 'dist', relative);
  return fs.existsSync(binary) ? binary : null;
}

/**
 * The binary, fetching it first when missing unless ELECTRON_SKIP_BINARY_DOWNLOAD is set (Electron's
 * own switch for offline machines and CI).
 */
export function locateElectron(options: LocateOptions): ElectronLookup {
  if (options.packageDir === null) return { found: false, reason: 'the electron package is not installed' };
  const installed = findInstalledElectron(options.packageDir, options.env);
  if (installed) return { found: true, binary: installed };
  if (options.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return { found: false, reason: 'it is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set' };
  }
  const timeout = Number(options.env.AGENCY_DESK_ELECTRON_FETCH_TIMEOUT_MS) || DEFAULT_FETCH_TIMEOUT_MS;
  const failure = options.fetch(options.packageDir, timeout);
  if (failure !== null) return { found: false, reason: `it is not installed and could not be downloaded (${failure})` };
  const fetched = findInstalledElectron(options.packageDir, options.env);
  return fetched ? { found: true, binary: fetched } : { found: false, reason: 'the download left no binary behind' };
}

function electronPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function fetchWithInstaller(packageDir: string, timeoutMs: number): string | null {
  console.error(`Downloading Electron's binary once (Ctrl+C, or ELECTRON_SKIP_BINARY_DOWNLOAD=1, to skip)...`);
  const result = spawnSync(process.execPath, [path.join(packageDir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    timeout: timeoutMs,
    encoding: 'utf8',
  });
  if (result.error)
    return (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
      ? `no answer within ${timeoutMs / 1000} s`
      : result.error.message;
  if (result.status !== 0) return lastLine(result.stderr) || `the installer exited with status ${result.status}`;
  return null;
}

export function headlessParagraph(reason: string): string {
  return (
    `Agency Desk cannot open its desktop window here: Electron's binary is not available (${reason}). ` +
    'It starts the headless server instead, the same as "npm run serve": open the dashboard URL printed ' +
    'below in your browser. Everything works except what only the desktop shell does (the OS keychain, ' +
    'the native menu); the database key comes from AGENCY_DESK_DB_KEY, AGENCY_DESK_KEY_FILE or db.key in ' +
    'the data folder. To get the desktop app, run "npx install-electron" on a network that reaches ' +
    'github.com (or set ELECTRON_MIRROR), then "npm start" again.'
  );
}

export function nativeModuleParagraph(reason: string): string {
  return (
    `Agency Desk cannot open its desktop window yet: the database driver in node_modules is built for Node, and no copy for Electron could be made (${reason}). ` +
    'It starts the headless server instead: open the dashboard URL printed below in your browser. ' +
    'The copy is made once, into .cache/electron-native, and needs the network (a prebuilt binary from ' +
    'GitHub, else Electron\'s headers and a C++ toolchain): run "npm start" again on a network that reaches ' +
    'github.com and electronjs.org. By hand: "npx electron-rebuild -f -w better-sqlite3-multiple-ciphers", ' +
    'then "npm rebuild better-sqlite3-multiple-ciphers" to go back to Node for the tests and npm run serve. ' +
    'Installers built with "npm run dist" are rebuilt for Electron automatically.'
  );
}

/** The real Runner: output kept for the error message, killed at the time limit. */
export const runChild: Runner = (command, args, options) => {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env,
    timeout: options.timeoutMs,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    // node-gyp is chatty on standard error: past the default 1 MiB, spawnSync would kill it.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    const timedOut = (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
    return {
      status: result.status,
      stderr: result.stderr ?? '',
      error: timedOut ? `no result within ${options.timeoutMs / 1000} s` : result.error.message,
    };
  }
  return { status: result.status, stderr: result.stderr ?? '' };
};

function packageVersion(packageDir: string): string {
  return (JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

function resolveFrom(from: string, request: string): string | null {
  try {
    return createRequire(from).resolve(request);
  } catch {
    return null;
  }
}

/** What prepareDriverForElectron needs, found in this checkout. */
function driverSetup(electronBinary: string, electronPackage: string): DriverSetup {
  const driverDir = path.dirname(
    createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers/package.json'),
  );
  return {
    electronBinary,
    electronVersion: packageVersion(electronPackage),
    arch: process.arch,
    root: ROOT,
    driverDir,
    driverVersion: packageVersion(driverDir),
    cacheRoot: path.join(ROOT, '.cache', 'electron-native'),
    node: process.execPath,
    prebuildInstall: resolveFrom(path.join(driverDir, 'package.json'), 'prebuild-install/bin.js'),
    // npm tells its scripts where its own node-gyp is; node_modules may hold one too.
    nodeGyp: process.env.npm_config_node_gyp || resolveFrom(import.meta.url, 'node-gyp/bin/node-gyp.js'),
    env: process.env,
    say: (line) => console.error(line),
  };
}

/** Runs a child in its own process group, relays SIGINT/SIGTERM once, and exits as it exits. */
function runForwardingSignals(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit', detached: process.platform !== 'win32' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  // Both children quit cleanly on SIGINT/SIGTERM with status 0; death by a signal is a failure.
  child.on('exit', (code) => process.exit(code ?? 1));
  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  return child;
}

/** The headless server's arguments to Node: the flags every start of the server gives (server/node-flags.ts). */
export const headlessArgs = (): string[] => [...SERVER_NODE_FLAGS, SERVER_CLI, 'serve'];

/** Electron's arguments: the app's folder, and the server's Node flags for its main process, which hosts it. */
export const electronArgs = (): string[] => [`--js-flags=${SERVER_NODE_FLAGS.join(' ')}`, ROOT];

export function launch(): void {
  const packageDir = electronPackageDir();
  const lookup = locateElectron({ packageDir, env: process.env, fetch: fetchWithInstaller });
  let fallbackReason: string;
  if (lookup.found) {
    // locateElectron finds a binary only inside a package folder.
    const driver = prepareDriverForElectron(driverSetup(lookup.binary, packageDir as string), runChild);
    if (driver.ok) {
      const env = { ...process.env };
      delete env[NATIVE_BINDING_ENV];
      if (driver.nativeBinding !== undefined) env[NATIVE_BINDING_ENV] = driver.nativeBinding;
      runForwardingSignals(lookup.binary, electronArgs(), env);
      return;
    }
    fallbackReason = nativeModuleParagraph(driver.reason);
  } else {
    fallbackReason = headlessParagraph(lookup.reason);
  }
  console.error(`\n${fallbackReason}\n`);
  runForwardingSignals(process.execPath, headlessArgs());
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) launch();
