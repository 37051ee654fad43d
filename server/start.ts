import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { systemActor } from './audit/queries.js';
import { deleteExpiredSessions } from './auth/queries.js';
import { Backups, DEFAULT_SCHEDULE, type BackupSchedule } from './backups/backups.js';
import { isLoopbackHost } from './config.js';
import type { DatabaseKey } from './db/key.js';
import { openStore, type Store } from './db/store.js';
import { bootstrapAdmin, type BootstrapAdmin } from './users/bootstrap.js';

export interface StartOptions {
  dataDir: string;
  key: DatabaseKey;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When the port is taken, listen on a free one instead of failing (the desktop app). */
  fallbackToFreePort?: boolean;
  /** Fastify logger options; false for none. */
  logger?: boolean | { level: string };
  /** The built dashboard, served at `/`; the default is dist/renderer beside the server. */
  dashboardDir?: string | null;
  /** Creates the organization and first Admin when the database has no user yet. */
  admin?: BootstrapAdmin;
  /** The database driver's addon to load instead of node_modules' own (OpenOptions.nativeBinding). */
  nativeBinding?: string | undefined;
  /** Automatic backups in <data dir>/backups on this schedule; null or absent: none. */
  backupSchedule?: BackupSchedule | null;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  app: FastifyInstance;
  store: Store;
  /** The backups in <data dir>/backups (the desktop lists them to restore one). */
  backups: Backups;
  /** Finishes in-flight requests, stops the import worker and closes the database. */
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

export const DATABASE_FILE = 'agency-desk.db';

export function databaseFileIn(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

export function defaultDashboardDir(): string {
  return path.resolve(import.meta.dirname, '../renderer');
}

/** Before the server answers: expired sessions swept, and the first Admin from the environment made. */
async function prepareData(store: Store, admin: BootstrapAdmin | undefined): Promise<void> {
  // Sessions whose refresh token has expired can never be used again: sweep them at each start.
  deleteExpiredSessions(store.db, Date.now());
  if (admin === undefined) return;
  await bootstrapAdmin(store.db, admin, Date.now(), systemActor('the first start (AGENCY_DESK_ADMIN_EMAIL)'));
}

/** The one place that opens the database and listens: `serve`, the CLI and the desktop app all come here. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const store = openStore(databaseFileIn(options.dataDir), options.key, { nativeBinding: options.nativeBinding });
  let app: FastifyInstance | undefined;
  try {
    await prepareData(store, options.admin);
    const dashboardDir = options.dashboardDir === undefined ? defaultDashboardDir() : options.dashboardDir;
    // Failures of automatic backups go to the app's log, which exists once the app is built.
    const backups = new Backups(store, options.backupSchedule ?? DEFAULT_SCHEDULE, {
      error: (details, message) => app?.log.error(details, message),
    });
    app = await buildApp({
      store,
      // Logs are JSON lines on standard error: standard output says only where the server listens.
      logger:
        typeof options.logger === 'object' ? { ...options.logger, stream: process.stderr } : (options.logger ?? false),
      dashboardDir: dashboardDir !== null && fs.existsSync(path.join(dashboardDir, 'index.html')) ? dashboardDir : null,
      extraHosts: isLoopbackHost(host) ? [] : [host],
      warmWriter: true,
      backupSchedule: options.backupSchedule ?? undefined,
      backups,
    });
    const port = await listen(app, host, options.port ?? 4870, options.fallbackToFreePort ?? false);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const running: RunningServer = {
      url: `http://${urlHost}:${port}`,
      port,
      host,
      app,
      store,
      backups,
      close: async () => {
        await app?.close();
        store.close();
      },
    };
    return running;
  } catch (error) {
    await app?.close().catch(() => undefined);
    store.close();
    throw error;
  }
}

async function listen(app: FastifyInstance, host: string, port: number, fallback: boolean): Promise<number> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (!fallback) {
      throw new PortInUseError(
        `Port ${port} on ${host} is already in use (is Agency Desk already running?). Set AGENCY_DESK_PORT to another port.`,
      );
    }
    await app.listen({ host, port: 0 });
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return address.port;
}
