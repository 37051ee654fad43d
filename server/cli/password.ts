import type { ReadStream } from 'node:tty';
import { CliError, Interrupted } from './errors.js';

/**
 * A new password for the CLI. On a terminal it is asked twice, without echo, and the two must match;
 * scripts give it in the environment variable or as the first line of standard input, as before, so that
 * it never lands in the shell's history.
 */
export async function readNewPassword(variable: string): Promise<string> {
  const fromEnv = process.env[variable];
  if (fromEnv !== undefined) return fromEnv;
  if (process.stdin.isTTY) {
    const [first, second] = await askHidden(process.stdin, process.stderr, ['Password: ', 'Repeat the password: ']);
    if (first !== second) throw new CliError('The two passwords differ: nothing was changed');
    return first!;
  }
  const line = await firstLineOf(process.stdin);
  if (line === undefined) throw new CliError(`No password: give it in ${variable}, on standard input or at a terminal`);
  return line;
}

async function firstLineOf(input: NodeJS.ReadableStream): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : text.split(/\r?\n/)[0];
}

// Cursor keys and other escape sequences a terminal sends: never part of a password.
const ESCAPE_SEQUENCE = new RegExp(String.raw`\x1b(\[[0-9;]*[A-Za-z~]|O.|.)?`, 'g');

/** What a key typed in raw mode does to the line being read. */
function applyKey(line: string, key: string): string {
  if (key === '\u007f' || key === '\b') return Array.from(line).slice(0, -1).join('');
  // Ctrl-U clears the line, as in a terminal's own line editing.
  if (key === '\u0015') return '';
  return key < ' ' ? line : line + key;
}

/**
 * Reads one line per prompt from a terminal in raw mode: nothing is echoed. Several lines typed (or
 * pasted) at once are each taken for the next prompt. Ctrl-C and Ctrl-D stop, with the terminal restored.
 */
export function askHidden(input: ReadStream, output: NodeJS.WritableStream, prompts: string[]): Promise<string[]> {
  const answers: string[] = [];
  let line = '';
  // Echo off before the prompt shows: what is typed as soon as it appears must not be echoed.
  input.setRawMode(true);
  output.write(prompts[0]!);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(answers);
    };
    const onData = (chunk: string) => {
      for (const key of chunk.replace(ESCAPE_SEQUENCE, '')) {
        if (key === '\u0003' || key === '\u0004') return finish(new Interrupted());
        if (key !== '\r' && key !== '\n') {
          line = applyKey(line, key);
          continue;
        }
        answers.push(line);
        line = '';
        if (answers.length === prompts.length) return finish();
        output.write(`\n${prompts[answers.length]!}`);
      }
    };
    input.on('data', onData);
  });
}
