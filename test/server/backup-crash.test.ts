import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupsDirIn, listBackupFiles } from '../../server/backups/folder.js';
import { parseKey } from '../../server/db/key.js';
import { openDatabase } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { tempDir } from '../helpers/app.js';
import { buildServer, randomHexKey, startServerProcess } from '../helpers/server-process.js';

/**
 * kill -9 of the real server at random moments of "Back up now" (issue 11, "Done means"): afterwards every
 * file named like a backup is a whole one, the database is intact, and the server starts and backs up again.
 */

// At least 20 (issue 11, "Done means"); each cycle starts the real server and signs in.
const CYCLES = 20;
const hexKey = randomHexKey();
const key = parseKey(hexKey, 'test');
const ADMIN = { email: 'admin@example.com', password: 'correct horse battery' };
let dataDir: string;

beforeAll(() => {
  buildServer();
  dataDir = tempDir('agency-desk-backup-crash-');
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function serve() {
  return startServerProcess({
    dataDir,
    key: hexKey,
    env: { AGENCY_DESK_ADMIN_EMAIL: ADMIN.email, AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password },
  });
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/auth/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

function integrity(file: string): string {
  const db = openDatabase(file, key, { readOnly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('kill -9 during backups', () => {
  it(`${CYCLES} cycles: only whole backups carry a backup's name, and the database stays intact`, async () => {
    // Enough data for a backup to take a while: the kills land inside VACUUM INTO, before and after it.
    const first = await serve();
    await first.stop();
    const store = openStore(databaseFileIn(dataDir), key);
    store.db.exec('CREATE TABLE IF NOT EXISTS ballast (x BLOB)');
    const insert = store.db.prepare('INSERT INTO ballast VALUES (randomblob(4000))');
    store.db.transaction(() => {
      for (let i = 0; i < 6_000; i += 1) insert.run();
    })();
    store.close();

    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const server = await serve();
      const token = await signIn(server.url);
      const request = fetch(`${server.url}/api/backups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
      await server.stop('SIGKILL');
      await request;
    }

    expect(integrity(databaseFileIn(dataDir))).toBe('ok');
    for (const backup of listBackupFiles(dataDir)) expect(integrity(backup.file), backup.name).toBe('ok');

    // The server starts again, backs up, and clears what the killed backups left behind.
    const last = await serve();
    try {
      const response = await fetch(`${last.url}/api/backups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signIn(last.url)}` },
      });
      expect(response.status).toBe(201);
    } finally {
      await last.stop();
    }
    expect(fs.readdirSync(backupsDirIn(dataDir)).filter((name) => name.includes('.partial-'))).toEqual([]);
    for (const backup of listBackupFiles(dataDir)) expect(integrity(backup.file), backup.name).toBe('ok');
  }, 300_000);
});
