import { findRunningApp } from '../discovery.js';
import type { Command } from './command.js';
import { CliError } from './errors.js';

/** Issue 10 §3: the one documented way for a script to find the running server. */
export const url: Command = {
  name: 'url',
  summary: "print the running server's URL (exit 1 when none runs on the data directory)",
  details:
    'Reads <data dir>/runtime/agency-desk-<pid>.json, written by `agency-desk serve` and the desktop app; ' +
    'files of processes that are gone are ignored. The newest running instance wins.',
  async run({ config }) {
    const { dataDir } = config();
    const running = findRunningApp(dataDir);
    if (running === null) throw new CliError(`No Agency Desk server is running on ${dataDir}`);
    console.log(running.url);
  },
};
