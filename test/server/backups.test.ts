import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backups } from '../../server/backups/backups.js';
import { backupsDirIn, listBackupFiles } from '../../server/backups/folder.js';
import { backupsToRemove } from '../../server/backups/rotation.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { backupFileName } from '../../server/db/backup.js';
import { openDatabase, WrongKeyError } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { insertOrganization } from '../../server/users/queries.js';
import { randomKey, tempDir } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { plaintextHits } from '../helpers/data.js';
import { buildSignedInApp, type SignedInApp } from '../helpers/users.js';

/** Automatic backups (issue 11 §3): the rotation, the schedule, and the Admin API over the real database. */

const DAY = 24 * 60 * 60 * 1000;
const at = (iso: string) => ({ at: new Date(iso), name: iso });

describe('the retention policy (7 daily, 4 weekly by default)', () => {
  it('keeps every backup of the last day, and the newest of each of the last 7 days and of the last 4 weeks', () => {
    // One backup a day at noon for 60 days up to Sunday 2026-03-01, and a second one on the last day.
    const daily = Array.from({ length: 60 }, (_, i) =>
      at(new Date(Date.parse('2026-03-01T12:00:00Z') - i * DAY).toISOString()),
    );
    const backups = [at('2026-03-01T18:00:00.000Z'), ...daily];
    const kept = backups.filter(
      (backup) => !backupsToRemove(backups, { keepDaily: 7, keepWeekly: 4 }).includes(backup),
    );
    expect(kept.map((backup) => backup.name.slice(0, 16)).sort()).toEqual(
      [
        // Sundays, the newest of the three weeks before this one (Monday 2026-02-23 to Sunday 2026-03-01).
        '2026-02-08T12:00',
        '2026-02-15T12:00',
        '2026-02-22T12:00',
        // The last seven days; the last one keeps both of its own (every backup of the last day).
        '2026-02-23T12:00',
        '2026-02-24T12:00',
        '2026-02-25T12:00',
        '2026-02-26T12:00',
        '2026-02-27T12:00',
        '2026-02-28T12:00',
        '2026-03-01T12:00',
        '2026-03-01T18:00',
      ].sort(),
    );
  });

  it('counts only periods that have a backup: a machine off for a month keeps its old ones', () => {
    const backups = [at('2026-01-01T09:00:00.000Z'), at('2026-01-02T09:00:00.000Z'), at('2026-03-01T09:00:00.000Z')];
    expect(backupsToRemove(backups, { keepDaily: 7, keepWeekly: 4 })).toEqual([]);
    expect(backupsToRemove(backups, { keepDaily: 1, keepWeekly: 0 })).toEqual(backups.slice(0, 2));
  });
});

describe('the configuration', () => {
  it('reads the schedule and the retention from AGENCY_DESK_BACKUP_*', () => {
    expect(loadConfig({}).backups).toEqual({ keepDaily: 7, keepWeekly: 4, everyMs: DAY });
    const config = loadConfig({
      AGENCY_DESK_BACKUP_KEEP_DAILY: '3',
      AGENCY_DESK_BACKUP_KEEP_WEEKLY: '0',
      AGENCY_DESK_BACKUP_EVERY_MINUTES: '90',
    });
    expect(config.backups).toEqual({ keepDaily: 3, keepWeekly: 0, everyMs: 90 * 60_000 });
    expect(loadConfig({ AGENCY_DESK_BACKUPS: 'off' }).backups).toBeNull();
  });

  it.each([
    ['AGENCY_DESK_BACKUP_KEEP_DAILY', '0'],
    ['AGENCY_DESK_BACKUP_KEEP_DAILY', 'seven'],
    ['AGENCY_DESK_BACKUP_KEEP_WEEKLY', '-1'],
    ['AGENCY_DESK_BACKUP_EVERY_MINUTES', '1.5'],
    ['AGENCY_DESK_BACKUPS', 'sometimes'],
  ])('%s=%s stops the server with a message', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });
});

describe('the schedule', () => {
  let dataDir: string;
  const key = randomKey();
  const silent = Fastify({ logger: false }).log;

  beforeAll(() => {
    dataDir = tempDir('agency-desk-schedule-');
    const store = openStore(databaseFileIn(dataDir), key);
    insertOrganization(store.db, 'Scheduled Agency', Date.now());
    store.close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('makes one at start when there is none, then one each interval; none at start when the last is recent', async () => {
    const store = openStore(databaseFileIn(dataDir), key);
    const backups = new Backups(store, { keepDaily: 7, keepWeekly: 4, everyMs: 2_500 }, silent);
    const seen = new Set<string>();
    const look = () => listBackupFiles(dataDir).forEach((backup) => seen.add(backup.name));
    backups.start();
    await expect.poll(() => (look(), seen.size), { interval: 20, timeout: 20_000 }).toBe(1);
    await expect.poll(() => (look(), seen.size), { interval: 20, timeout: 20_000 }).toBe(2);
    await backups.close();
    // Both within the last day: the retention keeps both (a day later, that day's newest only).
    expect(listBackupFiles(dataDir).map((backup) => backup.name)).toEqual([...seen].sort().reverse());

    // A restart right after: the newest is recent, nothing is made at start.
    const again = new Backups(store, { keepDaily: 7, keepWeekly: 4, everyMs: 60_000 }, silent);
    again.start();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await again.close();
    expect(listBackupFiles(dataDir)).toHaveLength(2);
    store.close();
  });

  it('a failing automatic backup is tried again later, longer each time, not at once in a loop (a walk: 8,375 log lines in 10 s)', async () => {
    const broken = tempDir('agency-desk-broken-backups-');
    const store = openStore(databaseFileIn(broken), key);
    insertOrganization(store.db, 'Broken Agency', Date.now());
    // The backups "folder" is a file: every backup fails.
    fs.writeFileSync(backupsDirIn(broken), 'not a folder');
    const errors: string[] = [];
    const log = { error: (_details: unknown, message: string) => void errors.push(message) };
    const backups = new Backups(store, { keepDaily: 7, keepWeekly: 4, everyMs: DAY, firstRetryMs: 400 }, log);
    backups.start();
    // Tried at once, then after 400 ms, then 800 ms (at 1.2 s): three tries in 1.5 s, not thousands.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await backups.close();
    store.close();
    fs.rmSync(broken, { recursive: true, force: true });
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThanOrEqual(4);
    expect(errors[0]).toBe('the automatic backup failed: it is tried again later');
  });

  it('applies the retention to automatic backups only, never to manual ones, and clears leftovers of backups killed halfway', async () => {
    const store = openStore(databaseFileIn(dataDir), key);
    const dir = backupsDirIn(dataDir);
    const sample = listBackupFiles(dataDir)[0]!.file;
    const copyAs = (kind: string, daysAgo: number) => {
      const file = path.join(dir, backupFileName(new Date(Date.now() - daysAgo * DAY), kind));
      fs.copyFileSync(sample, file);
      return file;
    };
    for (let day = 1; day <= 40; day += 1) copyAs('auto', day);
    const beforeRestore = copyAs('before-restore', 300);
    // Manual backups of days the rotation thins out, and of a day long past every period it keeps.
    const manual = [copyAs('manual', 20), copyAs('manual', 21), copyAs('manual', 300)];
    const stale = path.join(dir, 'auto-x.db.partial-999999999');
    fs.writeFileSync(stale, 'half');
    const backups = new Backups(store, { keepDaily: 7, keepWeekly: 4, everyMs: DAY }, silent);
    const made = await backups.backUpNow();
    await backups.close();
    store.close();
    expect(made.kind).toBe('manual');
    const listed = listBackupFiles(dataDir);
    const automatic = listed.filter((backup) => backup.kind === 'auto');
    // Today's two (the schedule's of the test before: every backup of the last day), six more days, then
    // the newest of two or three earlier weeks.
    expect(automatic.filter((backup) => Date.now() - backup.at.getTime() < DAY)).toHaveLength(2);
    expect(automatic.length).toBeGreaterThanOrEqual(10);
    expect(automatic.length).toBeLessThanOrEqual(11);
    expect(listed.filter((backup) => backup.kind === 'manual').map((backup) => backup.file)).toEqual(
      [path.join(dir, made.name), ...manual].sort().reverse(),
    );
    expect(fs.existsSync(beforeRestore)).toBe(true);
    expect(fs.existsSync(stale)).toBe(false);
  });

  it('two backups within one second are two files, listed newest first: the second never replaces the first', async () => {
    const store = openStore(databaseFileIn(dataDir), key);
    // An hour ahead, so that the names are new; the retention keeps every backup of the last day.
    const second = Math.floor(Date.now() / 1000) * 1000 + 3_600_000 + 100;
    let now = second;
    const backups = new Backups(store, { keepDaily: 7, keepWeekly: 4, everyMs: DAY }, silent, () => now);
    const first = await backups.backUpNow();
    insertOrganization(store.db, 'Made between the two', Date.now());
    now = second + 300;
    const next = await backups.backUpNow();
    now = second + 600;
    const third = await backups.backUpNow();
    const listed = (await backups.list()).filter((backup) => Date.parse(backup.created_at) > Date.now());
    await backups.close();
    store.close();
    const name = backupFileName(new Date(second), 'manual');
    expect(name).toMatch(/^manual-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/);
    expect([first.name, next.name, third.name]).toEqual([
      name,
      name.replace(/\.db$/, '-2.db'),
      name.replace(/\.db$/, '-3.db'),
    ]);
    expect(listed.map((backup) => backup.name)).toEqual([third.name, next.name, first.name]);
    const organizations = (name: string) => {
      const copy = openDatabase(path.join(backupsDirIn(dataDir), name), key, { readOnly: true });
      const count = copy.prepare('SELECT count(*) FROM organizations').pluck().get();
      copy.close();
      return count;
    };
    expect(organizations(next.name)).toBe((organizations(first.name) as number) + 1);
  });
});

describe('/api/backups', () => {
  let s: SignedInApp<'admin' | 'viewer'> & { clientIds: Record<string, string> };
  const MARKER = 'ZQXBACKUPMARKER';

  beforeAll(async () => {
    s = await buildSignedInApp({ admin: 'admin', viewer: 'viewer' });
    const clientId = await s.t.createClient(s.tokens.admin, `${MARKER} Coffee`);
    const rows = Array.from({ length: 300 }, (_, i) => ({ name: `${MARKER} Branch ${i}`, city: 'Leeds' }));
    const upload = await s.t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: s.tokens.admin,
      body: { clientId, rows },
    });
    expect(upload.statusCode, upload.body).toBe(201);
  });
  afterAll(() => s.t.close());

  const get = (url: string, token?: string) => s.t.request({ method: 'GET', url, token });
  const backUpNow = (token?: string) => s.t.request({ method: 'POST', url: '/api/backups', token });

  it('POST makes a manual, encrypted backup with its counts, with no plaintext, that opens with the key only', async () => {
    expect((await get('/api/backups', s.tokens.admin)).json()).toEqual([]);
    const made = await backUpNow(s.tokens.admin);
    expect(made.statusCode, made.body).toBe(201);
    const backup = made.json<{ name: string; size: number }>();
    expect(backup).toEqual({
      name: expect.stringMatching(/^manual-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/),
      path: path.resolve(backupsDirIn(s.t.dataDir), backup.name),
      kind: 'manual',
      created_at: expect.stringMatching(/Z$/),
      size: expect.any(Number),
      clients: 1,
      locations: 300,
    });
    const file = path.join(backupsDirIn(s.t.dataDir), backup.name);
    expect(fs.statSync(file).size).toBe(backup.size);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(plaintextHits(backupsDirIn(s.t.dataDir), [MARKER, 'Leeds', 'admin@example.com'])).toEqual([]);
    const copy = openDatabase(file, s.t.key, { readOnly: true });
    expect(copy.prepare('SELECT count(*) FROM locations').pluck().get()).toBe(300);
    copy.close();
    expect(() => openDatabase(file, randomKey(), { readOnly: true })).toThrow(WrongKeyError);
    expect((await get('/api/backups', s.tokens.admin)).json()).toEqual([backup]);
  });

  it("GET /api/backups gives each backup's file, absolute, in the backups folder: what `agency-desk restore` takes", async () => {
    const listed = (await get('/api/backups', s.tokens.admin)).json<{ name: string; path: string }[]>();
    expect(listed.length).toBeGreaterThan(0);
    for (const backup of listed) {
      expect(path.isAbsolute(backup.path)).toBe(true);
      expect(backup.path).toBe(path.join(path.resolve(backupsDirIn(s.t.dataDir)), backup.name));
      expect(fs.statSync(backup.path).isFile()).toBe(true);
    }
    // The OpenAPI document says what the field is.
    const document = (await get('/api/openapi.json')).json<{
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
      components?: { schemas?: Record<string, unknown> };
    }>();
    const answer = document.paths['/api/backups']!.get.responses['200']!.content['application/json']!.schema as {
      items: { $ref?: string; properties?: Record<string, { description: string }> };
    };
    const ref = answer.items.$ref?.replace('#/components/schemas/', '');
    const item = (ref ? document.components!.schemas![ref] : answer.items) as {
      properties: Record<string, { description: string }>;
      required: string[];
    };
    expect(item.properties.path!.description).toContain('agency-desk restore FILE');
    expect(item.required).toContain('path');
  });

  it('requests go on while a backup is made: one sent meanwhile is answered first', async () => {
    const order: string[] = [];
    const backup = backUpNow(s.tokens.admin).then((response) => order.push(`backup ${response.statusCode}`));
    const list = get('/api/clients', s.tokens.admin).then((response) => order.push(`clients ${response.statusCode}`));
    await Promise.all([backup, list]);
    expect(order).toEqual(['clients 200', 'backup 201']);
  });

  it('GET /api/backups/:name/download sends the encrypted file', async () => {
    const [backup] = (await get('/api/backups', s.tokens.admin)).json<{ name: string }[]>();
    const response = await get(`/api/backups/${backup!.name}/download`, s.tokens.admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${backup!.name}"`);
    expect(response.rawPayload.equals(fs.readFileSync(path.join(backupsDirIn(s.t.dataDir), backup!.name)))).toBe(true);
  });

  it('an automatic backup, and one named before manual backups were, download as before', async () => {
    const dir = backupsDirIn(s.t.dataDir);
    const [made] = (await get('/api/backups', s.tokens.admin)).json<{ name: string }[]>();
    const older = backupFileName(new Date(Date.parse('2026-01-02T03:04:05Z')), 'auto');
    fs.copyFileSync(path.join(dir, made!.name), path.join(dir, older));
    const listed = (await get('/api/backups', s.tokens.admin)).json<{ name: string; kind: string }[]>();
    expect(listed.find((backup) => backup.name === older)?.kind).toBe('auto');
    const response = await get(`/api/backups/${older}/download`, s.tokens.admin);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(fs.readFileSync(path.join(dir, older)))).toBe(true);
  });

  it.each([
    ['an unknown backup', 'manual-2001-01-01T00-00-00Z.db'],
    ['a name that is no backup', 'not-a-backup'],
    ['a path', '../agency-desk.db'],
    ['a path to a backup', '../backups/auto-2026-01-02T03-04-05Z.db'],
    ['a partial file', 'auto-2001-01-01T00-00-00Z.db.partial-1'],
    ['the live database', 'agency-desk.db'],
    ['a long name', 'x'.repeat(150)],
  ])('download of %s -> 404 "No backup with this name"', async (_name, name) => {
    const response = await get(`/api/backups/${encodeURIComponent(name)}/download`, s.tokens.admin);
    expect(expectErrorBody(response, 404)).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No backup with this name',
    });
  });

  it.each([
    ['GET', '/api/backups'],
    ['POST', '/api/backups'],
    ['GET', '/api/backups/auto-2001-01-01T00-00-00Z.db/download'],
  ] as const)('%s %s as viewer -> 403, without a token -> 401', async (method, url) => {
    expectErrorBody(await s.t.request({ method, url, token: s.tokens.viewer }), 403);
    expectErrorBody(await s.t.request({ method, url }), 401);
  });
});

describe('POST /api/backups that cannot be made', () => {
  it('says why, not "something went wrong" (a walk): the backups folder is a file', async () => {
    const s = await buildSignedInApp({ admin: 'admin' });
    try {
      const folder = backupsDirIn(s.t.dataDir);
      fs.rmSync(folder, { recursive: true, force: true });
      fs.writeFileSync(folder, 'not a folder');
      const refused = await s.t.request({ method: 'POST', url: '/api/backups', token: s.tokens.admin });
      expectErrorBody(refused, 500);
      expect(refused.json<{ message: string }>().message).toBe(
        'The backup could not be made: the backups folder of the data folder is not a folder. Nothing was changed.',
      );
    } finally {
      await s.t.close();
    }
  });
});
