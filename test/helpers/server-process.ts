import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';

/** The repository root, from test/helpers/. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/server/cli.js', import.meta.url));

const LISTENING = /Agency Desk is listening on (http:\/\/\S+)/;
// Only a guard against a hung child; no test asserts on how long anything takes.
const START_GUARD_MS = 60_000;

/** glibc's version where this process (and a server process it starts) runs on glibc, as Node's report says. */
export const GLIBC = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
  .glibcVersionRuntime;

/** Compiles server/ into dist/server (incremental: nearly free when nothing changed). */
export function buildServer(): void {
  execFileSync('npx', ['tsc', '-b', 'server'], { cwd: REPO_ROOT, stdio: 'pipe' });
}

/** 64 hex digits: a raw key for AGENCY_DESK_DB_KEY. */
export function randomHexKey(): string {
  return randomBytes(32).toString('hex');
}

export interface ServerProcessOptions {
  dataDir: string;
  /** AGENCY_DESK_DB_KEY; omitted means none is set. */
  key?: string;
  /** More AGENCY_DESK_* variables; undefined removes one. AGENCY_DESK_PORT defaults to 0 (a free port). */
  env?: Record<string, string | undefined>;
  /** The CLI command and its arguments; ['serve'] by default. */
  args?: string[];
  /** Written to the child's standard input, which is then closed; without it, standard input is /dev/null. */
  input?: string;
  /** More Node flags, after the server's own (a test's `--import` of a probe). */
  nodeFlags?: string[];
}

export interface ServerOutput {
  stdout: string;
  stderr: string;
}

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  process: ChildProcess;
  output(): ServerOutput;
  /** Sends the signal (SIGTERM by default) and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when the process exits by itself. */
  exited: Promise<number | null>;
}

export class ServerExitedError extends Error {
  override name = 'ServerExitedError';
  constructor(
    readonly code: number | null,
    readonly output: ServerOutput,
  ) {
    super(`the server exited with code ${code} before listening\nstdout: ${output.stdout}\nstderr: ${output.stderr}`);
  }
}

export function environment(options: ServerProcessOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the test runner's own AGENCY_DESK_* setup leaks into the child.
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AGENCY_DESK_')) env[name] = value;
  Object.assign(env, {
    AGENCY_DESK_DATA_DIR: options.dataDir,
    AGENCY_DESK_PORT: '0',
    AGENCY_DESK_LOG_LEVEL: 'warn',
    ...(options.key !== undefined ? { AGENCY_DESK_DB_KEY: options.key } : {}),
  });
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

interface Spawned {
  child: ChildProcess;
  output: ServerOutput;
  exited: Promise<number | null>;
}

function spawnCli(options: ServerProcessOptions): Spawned {
  // Started as the `agency-desk` binary and `npm run serve` start it: with the server's Node flags.
  const flags = [...SERVER_NODE_FLAGS, ...(options.nodeFlags ?? [])];
  const child = spawn(process.execPath, [...flags, CLI, ...(options.args ?? ['serve'])], {
    cwd: REPO_ROOT,
    env: environment(options),
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  const output: ServerOutput = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  // 'close', not 'exit': by then every byte the child wrote has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output, exited };
}

/**
 * Starts `node dist/server/cli.js serve` (build it first with buildServer) and resolves once it prints
 * its listening line; rejects with ServerExitedError when it exits before that.
 */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const { child, output, exited } = spawnCli(options);
  return new Promise<ServerProcess>((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start\nstdout: ${output.stdout}\nstderr: ${output.stderr}`));
    }, START_GUARD_MS);
    const onData = () => {
      const match = LISTENING.exec(output.stdout);
      if (match === null) return;
      clearTimeout(guard);
      child.stdout!.off('data', onData);
      resolve({
        url: match[1]!,
        process: child,
        output: () => ({ ...output }),
        exited,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(guard);
      reject(new ServerExitedError(code, { ...output }));
    });
  });
}

/** Runs the CLI to its end (a command, or a `serve` expected to fail) and returns its exit code and output. */
export async function runCli(options: ServerProcessOptions): Promise<ServerOutput & { code: number | null }> {
  const { child, output, exited } = spawnCli(options);
  const guard = setTimeout(() => child.kill('SIGKILL'), START_GUARD_MS);
  const code = await exited;
  clearTimeout(guard);
  return { code, ...output };
}

/** runCli, sent SIGINT after `afterMs`: what Ctrl-C at that moment does. */
export async function runCliInterrupted(
  options: ServerProcessOptions,
  afterMs: number,
): Promise<ServerOutput & { code: number | null }> {
  const { child, output, exited } = spawnCli(options);
  const signal = setTimeout(() => child.kill('SIGINT'), afterMs);
  const guard = setTimeout(() => child.kill('SIGKILL'), START_GUARD_MS);
  const code = await exited;
  clearTimeout(signal);
  clearTimeout(guard);
  return { code, ...output };
}

/** One JSON call to a server process over real HTTP: its status and parsed body. */
export async function callServer<T>(
  baseUrl: string,
  method: string,
  path: string,
  token: string | null,
  body?: string,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
}
