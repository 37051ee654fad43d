import { spawn } from 'node:child_process';
import crypto, { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Backups, DEFAULT_SCHEDULE } from '../../server/backups/backups.js';
import { backupsDirIn, listBackupFiles } from '../../server/backups/folder.js';
import { insertClient } from '../../server/clients/queries.js';
import { parseKey } from '../../server/db/key.js';
import { openDatabase } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { insertOrganization } from '../../server/users/queries.js';
import { tempDir } from '../helpers/app.js';
import {
  buildServer,
  CLI,
  environment,
  randomHexKey,
  REPO_ROOT,
  runCli,
  startServerProcess,
} from '../helpers/server-process.js';

/**
 * `agency-desk restore FILE` (issue 11 §3): the real CLI over real encrypted databases. A good backup
 * comes back whole; anything else is refused in one line with the live database byte for byte as it was.
 */

const hexKey = randomHexKey();
const key = parseKey(hexKey, 'test');
let root: string;
let dataDir: string;
let liveFile: string;
let goodBackup: string;

const cli = (args: string[], options: { input?: string; key?: string } = {}) =>
  runCli({ dataDir, key: hexKey, args, ...options });

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function clientNames(file = liveFile, withKey = key): string[] {
  const db = openDatabase(file, withKey, { readOnly: true });
  try {
    return db.prepare('SELECT name FROM clients ORDER BY name').pluck().all() as string[];
  } finally {
    db.close();
  }
}

function addClient(name: string): void {
  const store = openStore(liveFile, key);
  // The organization of whatever database is live now (a restore may have brought another).
  const organizationId = store.db.prepare('SELECT id FROM organizations').pluck().get() as string;
  insertClient(store.db, organizationId, { name, industry: null, website: null }, Date.now());
  store.close();
}

/** A database of its own, under its own key, with one client: a backup from another machine. */
function foreignBackup(foreignHex: string): string {
  const file = path.join(root, `foreign-${foreignHex.slice(0, 6)}.db`);
  const store = openStore(file, parseKey(foreignHex, 'foreign'));
  const org = insertOrganization(store.db, 'Elsewhere', Date.now());
  insertClient(store.db, org, { name: 'From Another Machine', industry: null, website: null }, Date.now());
  const now = new Date().toISOString();
  store.db
    .prepare(
      "INSERT INTO users (id, organization_id, email, password_hash, role, client_id, created_at, updated_at) VALUES (?, ?, 'owner@elsewhere.test', 'x', 'admin', NULL, ?, ?)",
    )
    .run(crypto.randomUUID(), org, now, now);
  store.db.prepare('VACUUM INTO ?').run(`${file}.copy`);
  store.close();
  fs.renameSync(`${file}.copy`, file);
  return file;
}

beforeAll(async () => {
  buildServer();
  root = tempDir('agency-desk-restore-');
  dataDir = path.join(root, 'data');
  liveFile = databaseFileIn(dataDir);
  fs.mkdirSync(dataDir);
  const store = openStore(liveFile, key);
  insertOrganization(store.db, 'Restore Agency', Date.now());
  store.close();
  addClient('In The Backup');
  goodBackup = path.join(root, 'good.db');
  expect((await cli(['backup', goodBackup])).code).toBe(0);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The data directory holds the live database and the backups folder, nothing half-done. */
function expectNoLeftovers(): void {
  expect(fs.readdirSync(dataDir).filter((name) => name.includes('restoring'))).toEqual([]);
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).toMatch(/Nothing was changed\.$/);
}

describe('restore of a good backup', () => {
  beforeEach(() => addClient(`Added Later ${Date.now()}`));

  it('brings the backup back, and keeps the database it replaced in backups/', async () => {
    const replaced = clientNames();
    expect(replaced.length).toBeGreaterThan(1);
    // What a restore killed halfway left (its process gone) is swept: a later stop's walk found one.
    const interrupted = `${liveFile}.restoring-2147483646`;
    for (const suffix of ['', '-journal']) fs.writeFileSync(`${interrupted}${suffix}`, 'half a copy');
    const result = await cli(['restore', goodBackup]);
    expect(result.code, result.stderr).toBe(0);
    // One client, in the singular.
    expect(result.stdout).toMatch(/Restored .*good\.db \(1 client, 0 locations\)\./);
    expect(result.stdout).toMatch(
      /Everyone signs in again; passwords, roles and API tokens are as they were before the restore\.\n$/,
    );
    expect(fs.existsSync(`${liveFile}-wal`)).toBe(false);
    expect(clientNames()).toEqual(['In The Backup']);
    const kept = listBackupFiles(dataDir).find((backup) => backup.kind === 'before-restore')!;
    expect(result.stdout).toContain(kept.file);
    expect(clientNames(kept.file)).toEqual(replaced);
    // The backup itself is only read.
    expect(clientNames(goodBackup)).toEqual(['In The Backup']);
    expectNoLeftovers();
  });

  it('re-encrypts a backup made under another key (--key-file) to this installation’s key', async () => {
    const foreignHex = randomHexKey();
    const keyFile = path.join(root, 'foreign.key');
    fs.writeFileSync(keyFile, `${foreignHex}\n`);
    const foreign = foreignBackup(foreignHex);
    const before = sha256(liveFile);
    const refused = await cli(['restore', foreign]);
    expect(refused.code).toBe(1);
    expectOneLine(refused.stderr, /does not open with this key/);
    expect(sha256(liveFile)).toBe(before);

    const result = await cli(['restore', foreign, '--key-file', keyFile]);
    expect(result.code, result.stderr).toBe(0);
    expect(clientNames(liveFile, key)).toEqual(['From Another Machine']);
    // Said as it happened (a walk: the words said the accounts were kept).
    expect(result.stdout).toMatch(
      /Everyone signs in again with the backup's own accounts: it is another organization's/,
    );
    // Another installation's backup brings its own people: its organization is not this one's (found by a
    // review: every user was removed, and no one could sign in).
    const restored = openDatabase(liveFile, key, { readOnly: true });
    expect(restored.prepare('SELECT email FROM users').pluck().all()).toEqual(['owner@elsewhere.test']);
    restored.close();
  });

  it('restores a manual backup ("Back up now") from the backups folder, which stays there, listed as manual', async () => {
    const store = openStore(liveFile, key);
    const backups = new Backups(store, DEFAULT_SCHEDULE, { error: () => undefined });
    const made = await backups.backUpNow();
    await backups.close();
    store.close();
    const inTheBackup = clientNames();
    addClient('Added After The Manual Backup');
    const result = await cli(['restore', path.join(backupsDirIn(dataDir), made.name)]);
    expect(result.code, result.stderr).toBe(0);
    expect(clientNames()).toEqual(inTheBackup);
    expect(listBackupFiles(dataDir).find((backup) => backup.name === made.name)?.kind).toBe('manual');
  });

  it('takes the backup’s key from standard input with --ask-key', async () => {
    const foreignHex = randomHexKey();
    const result = await cli(['restore', foreignBackup(foreignHex), '--ask-key'], { input: `${foreignHex}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(clientNames()).toEqual(['From Another Machine']);
  });
});

describe('restore refuses, and the live database stays byte for byte', () => {
  let before: string;
  beforeEach(() => {
    before = sha256(liveFile);
  });

  const cases: [string, () => string, RegExp][] = [
    ['a file that does not exist', () => path.join(root, 'missing.db'), /does not exist/],
    ['an empty file', () => write('empty.db', Buffer.alloc(0)), /is empty/],
    ['a text file', () => write('notes.db', Buffer.from('not a database at all\n')), /truncated or is not a database/],
    ['a backup cut in the middle of a page', () => write('cut.db', head(goodBackup, 10_000)), /truncated/],
    ['a backup cut at a page boundary', () => write('cut-page.db', head(goodBackup, 8192)), /damaged or truncated/],
    ['random bytes of a whole number of pages', () => write('noise.db', randomPages(4)), /does not open with this key/],
    ['a plain SQLite file', () => plainSqlite(), /plain, unencrypted SQLite file/],
  ];

  it.each(cases)('%s', async (_name, make, message) => {
    const result = await cli(['restore', make()]);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, message);
    expect(sha256(liveFile)).toBe(before);
    expectNoLeftovers();
  });

  it('a backup damaged inside: the integrity check’s first problem, in one line', async () => {
    const big = path.join(root, 'big.db');
    const store = openStore(big, key);
    const org = insertOrganization(store.db, 'Big Agency', Date.now());
    for (let i = 0; i < 3000; i += 1)
      insertClient(store.db, org, { name: `Client ${i}`, industry: 'Retail', website: null }, Date.now());
    store.db.prepare('VACUUM INTO ?').run(`${big}.copy`);
    store.close();
    const bytes = fs.readFileSync(`${big}.copy`);
    // A page of the clients table (page 51 of about 245): the schema opens, the integrity check fails on it.
    bytes.fill(0x55, 50 * 4096 + 100, 50 * 4096 + 140);
    const result = await cli(['restore', write('damaged.db', bytes)]);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, /The backup is damaged \(integrity check: [^*]+\): it was not restored/);
    expect(sha256(liveFile)).toBe(before);
    expectNoLeftovers();
  });

  it('a backup under another key, restored without it', async () => {
    const result = await cli(['restore', goodBackup], { key: randomHexKey() });
    expect(result.code).toBe(1);
    // The live database does not open with that key either: nothing may be touched.
    expect(result.stderr).toMatch(/agency-desk: /);
    expect(sha256(liveFile)).toBe(before);
  });

  it('while Agency Desk runs on the data (its discovery file names a live process)', async () => {
    const runtime = path.join(dataDir, 'runtime');
    fs.mkdirSync(runtime, { recursive: true });
    const discovery = path.join(runtime, `agency-desk-${process.pid}.json`);
    fs.writeFileSync(discovery, JSON.stringify({ url: 'http://127.0.0.1:1', pid: process.pid, started_at: 'x' }));
    try {
      const result = await cli(['restore', goodBackup]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `agency-desk: Agency Desk is running on this data (process ${process.pid}): stop it, then restore`,
      );
      expect(sha256(liveFile)).toBe(before);
    } finally {
      fs.rmSync(discovery);
    }
    // A discovery file whose process is gone is no obstacle.
    fs.writeFileSync(path.join(runtime, 'agency-desk-999999999.json'), '{}');
    expect((await cli(['restore', goodBackup])).code).toBe(0);
  });
});

describe('restore and a running server', () => {
  it('refuses while agency-desk serve runs on the data, and works once it has stopped', async () => {
    addClient('While Serving');
    const server = await startServerProcess({ dataDir, key: hexKey });
    // The server writes too (session sweep, checkpoint on close): what must not change is the data.
    const beforeRestores = () => listBackupFiles(dataDir).filter((backup) => backup.kind === 'before-restore').length;
    const kept = beforeRestores();
    try {
      const refused = await cli(['restore', goodBackup]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `agency-desk: Agency Desk is running on this data (process ${server.process.pid}): stop it, then restore`,
      );
    } finally {
      await server.stop();
    }
    expect(clientNames()).toContain('While Serving');
    expect(beforeRestores()).toBe(kept);
    const restored = await cli(['restore', goodBackup]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(clientNames()).toEqual(['In The Backup']);
  });
});

describe('a backup killed halfway', () => {
  it('leaves no file under the backup’s name; its partial file is refused; an earlier backup restores', async () => {
    // Enough data for VACUUM INTO to take a while (an extra table the app ignores).
    const store = openStore(liveFile, key);
    store.db.exec('CREATE TABLE IF NOT EXISTS ballast (x BLOB)');
    const insert = store.db.prepare('INSERT INTO ballast VALUES (randomblob(4000))');
    store.db.transaction(() => {
      for (let i = 0; i < 12_000; i += 1) insert.run();
    })();
    store.close();
    const target = path.join(root, 'killed', 'backup.db');
    fs.mkdirSync(path.dirname(target));
    const child = spawn(process.execPath, [CLI, 'backup', target], {
      cwd: REPO_ROOT,
      env: environment({ dataDir, key: hexKey }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const partial = `${target}.partial-${child.pid}`;
    await expect
      .poll(() => fs.statSync(partial, { throwIfNoEntry: false })?.size ?? 0, { interval: 2, timeout: 30_000 })
      .toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited;
    expect(fs.existsSync(target)).toBe(false);

    const before = sha256(liveFile);
    const refused = await cli(['restore', partial]);
    expect(refused.code).toBe(1);
    // Said as what it is (a walk read "the key is wrong").
    expect(refused.stderr).toMatch(/is an unfinished backup/);
    expect(sha256(liveFile)).toBe(before);

    const restored = await cli(['restore', goodBackup]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(clientNames()).toEqual(['In The Backup']);
  });
});

function write(name: string, bytes: Buffer): string {
  const file = path.join(root, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function head(file: string, bytes: number): Buffer {
  return fs.readFileSync(file).subarray(0, bytes);
}

function randomPages(count: number): Buffer {
  return Buffer.from(Array.from({ length: count * 4096 }, () => Math.floor(Math.random() * 256)));
}

/** The first page of an unencrypted SQLite file: what another tool, or a careless copy, leaves. */
function plainSqlite(): string {
  return write('plain-sqlite.db', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096 - 16)]));
}

describe('what a restore keeps of the database it replaces (found by a script author’s walk)', () => {
  it('a token revoked since stays revoked, every session ends, and the trail numbers on with an entry saying so', async () => {
    const store = openStore(liveFile, key);
    const { db } = store;
    const organizationId = db.prepare('SELECT id FROM organizations').pluck().get() as string;
    const userId = crypto.randomUUID();
    const now = new Date().toISOString();
    db.prepare(
      "INSERT INTO users (id, organization_id, email, password_hash, role, client_id, created_at, updated_at) VALUES (?, ?, ?, 'x', 'admin', NULL, ?, ?)",
    ).run(userId, organizationId, `kept-${Date.now()}@example.com`, now, now);
    const token = (name: string) => {
      const id = crypto.randomUUID();
      db.prepare(
        "INSERT INTO api_tokens (id, user_id, name, hash, scopes, client_id, created_at) VALUES (?, ?, ?, ?, 'read', NULL, 0)",
      ).run(id, userId, name, crypto.randomBytes(32));
      return id;
    };
    const [stays, revoked] = [token('stays'), token('revoked')];
    db.prepare(
      "INSERT INTO sessions (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, created_at) VALUES (?, ?, ?, 0, ?, 0, '')",
    ).run(crypto.randomUUID(), userId, crypto.randomBytes(32), crypto.randomBytes(32));
    store.close();
    const backup = path.join(root, 'with-tokens.db');
    expect((await cli(['backup', backup])).code).toBe(0);
    // Since the backup: one token revoked, and entries a change feed may have read (seq up to `read`).
    const after = openStore(liveFile, key);
    after.db.prepare('DELETE FROM api_tokens WHERE id = ?').run(revoked);
    for (let n = 0; n < 3; n++) addEntry(after.db, organizationId);
    const read = after.db.prepare('SELECT max(seq) FROM audit_entries').pluck().get() as number;
    after.close();

    const result = await cli(['restore', backup]);
    expect(result.code, result.stderr).toBe(0);
    const restored = openDatabase(liveFile, key, { readOnly: true });
    try {
      expect(restored.prepare('SELECT id FROM api_tokens WHERE user_id = ?').pluck().all(userId)).toEqual([stays]);
      expect(restored.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(0);
      const last = restored
        .prepare('SELECT seq, action, target_name, actor_type, actor_name FROM audit_entries ORDER BY seq DESC LIMIT 1')
        .get() as {
        seq: number;
        action: string;
        target_name: string;
        actor_type: string;
        actor_name: string | null;
      };
      expect(last).toEqual({
        seq: read + 1,
        action: 'database.restored',
        target_name: 'with-tokens.db',
        actor_type: 'system',
        // Who restored, as every command-line entry names it (it named no one: a walk).
        actor_name: expect.stringMatching(/^the command line \(.+\)$/),
      });
    } finally {
      restored.close();
    }
  });
});

describe('a restore brings data back, not access (found by a script author’s walk)', () => {
  type Db = ReturnType<typeof openDatabase>;
  const addUser = (db: Db, organizationId: string, email: string, role: string, clientId: string | null) => {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    db.prepare(
      'INSERT INTO users (id, organization_id, email, password_hash, role, client_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(id, organizationId, email, `hash of ${email}`, role, clientId, now, now);
    return id;
  };
  const addClientIn = (db: Db, organizationId: string, name: string) =>
    insertClient(db, organizationId, { name, industry: null, website: null }, Date.now()).id;

  it('passwords, roles and clients as they are now; users and tokens removed since stay removed, added since come along', async () => {
    const stamp = Date.now();
    const store = openStore(liveFile, key);
    const organizationId = store.db.prepare('SELECT id FROM organizations').pluck().get() as string;
    const clientX = addClientIn(store.db, organizationId, `X ${stamp}`);
    const changed = addUser(store.db, organizationId, `changed-${stamp}@example.com`, 'admin', null);
    const removed = addUser(store.db, organizationId, `removed-${stamp}@example.com`, 'viewer', null);
    const moved = addUser(store.db, organizationId, `moved-${stamp}@example.com`, 'client_viewer', clientX);
    store.close();
    const backup = path.join(root, `access-${stamp}.db`);
    expect((await cli(['backup', backup])).code).toBe(0);

    // Since the backup: a password changed and the role lowered, a user removed, a Client Viewer moved to
    // a client made since, a user (with a token) and a Client Viewer of the new client added.
    const after = openStore(liveFile, key);
    const { db } = after;
    db.prepare("UPDATE users SET password_hash = 'new hash', role = 'viewer' WHERE id = ?").run(changed);
    db.prepare('DELETE FROM users WHERE id = ?').run(removed);
    const clientY = addClientIn(db, organizationId, `Y ${stamp}`);
    db.prepare('UPDATE users SET client_id = ? WHERE id = ?').run(clientY, moved);
    const added = addUser(db, organizationId, `removed-${stamp}@example.com`, 'admin', null);
    const ofNewClient = addUser(db, organizationId, `new-client-${stamp}@example.com`, 'client_viewer', clientY);
    const token = crypto.randomUUID();
    db.prepare(
      "INSERT INTO api_tokens (id, user_id, name, hash, scopes, client_id, created_at) VALUES (?, ?, 'made since', ?, 'read', NULL, 0)",
    ).run(token, added, crypto.randomBytes(32));
    after.close();

    const result = await cli(['restore', backup]);
    expect(result.code, result.stderr).toBe(0);
    const restored = openDatabase(liveFile, key, { readOnly: true });
    try {
      const user = (id: string) =>
        restored.prepare('SELECT email, password_hash, role, client_id FROM users WHERE id = ?').get(id);
      expect(user(changed)).toEqual({
        email: `changed-${stamp}@example.com`,
        password_hash: 'new hash',
        role: 'viewer',
        client_id: null,
      });
      expect(user(removed)).toBeUndefined();
      // Its client is not in the backup: neither the old access nor the new one stands.
      expect(user(moved)).toBeUndefined();
      expect(user(ofNewClient)).toBeUndefined();
      // The removed user's email is the new user's now.
      expect(user(added)).toMatchObject({ email: `removed-${stamp}@example.com`, role: 'admin' });
      expect(restored.prepare('SELECT user_id FROM api_tokens WHERE id = ?').pluck().get(token)).toBe(added);
      expect(restored.prepare("SELECT count(*) FROM users WHERE email LIKE '%@restoring.invalid'").pluck().get()).toBe(
        0,
      );
      expect(restored.prepare('SELECT name FROM clients WHERE id = ?').pluck().get(clientX)).toBe(`X ${stamp}`);
    } finally {
      restored.close();
    }
  });
});

function addEntry(db: ReturnType<typeof openDatabase>, organizationId: string): void {
  db.prepare(
    "INSERT INTO audit_entries (id, organization_id, at, actor_type, action, target_type) VALUES (?, ?, '', 'system', 'test.entry', 'test')",
  ).run(crypto.randomUUID(), organizationId);
}
