import fs from 'node:fs';
import os from 'node:os';
import { systemActor, type Actor } from '../audit/queries.js';
import type { Config } from '../config.js';
import { headlessKey, type DatabaseKey } from '../db/key.js';
import { openStore, type Store } from '../db/store.js';
import { databaseFileIn } from '../start.js';
import { CliError } from './errors.js';

/**
 * The headless key order (README: "Configuration"). A newly made db.key is reported on standard error,
 * beside a command's output; `serve` reports it on standard output, its stream for people (standard error
 * carries its JSON log lines).
 */
export function keyFor(
  config: Config,
  log: (message: string) => void = (message) => console.error(message),
): DatabaseKey {
  return headlessKey({
    dbKey: config.dbKey,
    keyFile: config.keyFile,
    dataDir: config.dataDir,
    databaseFile: databaseFileIn(config.dataDir),
    log,
  });
}

export function openExistingStore(config: Config): Store {
  const file = databaseFileIn(config.dataDir);
  if (!fs.existsSync(file))
    throw new CliError(`There is no database in ${config.dataDir} yet: run "agency-desk serve" or "init" first`);
  return openStore(file, keyFor(config));
}

/** Runs `work` on the data directory's database and closes it, whatever happens. */
export async function withStore<T>(config: Config, work: (store: Store) => Promise<T> | T): Promise<T> {
  const store = openExistingStore(config);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** The one organization of a database; the CLI acts in it. */
export function theOrganization(store: Store): string {
  const ids = store.db.prepare('SELECT id FROM organizations').pluck().all() as string[];
  if (ids.length !== 1) throw new CliError('Create the organization first: agency-desk init');
  return ids[0]!;
}

/** Who the audit trail names for a change made by the command line: the operating-system account. */
export function cliActor(): Actor {
  let account: string;
  try {
    account = os.userInfo().username;
  } catch {
    // A container's user may have no passwd entry: the trail still says it was the command line.
    account = process.env.USER ?? process.env.USERNAME ?? 'unknown account';
  }
  return systemActor(`the command line (${account})`);
}
