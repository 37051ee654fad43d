import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomHexKey, startServerProcess } from '../helpers/server-process.js';

export const ADMIN = { email: 'admin@agency.test', password: 'admin-password-1' };

const CLI = new URL('../../dist/server/cli.js', import.meta.url);
const DASHBOARD = new URL('../../dist/renderer/index.html', import.meta.url);

/** The real server (`node dist/server/cli.js serve`) on a free port over a fresh data directory. */
export interface RunningServer {
  url: string;
  /** Its data folder (the database, the backups). */
  dataDir: string;
  /** An API call as someone, with the Origin the server expects. */
  api<T>(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<T>;
  signIn(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(): Promise<RunningServer> {
  if (!existsSync(CLI) || !existsSync(DASHBOARD)) {
    throw new Error('Build first: npm run build (the tests run the built server and dashboard).');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-desk-e2e-'));
  const server = await startServerProcess({
    dataDir,
    key: randomHexKey(),
    env: { AGENCY_DESK_ADMIN_EMAIL: ADMIN.email, AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password },
  });
  const { url } = server;

  const api = async <T>(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<T> => {
    const response = await fetch(url + path, {
      method,
      headers: {
        Origin: url,
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  return {
    url,
    dataDir,
    api,
    signIn: async (email, password) =>
      (await api<{ access_token: string }>('POST', '/auth/callback', { body: { email, password } })).access_token,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
