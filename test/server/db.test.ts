import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../server/db/backup.js';
import { headlessKey, KeyError, keyPragmaValue, parseKey, type DatabaseKey } from '../../server/db/key.js';
import { DatabaseTooNewError, migrate } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { openDatabase, WrongKeyError, type Db } from '../../server/db/open.js';
import { openStore, type Store } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { insertOrganization } from '../../server/users/queries.js';
import { buildTestApp, randomKey, tempDir, type TestApp } from '../helpers/app.js';
import { fileDigests, filesUnder, plaintextHits, rowCount } from '../helpers/data.js';

const LATEST = migrations.at(-1)!.version;
const TABLES = [
  'api_tokens',
  'audit_entries',
  'clients',
  'locations',
  'mappings',
  'operation_rows',
  'operations',
  'organizations',
  'rotated_refresh_tokens',
  'rule_versions',
  'sessions',
  'users',
];

const dirs: string[] = [];
function freshDir(): string {
  const dir = tempDir('agency-desk-db-test-');
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tablesOf(store: Store): string[] {
  return store.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
}

/** A closed database at the newest schema with one organization, and the key that opens it. */
function closedDatabase(key: DatabaseKey = randomKey()): { dir: string; file: string; key: DatabaseKey } {
  const dir = freshDir();
  const file = databaseFileIn(dir);
  const store = openStore(file, key);
  insertOrganization(store.db, 'Kept Agency', Date.now());
  store.close();
  return { dir, file, key };
}

describe('migrations', () => {
  it(`an empty file is created and migrated to version ${LATEST}`, () => {
    const file = databaseFileIn(freshDir());
    const store = openStore(file, randomKey());
    expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(tablesOf(store)).toEqual(TABLES);
    store.close();
  });

  for (let version = 0; version < LATEST; version++) {
    it(`a database at user_version ${version} migrates to ${LATEST} keeping its data`, () => {
      const file = databaseFileIn(freshDir());
      const key = randomKey();
      const old = openDatabase(file, key, { create: true });
      migrate(
        old,
        migrations.filter((migration) => migration.version <= version),
      );
      expect(old.pragma('user_version', { simple: true })).toBe(version);
      const organizationId = version >= 1 ? insertOrganization(old, 'Before the upgrade', Date.now()) : undefined;
      old.close();

      const store = openStore(file, key);
      expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST);
      expect(tablesOf(store)).toEqual(TABLES);
      if (organizationId !== undefined) {
        expect(store.db.prepare('SELECT name FROM organizations WHERE id = ?').pluck().get(organizationId)).toBe(
          'Before the upgrade',
        );
      }
      store.close();
    });
  }

  it('a failing migration leaves the schema and user_version as they were (one transaction)', () => {
    const file = databaseFileIn(freshDir());
    const db = openDatabase(file, randomKey(), { create: true });
    const broken = {
      version: LATEST + 1,
      name: 'broken',
      up(target: typeof db) {
        target.exec('CREATE TABLE half_done (x)');
        throw new Error('migration failed half-way');
      },
    };
    expect(() => migrate(db, [...migrations, broken])).toThrow('migration failed half-way');
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0);
    db.close();
  });

  it('a database newer than the code is refused with DatabaseTooNewError and not modified', () => {
    const { dir, file, key } = closedDatabase();
    const newer = openDatabase(file, key);
    newer.pragma(`user_version = ${LATEST + 1}`);
    newer.pragma('wal_checkpoint(TRUNCATE)');
    newer.close();
    const before = fileDigests(dir);

    expect(() => openStore(file, key)).toThrow(DatabaseTooNewError);

    expect(fileDigests(dir)).toEqual(before);
    const check = openDatabase(file, key);
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST + 1);
    check.close();
  });
});

describe.runIf(process.platform !== 'win32')('a new database file', () => {
  it('is its owner’s alone (0600), and so are its -wal and -shm files; an existing file keeps its mode', () => {
    const dir = freshDir();
    const file = databaseFileIn(dir);
    const store = openStore(file, randomKey());
    insertOrganization(store.db, 'Modes', Date.now());
    for (const name of ['agency-desk.db', 'agency-desk.db-wal', 'agency-desk.db-shm'])
      expect((fs.statSync(path.join(dir, name)).mode & 0o777).toString(8), name).toBe('600');
    store.close();
    fs.chmodSync(file, 0o640);
    openDatabase(file, store.key).close();
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('640');
  });
});

describe('opening with the wrong key', () => {
  it('a wrong raw key -> WrongKeyError, the file bytes unchanged and no new file in the directory', () => {
    const { dir, file } = closedDatabase();
    const before = fileDigests(dir);
    expect(Object.keys(before)).toEqual(['agency-desk.db']);

    expect(() => openStore(file, randomKey())).toThrow(WrongKeyError);

    expect(fileDigests(dir)).toEqual(before);
  });

  it('a wrong passphrase for a passphrase database -> WrongKeyError, file unchanged', () => {
    const { dir, file } = closedDatabase(parseKey('the right passphrase', 'test'));
    const before = fileDigests(dir);
    expect(() => openStore(file, parseKey('the wrong passphrase', 'test'))).toThrow(WrongKeyError);
    expect(fileDigests(dir)).toEqual(before);
  });

  it('the WrongKeyError message says the key is wrong and that nothing was changed', () => {
    const { file } = closedDatabase();
    expect(() => openStore(file, randomKey())).toThrow(/key is wrong.*Nothing was changed/s);
  });

  it('a file that is not a database at all is refused and left as it was', () => {
    const dir = freshDir();
    const file = databaseFileIn(dir);
    fs.writeFileSync(file, 'this is a text file, not an encrypted database '.repeat(200));
    const before = fileDigests(dir);
    expect(() => openStore(file, randomKey())).toThrow(WrongKeyError);
    expect(fileDigests(dir)).toEqual(before);
  });

  it('the database file is not a plain SQLite file (its header is encrypted)', () => {
    const { file } = closedDatabase();
    expect(fs.readFileSync(file).subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
  });
});

describe('connection settings', () => {
  let store: Store;
  beforeAll(() => {
    store = openStore(databaseFileIn(freshDir()), randomKey());
  });
  afterAll(() => store.close());

  it('PRAGMA journal_mode is wal', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('PRAGMA foreign_keys is on', () => {
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('a row pointing at a missing parent is refused (foreign keys enforced)', () => {
    expect(() =>
      store.db
        .prepare("INSERT INTO clients (id, organization_id, name, created_at) VALUES ('c', 'no-such-org', 'x', 'now')")
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });
});

describe('restart', () => {
  it('closing the store and reopening it with the same key keeps the data written through the API', async () => {
    const t = await buildTestApp();
    try {
      await t.addUser('restart-admin@example.com', 'admin');
      const token = await t.login('restart-admin@example.com');
      const clientId = await t.createClient(token, 'Survives Restart Ltd');
      const upload = await t.request({
        method: 'POST',
        url: '/api/locations/upload',
        token,
        body: { clientId, rows: [{ name: 'Kept Branch', city: 'Lyon', country: 'France' }] },
      });
      expect(upload.statusCode).toBe(201);
      await t.app.close();
      t.store.close();

      const reopened = openStore(databaseFileIn(t.dataDir), t.key);
      expect(reopened.db.prepare('SELECT name FROM clients WHERE id = ?').pluck().get(clientId)).toBe(
        'Survives Restart Ltd',
      );
      expect(
        reopened.db.prepare('SELECT name, city, country FROM locations WHERE client_id = ?').all(clientId),
      ).toEqual([{ name: 'Kept Branch', city: 'Lyon', country: 'FR' }]);
      expect(rowCount(reopened.db, 'users')).toBe(1);
      reopened.close();
    } finally {
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  it('a closed data directory holds the database file only (the WAL is folded back)', () => {
    const { dir } = closedDatabase();
    expect(filesUnder(dir)).toEqual(['agency-desk.db']);
  });
});

describe('no plaintext on disk', () => {
  const MARKERS = [
    'ZQXMARKERCLIENT',
    'zqxmarkerindustry',
    'zqxmarkerwebsite.example',
    'ZQXMARKERLOCATION',
    'ZQXMARKERSTREET',
    'ZQXMARKERCITY',
    'ChIJZQXMARKERPLACE000000',
    'zqxmarker-user@example.com',
    'zqxmarker-admin@example.com',
  ];
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('zqxmarker-admin@example.com', 'admin');
    admin = await t.login('zqxmarker-admin@example.com');
    const created = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: { name: 'ZQXMARKERCLIENT', industry: 'zqxmarkerindustry', website: 'zqxmarkerwebsite.example' },
    });
    expect(created.statusCode).toBe(201);
    const clientId = created.json<{ id: string }>().id;
    const upload = await t.request({
      method: 'POST',
      url: '/api/locations/upload',
      token: admin,
      body: {
        clientId,
        rows: [
          {
            name: 'ZQXMARKERLOCATION',
            address: '1 ZQXMARKERSTREET',
            city: 'ZQXMARKERCITY',
            country: 'US',
            google_place_id: 'ChIJZQXMARKERPLACE000000',
          },
        ],
      },
    });
    expect(upload.statusCode).toBe(201);
    const user = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      body: { email: 'zqxmarker-user@example.com', password: 'zqxmarker password', role: 'viewer' },
    });
    expect(user.statusCode).toBe(201);
  });

  afterAll(() => fs.rmSync(t.dataDir, { recursive: true, force: true }));

  it('while the app is open, no file in the data directory (database, -wal, -shm) contains a marker', () => {
    expect(filesUnder(t.dataDir).length).toBeGreaterThan(0);
    expect(plaintextHits(t.dataDir, [...MARKERS, admin])).toEqual([]);
  });

  it('the data really is in the database (the markers are readable through the key)', () => {
    expect(t.store.db.prepare('SELECT name FROM clients').pluck().all()).toEqual(['ZQXMARKERCLIENT']);
  });

  it('after closing, no file in the data directory contains a marker', async () => {
    await t.app.close();
    t.store.close();
    expect(filesUnder(t.dataDir)).toEqual(['agency-desk.db']);
    expect(plaintextHits(t.dataDir, MARKERS)).toEqual([]);
  });
});

describe('key handling (server/db/key.ts)', () => {
  const HEX = 'ABCDEF0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789';

  it('parseKey: 64 hex digits are a raw key, lower-cased and trimmed', () => {
    expect(parseKey(`  ${HEX}\n`, 'test')).toEqual({ kind: 'raw', hex: HEX.toLowerCase() });
  });

  it('parseKey: anything else of 8 characters or more is a passphrase, trimmed', () => {
    expect(parseKey(' my secret passphrase \n', 'test')).toEqual({
      kind: 'passphrase',
      passphrase: 'my secret passphrase',
    });
    expect(parseKey(HEX.slice(1), 'test')).toEqual({ kind: 'passphrase', passphrase: HEX.slice(1) });
  });

  it('parseKey: a passphrase shorter than 8 characters is refused with KeyError naming the source', () => {
    expect(() => parseKey('short', 'AGENCY_DESK_DB_KEY')).toThrow(KeyError);
    expect(() => parseKey('1234567', 'AGENCY_DESK_DB_KEY')).toThrow(/AGENCY_DESK_DB_KEY.*8 characters/);
    expect(() => parseKey('        ', 'test')).toThrow(KeyError);
  });

  it('parseKey: a NUL character is refused', () => {
    expect(() => parseKey('long enough\0passphrase', 'test')).toThrow(KeyError);
  });

  it("keyPragmaValue quotes a passphrase's single quotes and refuses a malformed raw key", () => {
    expect(keyPragmaValue({ kind: 'passphrase', passphrase: "it's a secret" })).toBe("'it''s a secret'");
    expect(() => keyPragmaValue({ kind: 'raw', hex: 'abc' })).toThrow(KeyError);
  });

  it('a passphrase with a quote opens the database it created, and only that passphrase does', () => {
    const { file } = closedDatabase(parseKey("O'Brien's passphrase", 'test'));
    const store = openStore(file, parseKey("O'Brien's passphrase", 'test'));
    expect(rowCount(store.db, 'organizations')).toBe(1);
    store.close();
    expect(() => openStore(file, parseKey("O'Brien passphrase", 'test'))).toThrow(WrongKeyError);
  });

  function keyOptions(dir: string, overrides: Partial<Parameters<typeof headlessKey>[0]> = {}) {
    const logs: string[] = [];
    return {
      logs,
      options: {
        dbKey: undefined,
        keyFile: undefined,
        dataDir: dir,
        databaseFile: databaseFileIn(dir),
        log: (message: string) => logs.push(message),
        ...overrides,
      },
    };
  }

  it('headlessKey: AGENCY_DESK_DB_KEY wins over the key file and db.key', () => {
    const dir = freshDir();
    const keyFile = path.join(dir, 'other.key');
    fs.writeFileSync(keyFile, 'from the key file\n');
    fs.writeFileSync(path.join(dir, 'db.key'), 'from the default db.key\n');
    const { options } = keyOptions(dir, { dbKey: 'from the environment', keyFile });
    expect(headlessKey(options)).toEqual({ kind: 'passphrase', passphrase: 'from the environment' });
  });

  it('headlessKey: AGENCY_DESK_KEY_FILE wins over db.key', () => {
    const dir = freshDir();
    const keyFile = path.join(dir, 'other.key');
    fs.writeFileSync(keyFile, `${HEX}\n`);
    fs.writeFileSync(path.join(dir, 'db.key'), 'from the default db.key\n');
    const { options } = keyOptions(dir, { keyFile });
    expect(headlessKey(options)).toEqual({ kind: 'raw', hex: HEX.toLowerCase() });
  });

  it('headlessKey: an unreadable key file is a KeyError', () => {
    const dir = freshDir();
    const { options } = keyOptions(dir, { keyFile: path.join(dir, 'missing.key') });
    expect(() => headlessKey(options)).toThrow(KeyError);
  });

  it('headlessKey: an existing db.key in the data directory is used', () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'db.key'), `${HEX}\n`);
    const { options, logs } = keyOptions(dir);
    expect(headlessKey(options)).toEqual({ kind: 'raw', hex: HEX.toLowerCase() });
    expect(logs).toEqual([]);
  });

  it('headlessKey: refuses to create a new key when the database exists without one', () => {
    const { dir } = closedDatabase();
    const { options } = keyOptions(dir);
    expect(() => headlessKey(options)).toThrow(KeyError);
    expect(filesUnder(dir)).toEqual(['agency-desk.db']);
  });

  it('headlessKey: on first run creates db.key with mode 0600 holding a raw key that it returns', () => {
    const dir = path.join(freshDir(), 'not-yet-created');
    const { options, logs } = keyOptions(dir);
    const key = headlessKey(options);
    expect(key.kind).toBe('raw');
    const file = path.join(dir, 'db.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseKey(fs.readFileSync(file, 'utf8'), 'db.key')).toEqual(key);
    expect(logs.join('\n')).toContain(file);
    // The second run reads the same key back instead of making another.
    expect(headlessKey(keyOptions(dir).options)).toEqual(key);
  });
});

describe('backupDatabase', () => {
  let source: { dir: string; file: string; key: DatabaseKey };
  let store: Store;
  beforeAll(() => {
    source = closedDatabase();
    store = openStore(source.file, source.key);
  });
  afterAll(() => store.close());

  it('the copy opens with the same key and holds the same data', () => {
    const target = path.join(freshDir(), 'backup.db');
    backupDatabase(store.db, target);
    const copy = openStore(target, source.key);
    expect(copy.db.prepare('SELECT name FROM organizations').pluck().all()).toEqual(['Kept Agency']);
    copy.close();
  });

  it('the copy does not open with another key, and is not a plain SQLite file', () => {
    const target = path.join(freshDir(), 'backup.db');
    backupDatabase(store.db, target);
    expect(fs.readFileSync(target).subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
    const before = fileDigests(path.dirname(target));
    expect(() => openStore(target, randomKey())).toThrow(WrongKeyError);
    expect(fileDigests(path.dirname(target))).toEqual(before);
  });

  it('the copy has mode 0600', () => {
    const target = path.join(freshDir(), 'backup.db');
    backupDatabase(store.db, target);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
  });

  it('the copy is 0600 before SQLite writes into it: an empty file made for it, never readable by others', () => {
    const target = path.join(freshDir(), 'backup.db');
    let seen: { mode: number; size: number } | undefined;
    // The live database, except that VACUUM INTO first reports the file it is about to write into.
    const watched = {
      prepare: (sql: string) => {
        const statement = store.db.prepare(sql);
        return {
          run: (file: string) => {
            const stat = fs.statSync(file);
            seen = { mode: stat.mode & 0o777, size: stat.size };
            return statement.run(file);
          },
        };
      },
    } as unknown as Db;
    backupDatabase(watched, target);
    expect(seen).toEqual({ mode: 0o600, size: 0 });
  });

  it("replaces a crashed backup's non-empty temporary file, and leaves no temporary file behind", () => {
    const dir = freshDir();
    const target = path.join(dir, 'backup.db');
    fs.writeFileSync(`${target}.partial-${process.pid}`, 'half of an earlier copy', { mode: 0o644 });
    backupDatabase(store.db, target);
    expect(fs.readdirSync(dir)).toEqual(['backup.db']);
    const copy = openStore(target, source.key);
    expect(rowCount(copy.db, 'organizations')).toBe(1);
    copy.close();
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
  });

  it('a backup over an earlier backup replaces it', () => {
    const target = path.join(freshDir(), 'backup.db');
    fs.writeFileSync(target, 'an old backup');
    backupDatabase(store.db, target);
    const copy = openStore(target, source.key);
    expect(rowCount(copy.db, 'organizations')).toBe(1);
    copy.close();
  });

  it('a failed backup throws and leaves no partial file', () => {
    const parent = freshDir();
    // The target is a non-empty directory: the copy is written, then cannot be renamed over it.
    const target = path.join(parent, 'backup.db');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'keep.txt'), 'keep');
    expect(() => backupDatabase(store.db, target)).toThrow();
    expect(filesUnder(parent)).toEqual([path.join('backup.db', 'keep.txt')]);
  });

  it('a backup into a missing directory throws and creates nothing', () => {
    const parent = freshDir();
    expect(() => backupDatabase(store.db, path.join(parent, 'missing', 'backup.db'))).toThrow();
    expect(filesUnder(parent)).toEqual([]);
  });
});
