/** A command line that does not make sense (unknown command or option, missing argument): exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on, said in one sentence: exit status 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/** Ctrl-C or Ctrl-D at a prompt: exit status 130, as a shell reports SIGINT. */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor() {
    super('Interrupted: nothing was changed');
  }
}
