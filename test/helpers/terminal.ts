import { spawn } from 'node:child_process';
import { CLI, environment, REPO_ROOT, type ServerProcessOptions } from './server-process.js';

export interface TerminalRun {
  code: number | null;
  /** Everything the terminal showed (standard output and error together, as a person sees them). */
  screen: string;
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
// Only a guard against a hung child; no test asserts on how long anything takes.
const GUARD_MS = 60_000;

/**
 * Runs the CLI on a real pseudo-terminal (util-linux `script`), as a person at a terminal would: each
 * answer is typed, with Enter, once the screen shows the prompt it answers, and never before, so that
 * the terminal's own echo (were the CLI to leave it on) would show in the screen.
 */
export function runAtTerminal(
  options: ServerProcessOptions & { args: string[] },
  answers: { after: RegExp; type: string }[],
): Promise<TerminalRun> {
  const command = ['exec', quote(process.execPath), quote(CLI), ...options.args.map(quote)].join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    cwd: REPO_ROOT,
    env: environment(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  const pending = [...answers];
  const onOutput = (chunk: string) => {
    screen += chunk;
    const next = pending[0];
    if (next === undefined) return;
    const match = next.after.exec(screen.slice(seen));
    if (match === null) return;
    seen += match.index + match[0].length;
    pending.shift();
    child.stdin.write(`${next.type}\r`);
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, screen });
    }),
  );
}
