import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../../server/db/open.js';
import { parseKey } from '../../server/db/key.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { tempDir } from './app.js';
import { buildServer, callServer, randomHexKey, startServerProcess, type ServerProcess } from './server-process.js';

// A seeded generator: a failure names its seed, and AGENCY_DESK_CRASH_SEED replays it.
export const CRASH_SEED = Number(process.env.AGENCY_DESK_CRASH_SEED) || Math.floor(Math.random() * 2 ** 31);

/** Numbers in [0, 1) from `seed`, the same ones for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

export interface KilledServer {
  /** Starts `serve` again on the file's data directory and key. */
  start(): Promise<void>;
  /** The Admin's access token, from the running server. */
  signIn(): Promise<string>;
  call<T>(method: string, path: string, token: string | null, body?: string): Promise<{ status: number; body: T }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Opens the stopped server's database as the next start would, checks it is intact (integrity and
   * foreign keys) and hands it to `read`.
   */
  readDatabase<T>(context: string, read: (db: Db) => T): T;
}

/**
 * The crash tests' real `serve` process (issues 11 and 13): one data directory and key for the file,
 * killed and started again at will; the directory goes after the file's tests.
 */
export function killedServerPerFile(name: string): KilledServer {
  const admin = { AGENCY_DESK_ADMIN_EMAIL: `${name}@example.com`, AGENCY_DESK_ADMIN_PASSWORD: `${name} test password` };
  let dataDir: string;
  let key: string;
  let server: ServerProcess | undefined;
  beforeAll(() => {
    buildServer();
    dataDir = tempDir(`agency-desk-${name}-`);
    key = randomHexKey();
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const call = <T>(method: string, path: string, token: string | null, body?: string) =>
    callServer<T>(server!.url, method, path, token, body);
  return {
    start: async () => {
      server = await startServerProcess({ dataDir, key, env: admin });
    },
    signIn: async () => {
      const body = JSON.stringify({ email: admin.AGENCY_DESK_ADMIN_EMAIL, password: admin.AGENCY_DESK_ADMIN_PASSWORD });
      const response = await call<{ access_token: string }>('POST', '/auth/callback', null, body);
      expect(response.status).toBe(200);
      return response.body.access_token;
    },
    call,
    stop: async (signal) => {
      await server!.stop(signal);
    },
    readDatabase: (context, read) => {
      const store = openStore(databaseFileIn(dataDir), parseKey(key, 'test'));
      try {
        expect(store.db.pragma('integrity_check', { simple: true }), context).toBe('ok');
        expect(store.db.pragma('foreign_key_check'), context).toEqual([]);
        return read(store.db);
      } finally {
        store.close();
      }
    },
  };
}
