#!/usr/bin/env node
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { hashPassword } from './auth/passwords.js';
import { clientById } from './clients/queries.js';
import { ConfigError, isLoopbackHost, loadConfig, type Config } from './config.js';
import { backupDatabase } from './db/backup.js';
import { headlessKey, KeyError } from './db/key.js';
import { DatabaseTooNewError } from './db/migrate.js';
import { WrongKeyError } from './db/open.js';
import { openStore, type Store } from './db/store.js';
import type { Role } from './http/schemas.js';
import { BootstrapError, bootstrapAdmin, checkBootstrapAdmin } from './users/bootstrap.js';
import { CreateUserBody } from './users/schemas.js';
import { bodyErrors, detailsInWords } from './http/validation.js';
import { databaseFileIn, PortInUseError, startServer } from './start.js';
import { anyUserExists, emailTaken, insertUser } from './users/queries.js';

const USAGE = `Usage: agency-desk <command>

  serve                    start the API and dashboard (AGENCY_DESK_* variables, see README)
  init --email E [--org N] create the organization and its first Admin (password from
                           AGENCY_DESK_ADMIN_PASSWORD or the first line of standard input)
  user add --email E --role admin|viewer|client_viewer [--client CLIENT_ID]
                           add a user (password as for init)
  backup FILE              write an encrypted copy of the database to FILE (same key)
  help                     this text`;

class UsageError extends Error {}

/** Errors a person can act on: printed as one message, exit status 1, no stack. */
const EXPECTED = [
  ConfigError,
  KeyError,
  WrongKeyError,
  DatabaseTooNewError,
  PortInUseError,
  BootstrapError,
  UsageError,
];

function keyFor(config: Config) {
  return headlessKey({
    dbKey: config.dbKey,
    keyFile: config.keyFile,
    dataDir: config.dataDir,
    databaseFile: databaseFileIn(config.dataDir),
    log: (message) => console.error(message),
  });
}

function openExistingStore(config: Config): Store {
  const file = databaseFileIn(config.dataDir);
  if (!fs.existsSync(file))
    throw new UsageError(`There is no database in ${config.dataDir} yet: run "agency-desk serve" or "init" first`);
  return openStore(file, keyFor(config));
}

async function readPassword(variable: string): Promise<string> {
  const fromEnv = process.env[variable];
  if (fromEnv !== undefined) return fromEnv;
  if (process.stdin.isTTY) throw new UsageError(`Give the password in ${variable} or on standard input`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function serve(config: Config): Promise<void> {
  if (!isLoopbackHost(config.host)) {
    console.error(
      `WARNING: AGENCY_DESK_HOST=${config.host} is not a loopback address. Agency Desk is made for this machine ` +
        'only; other machines on the network can now reach the sign-in page. Use 127.0.0.1 unless you mean it.',
    );
  }
  if (config.adminHalfGiven) {
    throw new ConfigError('AGENCY_DESK_ADMIN_EMAIL and AGENCY_DESK_ADMIN_PASSWORD go together: set both or neither');
  }
  if (config.admin) checkBootstrapAdmin(config.admin);
  // Signals are taken from the first moment: one that arrives while the database opens still closes it.
  let stopRequested: string | undefined;
  let stop: (signal: string) => void = (signal) => (stopRequested = signal);
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const server = await startServer({
    dataDir: config.dataDir,
    key: keyFor(config),
    host: config.host,
    port: config.port,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    admin: config.admin,
  });
  stop = (signal) => {
    console.error(`${signal}: finishing requests and closing the database...`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  if (stopRequested !== undefined) return stop(stopRequested);
  console.log(`Agency Desk is listening on ${server.url}`);
  if (!anyUserExists(server.store.db)) {
    console.log(`No account yet: open ${server.url} to create your organization and its first Admin.`);
  }
}

async function init(config: Config, email: string, organizationName: string): Promise<void> {
  const admin = { email, organizationName, password: await readPassword('AGENCY_DESK_ADMIN_PASSWORD') };
  checkBootstrapAdmin(admin);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = openStore(databaseFileIn(config.dataDir), keyFor(config));
  try {
    const created = await bootstrapAdmin(store.db, admin);
    if (created === undefined) throw new UsageError('This database already has accounts: use "agency-desk user add"');
    console.log(`Created the organization "${organizationName}" and its Admin ${created.email}`);
  } finally {
    store.close();
  }
}

async function addUser(config: Config, email: string, role: Role, clientId: string | null): Promise<void> {
  const password = await readPassword('AGENCY_DESK_USER_PASSWORD');
  // The same schema as POST /api/users.
  const details = bodyErrors(CreateUserBody, { email, password, role, ...(clientId === null ? {} : { clientId }) });
  if (details.length > 0) throw new UsageError(detailsInWords(details));
  const store = openExistingStore(config);
  try {
    const organizations = store.db.prepare('SELECT id FROM organizations').all() as { id: string }[];
    if (organizations.length !== 1) throw new UsageError('Create the organization first: agency-desk init');
    const organizationId = organizations[0]!.id;
    if ((role === 'client_viewer') !== (clientId !== null)) {
      throw new UsageError('--client is required for client_viewer and refused for the other roles');
    }
    if (clientId !== null && clientById(store.db, organizationId, clientId) === undefined) {
      throw new UsageError(`No client with id ${clientId}`);
    }
    if (emailTaken(store.db, email)) throw new UsageError(`A user with the e-mail ${email} already exists`);
    const user = insertUser(
      store.db,
      { organizationId, email, passwordHash: await hashPassword(password), role, clientId },
      Date.now(),
    );
    console.log(`Added ${user.email} as ${role}`);
  } finally {
    store.close();
  }
}

function backup(config: Config, file: string): void {
  const store = openExistingStore(config);
  try {
    backupDatabase(store.db, file);
    console.log(`Wrote an encrypted copy of the database to ${file}; it opens with the same key.`);
  } finally {
    store.close();
  }
}

const ROLES: readonly string[] = ['admin', 'viewer', 'client_viewer'];

export async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      client: { type: 'string' },
    },
  });
  const [command, sub, argument] = positionals;
  if (command === undefined || command === 'help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'init') {
    if (!values.email) throw new UsageError('init needs --email');
    return init(config, values.email, values.org ?? process.env.AGENCY_DESK_ORG_NAME ?? 'My agency');
  }
  if (command === 'user' && sub === 'add') {
    if (!values.email || !values.role || !ROLES.includes(values.role)) {
      throw new UsageError('user add needs --email and --role admin|viewer|client_viewer');
    }
    return addUser(config, values.email, values.role as Role, values.client ?? null);
  }
  if (command === 'backup') {
    const file = sub ?? argument;
    if (!file) throw new UsageError('backup needs a target file: agency-desk backup FILE');
    return backup(config, file);
  }
  throw new UsageError(`Unknown command "${command}"\n\n${USAGE}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    EXPECTED.some((type) => error instanceof type) ||
    (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
  ) {
    console.error(`agency-desk: ${(error as Error).message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
