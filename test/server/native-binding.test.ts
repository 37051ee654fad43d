import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFileIn, startServer } from '../../server/start.js';
import { buildTestApp, randomKey, tempDir } from '../helpers/app.js';
import { NODE_DRIVER_BUILD } from '../helpers/native-driver.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
function dir(): string {
  const created = tempDir('agency-desk-native-');
  dirs.push(created);
  return created;
}

/** A copy of the addon under a path of its own, so that a test can tell whether a connection loaded it. */
function addonCopy(): string {
  const file = path.join(dir(), 'better_sqlite3.node');
  fs.copyFileSync(NODE_DRIVER_BUILD, file);
  return file;
}

async function importRows(
  nativeBinding: string,
  removeAddonFirst: boolean,
): Promise<{ status: number; count: number }> {
  const t = await buildTestApp({ nativeBinding });
  try {
    await t.addUser('admin@example.com', 'admin');
    const admin = await t.login('admin@example.com');
    const clientId = await t.createClient(admin);
    // The server's connection has loaded the addon; the writer worker starts on the first import.
    if (removeAddonFirst) fs.rmSync(nativeBinding);
    const rows = Array.from({ length: 50 }, (_, i) => ({ name: `Native ${i}` }));
    const response = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: { clientId, rows },
    });
    const count = t.store.db.prepare('SELECT count(*) AS n FROM locations').get() as { n: number };
    return { status: response.statusCode, count: count.n };
  } finally {
    await t.close();
  }
}

describe('the database driver from a nativeBinding path (the desktop app from a checkout)', () => {
  it('startServer with nativeBinding serves, and closes cleanly', async () => {
    const dataDir = dir();
    const server = await startServer({
      dataDir,
      key: randomKey(),
      port: 0,
      dashboardDir: null,
      nativeBinding: addonCopy(),
    });
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(fs.existsSync(databaseFileIn(dataDir))).toBe(true);
  });

  it('POST /api/locations/upload: the writer worker imports with the same addon -> 201, rows written', async () => {
    expect(await importRows(addonCopy(), false)).toEqual({ status: 201, count: 50 });
  });

  it('the writer worker loads the addon from that path too: with the file gone, the import fails and writes nothing', async () => {
    const outcome = await importRows(addonCopy(), true);
    expect(outcome.status).toBe(500);
    expect(outcome.count).toBe(0);
  });

  it('a nativeBinding that does not exist fails at start, naming the file, and creates no database', async () => {
    const dataDir = dir();
    const bogus = path.join(dataDir, 'missing', 'better_sqlite3.node');
    await expect(
      startServer({ dataDir, key: randomKey(), port: 0, dashboardDir: null, nativeBinding: bogus }),
    ).rejects.toThrow(`The database driver ${bogus} could not be loaded`);
    expect(fs.existsSync(databaseFileIn(dataDir))).toBe(false);
  });
});
