import { readFileSync } from 'node:fs';
import { backup } from './backup.js';
import { clientAdd, clientList } from './clients.js';
import { exportData } from './export.js';
import { commandHelp, findCommand, overallHelp, parseCommandArgs, type Command } from './command.js';
import { CliError, Interrupted, UsageError } from './errors.js';
import { restore } from './restore.js';
import { serve } from './serve.js';
import { url } from './url.js';
import { init, userAdd, userList, userRemove, userResetPassword } from './users.js';
import { ConfigError, loadConfig } from '../config.js';
import { KeyError } from '../db/key.js';
import { DatabaseTooNewError } from '../db/migrate.js';
import { WrongKeyError } from '../db/open.js';
import { HttpError } from '../http/errors.js';
import { PortInUseError } from '../start.js';
import { BootstrapError } from '../users/bootstrap.js';

const COMMANDS: readonly Command[] = [
  serve,
  init,
  userAdd,
  userList,
  userRemove,
  userResetPassword,
  clientAdd,
  clientList,
  backup,
  restore,
  exportData,
  url,
];

/** Errors a person can act on: their message says it all. Anything else is a fault, its stack in debug. */
const EXPECTED = [
  CliError,
  ConfigError,
  KeyError,
  WrongKeyError,
  DatabaseTooNewError,
  PortInUseError,
  BootstrapError,
  HttpError,
];

const HELP = ['help', '--help', '-h'];

/** The commands of a group ("client": client add, client list), none for another word. */
const groupOf = (word: string | undefined) =>
  word === undefined ? [] : COMMANDS.filter((command) => command.name.startsWith(`${word} `));

/** Runs one command line; resolves with the exit status (a running `serve` keeps the process alive). */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    console.error(overallHelp(COMMANDS));
    return 2;
  }
  // The version, as tools are asked it (a walk got "Unknown command").
  if (argv.length === 1 && ['--version', '-v', 'version'].includes(argv[0]!)) {
    console.log(`agency-desk ${versionOf()}`);
    return 0;
  }
  // "agency-desk client --help" is "help client": the group's commands (a walk got "Unknown command").
  if (argv.length === 2 && HELP.includes(argv[1]!) && groupOf(argv[0]).length > 0) return main(['help', argv[0]!]);
  if (HELP.includes(argv[0]!)) {
    const asked = argv.length > 1 ? findCommand(COMMANDS, argv.slice(1)) : undefined;
    const group = groupOf(argv[1]);
    console.log(asked ? commandHelp(asked.command) : overallHelp(group.length > 0 ? group : COMMANDS));
    return 0;
  }
  const found = findCommand(COMMANDS, argv);
  if (found === undefined) {
    const group = groupOf(argv[0]);
    const hint =
      group.length > 0
        ? `its commands are ${group.map((command) => command.name).join(', ')}`
        : 'agency-desk --help lists the commands';
    throw new UsageError(`Unknown command "${argv.slice(0, 2).join(' ')}": ${hint}`);
  }
  const parsed = parseCommandArgs(found.command, found.rest);
  if (parsed === 'help') {
    console.log(commandHelp(found.command));
    return 0;
  }
  // serve stops on its own signals (a graceful close); every other command is stopped between its steps.
  const release = found.command === serve ? () => undefined : stopBetweenSteps();
  try {
    await found.command.run({ ...parsed, config: () => loadConfig() });
  } finally {
    release();
  }
  return 0;
}

/**
 * Ctrl-C (or a kill) during a command: it stops once the step under way is done, not in its middle. The
 * steps that write a file (a backup's VACUUM INTO and rename, an export, a restore's copy and check) are
 * synchronous, so the signal is handled after the file is whole or its temporary removed: killed in the
 * middle, they left 22 to 32 MB temporaries behind for good, 666 MB after eight restores (a walk).
 */
function stopBetweenSteps(): () => void {
  const stop = (signal: NodeJS.Signals) => {
    console.error(
      `agency-desk: stopped (${signal}); a file being written was finished or removed first, never left in part`,
    );
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}

/** The version in the package.json beside the build (dist/server/cli/program.js: three folders up). */
function versionOf(): string {
  try {
    const manifest = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    return (JSON.parse(manifest) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function exitStatusOf(error: unknown): number {
  if (error instanceof UsageError) return 2;
  if (error instanceof Interrupted) return 130;
  return 1;
}

/** One line, never a stack (issue 11 §4), unless AGENCY_DESK_LOG_LEVEL asks for debugging. */
function report(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const expected = [UsageError, Interrupted, ...EXPECTED].some((type) => error instanceof type);
  console.error(`agency-desk: ${message.split('\n')[0]}`);
  if (!expected && ['debug', 'trace'].includes(process.env.AGENCY_DESK_LOG_LEVEL ?? '')) console.error(error);
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    report(error);
    process.exit(exitStatusOf(error));
  },
);
