import { ConfigError, isLoopbackHost, type Config } from '../config.js';
import { agencyDeskVersion, writeRuntimeFile } from '../discovery.js';
import { checkBootstrapAdmin } from '../users/bootstrap.js';
import { anyUserExists } from '../users/queries.js';
import { startServer } from '../start.js';
import type { Command } from './command.js';
import { keyFor } from './store.js';

/** Sentences for people go to standard output: standard error holds the server's JSON log lines. */
const say = (message: string) => console.log(message);

function warnIfNotLoopback(config: Config): void {
  if (isLoopbackHost(config.host)) return;
  say(
    `WARNING: AGENCY_DESK_HOST=${config.host} is not a loopback address. Agency Desk is made for this machine ` +
      'only; other machines on the network can now reach the sign-in page. Use 127.0.0.1 unless you mean it.',
  );
}

export const serve: Command = {
  name: 'serve',
  summary: 'start the API and the dashboard',
  details:
    'Configured by the AGENCY_DESK_* variables (README: "Configuration"). SIGINT and SIGTERM let requests in flight finish, then close the database.',
  async run({ config: readConfig }) {
    const config = readConfig();
    warnIfNotLoopback(config);
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
      key: keyFor(config, say),
      host: config.host,
      port: config.port,
      logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
      admin: config.admin,
      backupSchedule: config.backups,
    });
    // Scripts find the server through this file (README: "Finding the server"); a clean stop removes it.
    const removeDiscoveryFile = writeRuntimeFile(config.dataDir, {
      url: server.url,
      pid: process.pid,
      started_at: new Date().toISOString(),
      version: agencyDeskVersion(),
    });
    stop = (signal) => {
      removeDiscoveryFile();
      say(`${signal}: finishing requests and closing the database...`);
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`agency-desk: ${(error as Error).message}`);
          process.exit(1);
        },
      );
    };
    if (stopRequested !== undefined) return stop(stopRequested);
    say(`Agency Desk is listening on ${server.url}`);
    if (!anyUserExists(server.store.db)) {
      say(`No account yet: open ${server.url} to create your organization and its first Admin.`);
    }
  },
};
