import path from 'node:path';
import { newBackupFile, BEFORE_RESTORE } from '../backups/folder.js';
import { runningServers } from '../backups/running.js';
import { parseKey, readKeyFile, type DatabaseKey } from '../db/key.js';
import { restoreDatabase, RestoreError } from '../db/restore.js';
import { databaseFileIn } from '../start.js';
import fs from 'node:fs';
import type { Command } from './command.js';
import { countWords } from './count-words.js';
import { CliError, UsageError } from './errors.js';
import { askHidden } from './password.js';
import { cliActor, keyFor } from './store.js';
import { afterRestore } from '../backups/after-restore.js';
import { realPathOf } from './targets.js';

/** The backup's own key, when it is not this installation's: from a file, or typed (or piped) once. */
async function backupKey(options: Record<string, string | boolean | undefined>): Promise<DatabaseKey | undefined> {
  if (options['key-file'] !== undefined && options['ask-key']) {
    throw new UsageError('restore takes --key-file or --ask-key, not both');
  }
  if (typeof options['key-file'] === 'string') {
    const file = options['key-file'];
    return parseKey(readKeyFile(file), file);
  }
  if (!options['ask-key']) return undefined;
  if (process.stdin.isTTY) {
    const [typed] = await askHidden(process.stdin, process.stderr, [
      "The backup's key (passphrase or 64 hex digits): ",
    ]);
    return parseKey(typed!, 'the key typed');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return parseKey(Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '', 'standard input');
}

/**
 * A source that is no backup to restore, said as what it is (a walk): the live database itself (its
 * restore ended every session for nothing), or a backup killed halfway, which was refused as a wrong key.
 */
function refuseSource(source: string, liveFile: string): void {
  if (realPathOf(source) === realPathOf(liveFile)) {
    throw new CliError(`${source} is the live database itself: restore one of its backups (nothing was changed)`);
  }
  if (/\.partial-\d+$/.test(source)) {
    throw new CliError(
      `${source} is an unfinished backup (one stopped halfway leaves such a file): restore a whole one (nothing was changed)`,
    );
  }
}

export const restore: Command = {
  name: 'restore',
  summary: 'replace the database by a backup (the server must be stopped)',
  details:
    "The backup is checked first: it must open with the key and pass SQLite's integrity check, or nothing changes. The current database is then kept in <data dir>/backups/before-restore-<UTC time>.db, and the backup takes its place in one rename. A backup made under another key (another machine, the desktop app) is re-encrypted to this installation's key.",
  args: [{ name: 'FILE', description: 'the backup to restore (it is only read)' }],
  options: {
    'key-file': {
      type: 'string',
      value: 'FILE',
      description: "a file holding the backup's key, when it is not this installation's",
    },
    'ask-key': { type: 'boolean', description: "ask for the backup's key (or read it from standard input)" },
  },
  async run({ args, options, config: readConfig }) {
    const config = readConfig();
    const running = runningServers(config.dataDir);
    if (running.length > 0) {
      throw new CliError(`Agency Desk is running on this data (process ${running.join(', ')}): stop it, then restore`);
    }
    const liveFile = databaseFileIn(config.dataDir);
    refuseSource(args[0]!, liveFile);
    const sourceKey = await backupKey(options);
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      const outcome = { keptAccess: false };
      const result = restoreDatabase({
        liveFile,
        liveKey: keyFor(config),
        source: args[0]!,
        sourceKey,
        keepPreviousAs: newBackupFile(config.dataDir, BEFORE_RESTORE, new Date()),
        adjust: afterRestore(path.basename(args[0]!), Date.now(), { actor: cliActor(), outcome }),
      });
      console.log(
        `Restored ${args[0]} (${countWords(result.counts.clients, 'client')}, ${countWords(result.counts.locations, 'location')}).` +
          (result.previous ? ` The previous database is kept in ${result.previous}.` : '') +
          // Said where it happens (found by a walk: only the README said it), as it happened (a walk: a
          // backup of another installation replaced its accounts under the words that they were kept).
          (outcome.keptAccess
            ? ' Everyone signs in again; passwords, roles and API tokens are as they were before the restore.'
            : " Everyone signs in again with the backup's own accounts: it is another organization's, so the accounts and API tokens of the database it replaced are not kept."),
      );
    } catch (error) {
      if (error instanceof RestoreError) throw new CliError(`${error.message}. Nothing was changed.`);
      throw error;
    }
  },
};
