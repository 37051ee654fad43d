import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { UsageError } from './errors.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's name in the help (`--email E`). */
  value?: string;
  description: string;
  required?: boolean;
}

export interface ArgumentSpec {
  name: string;
  description: string;
}

export interface CommandInput {
  options: Record<string, string | boolean | undefined>;
  args: string[];
  /** The AGENCY_DESK_* configuration, read only when a command needs it (help never does). */
  config: () => Config;
}

/** One command of `agency-desk`: what --help says about it and what it does. */
export interface Command {
  /** 'serve', 'user add' */
  name: string;
  summary: string;
  /** More lines for `agency-desk <command> --help`. */
  details?: string;
  options?: Record<string, OptionSpec>;
  /** Required, in order. */
  args?: ArgumentSpec[];
  run(input: CommandInput): Promise<void>;
}

export function synopsis(command: Command): string {
  const options = Object.entries(command.options ?? {}).map(([name, option]) => {
    const text = option.type === 'string' ? `--${name} ${option.value ?? 'VALUE'}` : `--${name}`;
    return option.required ? text : `[${text}]`;
  });
  const args = (command.args ?? []).map((arg) => arg.name);
  return ['agency-desk', command.name, ...args, ...options].join(' ');
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: ${synopsis(command)}`, '', command.summary];
  if (command.details) lines.push('', command.details);
  const entries = [
    ...(command.args ?? []).map((arg) => [arg.name, arg.description] as const),
    ...Object.entries(command.options ?? {}).map(
      ([name, option]) =>
        [option.type === 'string' ? `--${name} ${option.value ?? 'VALUE'}` : `--${name}`, option.description] as const,
    ),
    ['--help', 'this text'] as const,
  ];
  const width = Math.max(...entries.map(([name]) => name.length));
  lines.push('', ...entries.map(([name, description]) => `  ${name.padEnd(width)}  ${description}`));
  return lines.join('\n');
}

export function overallHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: agency-desk <command> [options]',
    '',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    '"agency-desk <command> --help" tells more about a command. Configuration: AGENCY_DESK_* variables (README).',
  ].join('\n');
}

/** The command named by the first one or two words of argv, and the rest of argv. */
export function findCommand(
  commands: readonly Command[],
  argv: readonly string[],
): { command: Command; rest: string[] } | undefined {
  const two = argv.slice(0, 2).join(' ');
  const byTwo = commands.find((command) => command.name === two);
  if (byTwo) return { command: byTwo, rest: argv.slice(2) };
  const byOne = commands.find((command) => command.name === argv[0]);
  return byOne && { command: byOne, rest: argv.slice(1) };
}

/** Parses a command's own arguments strictly: an unknown option, a missing one or a stray word is a UsageError. */
export function parseCommandArgs(command: Command, rest: string[]): Omit<CommandInput, 'config'> | 'help' {
  const specs = command.options ?? {};
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(Object.entries(specs).map(([name, option]) => [name, { type: option.type }])),
      },
    });
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    const problem = unknown ? `unknown option ${unknown[1]}` : (error as Error).message.split('\n')[0];
    throw new UsageError(`${command.name}: ${problem} (agency-desk ${command.name} --help)`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  // parseArgs keeps the last of an option given twice: `--role viewer --role admin` added an Admin (a walk).
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name))
      throw new UsageError(`${command.name}: --${token.name} is given more than once: give it once`);
    seen.add(token.name);
  }
  const expected = command.args ?? [];
  if (parsed.positionals.length > expected.length) {
    throw new UsageError(`${command.name}: unexpected argument "${parsed.positionals[expected.length]}"`);
  }
  const missing = [
    ...expected.slice(parsed.positionals.length).map((arg) => arg.name),
    ...Object.entries(specs)
      .filter(([name, option]) => option.required && values[name] === undefined)
      .map(([name]) => `--${name}`),
  ];
  if (missing.length > 0) throw new UsageError(`${command.name} needs ${missing.join(' and ')}: ${synopsis(command)}`);
  const { help: _help, ...options } = values;
  return { options, args: parsed.positionals };
}
