import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords.js';
import { createSession } from '../../server/auth/queries.js';
import { backupTarget } from '../../server/cli/backup.js';
import { countWords } from '../../server/cli/count-words.js';
import { insertApiToken } from '../../server/tokens/queries.js';
import { insertClient } from '../../server/clients/queries.js';
import { importLocations } from '../../server/locations/import.js';
import { parseKey } from '../../server/db/key.js';
import { openDatabase } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { insertOrganization } from '../../server/users/queries.js';
import { tempDir } from '../helpers/app.js';
import { buildServer, randomHexKey, runCli, runCliInterrupted } from '../helpers/server-process.js';
import { runAtTerminal } from '../helpers/terminal.js';

/**
 * `agency-desk` as a new user meets it (issue 11 §4): the real CLI process over a real encrypted
 * database, a real terminal for the password prompt.
 */

const COMMANDS = [
  'serve',
  'init',
  'user add',
  'user list',
  'user remove',
  'user reset-password',
  'client add',
  'client list',
  'backup',
  'restore',
  'export',
];

let dataDir: string;
const hexKey = randomHexKey();
const key = parseKey(hexKey, 'test');

const cli = (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  runCli({ dataDir, key: hexKey, args, ...options });

/** Runs `work` on the CLI's database, opened with its key as the server would. */
function inDatabase<T>(work: (db: ReturnType<typeof openStore>['db']) => T): T {
  const store = openStore(databaseFileIn(dataDir), key);
  try {
    return work(store.db);
  } finally {
    store.close();
  }
}

const userRow = (email: string) =>
  inDatabase(
    (db) =>
      db.prepare('SELECT id, role, client_id, password_hash FROM users WHERE email = ?').get(email) as
        { id: string; role: string; client_id: string | null; password_hash: string } | undefined,
  );

/** Every failure: exactly one line on standard error, "agency-desk: ...", never a stack. */
function expectOneLineError(result: { stderr: string; stdout: string }, pattern: RegExp): void {
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^agency-desk: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

beforeAll(async () => {
  buildServer();
  dataDir = tempDir('agency-desk-cli-');
  const created = await cli(['init', '--email', 'admin@example.com', '--org', 'CLI Agency'], {
    input: 'correct horse\n',
  });
  expect(created.code, created.stderr).toBe(0);
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('help and usage', () => {
  it('with no arguments prints the commands on standard error and exits 2', async () => {
    const result = await runCli({ dataDir, args: [] });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    for (const name of COMMANDS) expect(result.stderr).toContain(`  ${name} `);
  });

  it.each(COMMANDS)('%s --help explains the command and exits 0, without touching the database', async (name) => {
    // No key at all: help never needs the configuration.
    const result = await runCli({ dataDir: path.join(dataDir, 'nowhere'), args: [...name.split(' '), '--help'] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: agency-desk ${name}\\b`));
    expect(result.stdout).toContain('--help');
    expect(fs.existsSync(path.join(dataDir, 'nowhere'))).toBe(false);
  });

  it('"help user add" is "user add --help"', async () => {
    const [asked, flagged] = await Promise.all([cli(['help', 'user', 'add']), cli(['user', 'add', '-h'])]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe(flagged.stdout);
    expect(asked.stdout).toMatch(/Admin, Viewer or "Client Viewer"/);
  });

  it('"client --help" and "help client" list the group\'s commands (a walk got "Unknown command")', async () => {
    const [flagged, asked] = await Promise.all([cli(['client', '--help']), cli(['help', 'client'])]);
    expect([flagged.code, asked.code]).toEqual([0, 0]);
    expect(flagged.stdout).toBe(asked.stdout);
    expect(flagged.stdout).toMatch(/client add .*\n.*client list/);
    expect(flagged.stdout).not.toMatch(/^\s+user add/m);
  });

  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['user', 'promote'], /Unknown command "user promote": its commands are user add, user list/],
    [['client'], /Unknown command "client": its commands are client add, client list/],
    [['user', 'add', '--email', 'x@example.com', '--role', 'viewer', '--colour', 'red'], /unknown option --colour/i],
    // As "user add --email bad" is (init said it with exit 1): checked before the database or a password.
    [['init', '--email', 'not-an-address'], /email must match format "email"/],
    [['user', 'add', '--email', 'not-an-address', '--role', 'viewer'], /email must match format "email"/],
    [['user', 'add', '--role', 'viewer'], /user add needs --email/],
    [['backup'], /backup needs TARGET/],
    [['client', 'list', 'extra'], /unexpected argument "extra"/],
    // The last of two was taken: "--role viewer --role admin" added an Admin (a walk).
    [
      ['user', 'add', '--email', 'r4@example.com', '--role', 'viewer', '--role', 'admin'],
      /user add: --role is given more than once: give it once/,
    ],
  ])('%j is a usage error: exit 2, one line', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expectOneLineError(result, message);
  });

  it('--version prints the version, exit 0 (a walk got "Unknown command")', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    const result = await cli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`agency-desk ${manifest.version}\n`);
  });

  it('init on a database that has accounts already is refused, one line', async () => {
    const again = await cli(['init', '--email', 'second@example.com'], { input: 'correct horse\n' });
    expect(again.code).toBe(1);
    expectOneLineError(again, /already has accounts/);
  });

  it('a wrong key is one line, exit 1, and leaves the database as it was', async () => {
    const before = fs.readFileSync(databaseFileIn(dataDir));
    const result = await runCli({ dataDir, key: randomHexKey(), args: ['user', 'list'] });
    expect(result.code).toBe(1);
    expectOneLineError(result, /database key is wrong/);
    expect(fs.readFileSync(databaseFileIn(dataDir)).equals(before)).toBe(true);
  });
});

describe('users', () => {
  it.each([
    ['Viewer', 'viewer'],
    ['admin', 'admin'],
    ['ADMIN', 'admin'],
    ['viewer', 'viewer'],
  ])('user add --role %s adds a %s (the README writes roles that way)', async (written, role) => {
    const email = `${written.replaceAll(' ', '-').toLowerCase()}-${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const result = await cli(['user', 'add', '--email', email, '--role', written], { input: 'a long password\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(userRow(email)?.role).toBe(role);
  });

  it('a Client Viewer gets a client made with "client add", whose id it prints alone', async () => {
    const made = await cli(['client', 'add', '--name', '  Bluebird Coffee ', '--website', 'bluebird.example']);
    expect(made.code, made.stderr).toBe(0);
    const clientId = made.stdout.trim();
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    for (const [index, written] of ['Client Viewer', 'client_viewer', 'CLIENT-VIEWER'].entries()) {
      const email = `cv-${index}@example.com`;
      const result = await cli(['user', 'add', '--email', email, '--role', written, '--client', clientId], {
        env: { AGENCY_DESK_USER_PASSWORD: 'a long password' },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('as Client Viewer');
      expect(userRow(email)).toMatchObject({ role: 'client_viewer', client_id: clientId });
    }
    const listed = await cli(['client', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`${clientId}\\s+Bluebird Coffee\\s+0`));
  });

  it.each([
    [['--role', 'boss'], /Unknown role "boss"/, 2],
    [['--role', 'client viewer'], /--client is required for a Client Viewer/, 2],
    [['--role', 'viewer', '--client', '5e55b24d-9bb7-4736-9386-cb30ded28838'], /refused for the other roles/, 2],
    [['--role', 'client viewer', '--client', '5e55b24d-9bb7-4736-9386-cb30ded28838'], /No client with the id/, 1],
    [['--role', 'viewer', '--email', 'not an address'], /email must match format/, 2],
    [['--role', 'admin', '--email', 'ADMIN@example.com'], /already exists/, 1],
  ])('user add %j is refused, one line, nothing added', async (extra, message, code) => {
    // An option given twice is itself refused: the e-mail is given once.
    const args = ['user', 'add', ...(extra.includes('--email') ? [] : ['--email', 'refused@example.com']), ...extra];
    const result = await cli(args, { input: 'a long password\n' });
    expect(result.code).toBe(code);
    expectOneLineError(result, message);
    expect(userRow('refused@example.com')).toBeUndefined();
  });

  it('refuses a short password and an empty standard input, one line each', async () => {
    const short = await cli(['user', 'add', '--email', 'short@example.com', '--role', 'viewer'], { input: 'short\n' });
    expect(short.code).toBe(1);
    expectOneLineError(short, /password must NOT have fewer than 8 characters/);
    const none = await cli(['user', 'add', '--email', 'short@example.com', '--role', 'viewer'], { input: '' });
    expect(none.code).toBe(1);
    expectOneLineError(none, /No password/);
    expect(userRow('short@example.com')).toBeUndefined();
  });

  it('at a terminal, asks for the password twice without echoing it', async () => {
    const password = 'typed at a terminal';
    const run = await runAtTerminal(
      { dataDir, key: hexKey, args: ['user', 'add', '--email', 'typed@example.com', '--role', 'Viewer'] },
      [
        { after: /Password: $/, type: password },
        { after: /Repeat the password: $/, type: password },
      ],
    );
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toContain('Added typed@example.com as Viewer');
    expect(run.screen).not.toContain(password);
    const row = userRow('typed@example.com')!;
    expect(await verifyPassword(row.password_hash, password)).toBe(true);
  });

  it('at a terminal, two different passwords add nobody', async () => {
    const run = await runAtTerminal(
      { dataDir, key: hexKey, args: ['user', 'add', '--email', 'mistyped@example.com', '--role', 'viewer'] },
      [
        { after: /Password: $/, type: 'first password' },
        { after: /Repeat the password: $/, type: 'second password' },
      ],
    );
    expect(run.code).toBe(1);
    expect(run.screen).toContain('agency-desk: The two passwords differ: nothing was changed');
    expect(userRow('mistyped@example.com')).toBeUndefined();
  });

  it('user list shows each user with the role in words; --json is GET /api/users', async () => {
    const table = await cli(['user', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^E-MAIL\s+ROLE\s+CLIENT\s+ID$/m);
    expect(table.stdout).toMatch(/^admin@example\.com\s+Admin\s+[0-9a-f-]{36}$/m);
    expect(table.stdout).toMatch(/^cv-0@example\.com\s+Client Viewer\s+Bluebird Coffee\s+/m);
    const json = JSON.parse((await cli(['user', 'list', '--json'])).stdout) as Record<string, unknown>[];
    expect(json.find((user) => user.email === 'admin@example.com')).toEqual({
      id: expect.any(String),
      email: 'admin@example.com',
      role: 'admin',
      client_id: null,
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it('user reset-password sets the new password and ends the sessions and API tokens: the way back in for a lost Admin', async () => {
    const admin = userRow('admin@example.com')!;
    inDatabase((db) => {
      createSession(db, admin.id, Date.now());
      insertApiToken(
        db,
        { userId: admin.id, name: 'nightly', scopes: ['read'], clientId: null, expiresAt: null },
        Date.now(),
      );
    });
    const result = await cli(['user', 'reset-password', '--email', 'Admin@Example.com'], {
      input: 'a brand new password\n',
    });
    expect(result.code, result.stderr).toBe(0);
    const after = userRow('admin@example.com')!;
    expect(await verifyPassword(after.password_hash, 'a brand new password')).toBe(true);
    expect(await verifyPassword(after.password_hash, 'correct horse')).toBe(false);
    expect(
      inDatabase((db) => db.prepare('SELECT count(*) FROM sessions WHERE user_id = ?').pluck().get(admin.id)),
    ).toBe(0);
    expect(
      inDatabase((db) => db.prepare('SELECT count(*) FROM api_tokens WHERE user_id = ?').pluck().get(admin.id)),
    ).toBe(0);

    const unknown = await cli(['user', 'reset-password', '--email', 'nobody@example.com'], { input: 'whatever123\n' });
    expect(unknown.code).toBe(1);
    expectOneLineError(unknown, /No user with the e-mail nobody@example.com/);
  });

  it('user remove removes a user, never the last Admin', async () => {
    await cli(['user', 'add', '--email', 'leaving@example.com', '--role', 'viewer'], { input: 'a long password\n' });
    const removed = await cli(['user', 'remove', '--email', 'leaving@example.com']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(userRow('leaving@example.com')).toBeUndefined();

    // Remove every other Admin; the last one stays.
    const admins = inDatabase(
      (db) => db.prepare("SELECT email FROM users WHERE role = 'admin' ORDER BY email").pluck().all() as string[],
    );
    for (const email of admins.filter((email) => email !== 'admin@example.com')) {
      expect((await cli(['user', 'remove', '--email', email])).code).toBe(0);
    }
    const last = await cli(['user', 'remove', '--email', 'admin@example.com']);
    expect(last.code).toBe(1);
    expectOneLineError(last, /is the last Admin/);
    expect(userRow('admin@example.com')).toBeDefined();
  });
});

describe('clients', () => {
  it.each([
    [['--name', '   '], /--name must not be blank/],
    [['--name', 'Acme', '--website', 'not a website'], /--website must be a domain/],
    [['--name', 'x'.repeat(201)], /name must NOT have more than 200 characters/],
    [['--name', 'Bell\u0007 Co'], /: name holds the control character U\+0007$/],
    [['--name', 'Acme', '--industry', '\u001b[31mRed'], /: industry holds the control character U\+001B$/],
  ])('client add %j is refused like POST /api/clients', async (args, message) => {
    const before = inDatabase((db) => db.prepare('SELECT count(*) FROM clients').pluck().get());
    const result = await cli(['client', 'add', ...args]);
    expect(result.code).toBe(2);
    expectOneLineError(result, message);
    expect(inDatabase((db) => db.prepare('SELECT count(*) FROM clients').pluck().get())).toBe(before);
  });

  it('client list --json is GET /api/clients', async () => {
    const made = await cli(['client', 'add', '--name', 'Aardvark Books', '--industry', 'Retail']);
    const clients = JSON.parse((await cli(['client', 'list', '--json'])).stdout) as Record<string, unknown>[];
    expect(clients.find((client) => client.name === 'Aardvark Books')).toEqual({
      id: made.stdout.trim(),
      name: 'Aardvark Books',
      industry: 'Retail',
      website: null,
      created_at: expect.stringMatching(/Z$/),
      locations_count: 0,
    });
  });
});

describe('audit trail', () => {
  interface TrailRow {
    seq: number;
    action: string;
    actor_type: string;
    actor_name: string | null;
    actor_id: string | null;
    target_type: string;
    target_name: string;
    client_id: string | null;
    changes: string | null;
    summary: string | null;
  }
  const trailAfter = (seq: number) =>
    inDatabase(
      (db) =>
        db
          .prepare(
            `SELECT seq, action, actor_type, actor_name, actor_id, target_type, target_name, client_id, changes, summary
             FROM audit_entries WHERE seq > ? ORDER BY seq`,
          )
          .all(seq) as TrailRow[],
    );
  const lastSeq = () =>
    inDatabase((db) => db.prepare('SELECT coalesce(max(seq), 0) FROM audit_entries').pluck().get() as number);

  it('init left the first entry: the Admin created by the command line', () => {
    const first = trailAfter(0)[0]!;
    expect(first).toMatchObject({ action: 'user.created', actor_type: 'system', target_name: 'admin@example.com' });
    expect(first.actor_name).toMatch(/^the command line \(.+\)$/);
    expect(JSON.parse(first.summary!)).toEqual({ role: 'admin' });
  });

  it('each change by the command line is one entry naming it, written with the change; a refused one writes none', async () => {
    const since = lastSeq();
    const client = (await cli(['client', 'add', '--name', 'Trail Bakery'])).stdout.trim();
    const email = 'trail-viewer@example.com';
    const add = ['user', 'add', '--email', email, '--role', 'Client Viewer', '--client', client];
    expect((await cli(add, { input: 'a long password\n' })).code).toBe(0);
    expect((await cli(['user', 'reset-password', '--email', email], { input: 'another password\n' })).code).toBe(0);
    expect((await cli(['user', 'remove', '--email', email])).code).toBe(0);
    expect((await cli(['user', 'remove', '--email', email])).code).toBe(1);
    expect((await cli(['client', 'add', '--name', '  '])).code).toBe(2);

    const trail = trailAfter(since);
    expect(trail.map((entry) => [entry.action, entry.target_type, entry.target_name, entry.client_id])).toEqual([
      ['client.created', 'client', 'Trail Bakery', client],
      ['user.created', 'user', email, client],
      ['user.updated', 'user', email, client],
      ['user.deleted', 'user', email, client],
    ]);
    for (const entry of trail) {
      expect(entry).toMatchObject({ actor_type: 'system', actor_id: null });
      expect(entry.actor_name).toMatch(/^the command line \(.+\)$/);
    }
    expect(JSON.parse(trail[1]!.summary!)).toEqual({ role: 'client_viewer' });
    // A password is only ever "changed" in the trail, never its hash.
    expect(JSON.parse(trail[2]!.changes!)).toEqual({ password: { from: '(hidden)', to: '(changed)' } });
  });
});

describe('backup', () => {
  it('into a folder names the file itself; the copy opens with the key only', async () => {
    const folder = tempDir('agency-desk-cli-backups-');
    const result = await cli(['backup', folder]);
    expect(result.code, result.stderr).toBe(0);
    const files = fs.readdirSync(folder);
    expect(files).toEqual([expect.stringMatching(/^agency-desk-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/)]);
    const file = path.join(folder, files[0]!);
    expect(result.stdout).toContain(file);
    const copy = openDatabase(file, key);
    expect(copy.prepare('SELECT name FROM organizations').pluck().get()).toBe('CLI Agency');
    copy.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.rmSync(folder, { recursive: true });
  });

  it('into a folder that holds a backup of the same second takes the next free name, never replacing it', () => {
    const folder = tempDir('agency-desk-cli-backups-');
    const now = new Date('2026-03-04T05:06:07.800Z');
    const first = path.join(folder, 'agency-desk-2026-03-04T05-06-07Z.db');
    expect(backupTarget(folder, now)).toBe(first);
    fs.writeFileSync(first, 'the first');
    expect(backupTarget(folder, now)).toBe(path.join(folder, 'agency-desk-2026-03-04T05-06-07Z-2.db'));
    fs.writeFileSync(path.join(folder, 'agency-desk-2026-03-04T05-06-07Z-2.db'), 'the second');
    expect(backupTarget(folder, now)).toBe(path.join(folder, 'agency-desk-2026-03-04T05-06-07Z-3.db'));
    // A file named as the target is the target: it is replaced, as `backup TARGET` says.
    expect(backupTarget(first, now)).toBe(first);
    // Into the installation's own backups folder: a manual backup, listed by the dashboard (a walk).
    const data = tempDir('agency-desk-cli-data-');
    fs.mkdirSync(path.join(data, 'backups'));
    expect(backupTarget(path.join(data, 'backups'), now, data)).toBe(
      path.join(data, 'backups', 'manual-2026-03-04T05-06-07Z.db'),
    );
    fs.rmSync(data, { recursive: true });
    fs.rmSync(folder, { recursive: true });
  });

  it('into a missing folder is one line, exit 1, and writes nothing', async () => {
    const folder = tempDir('agency-desk-cli-backups-');
    const result = await cli(['backup', path.join(folder, 'missing', 'copy.db')]);
    expect(result.code).toBe(1);
    expectOneLineError(result, /Cannot write the backup to .*copy\.db: its folder does not exist/);
    expect(fs.readdirSync(folder)).toEqual([]);
    fs.rmSync(folder, { recursive: true });
  });
});

describe('what backup, export and restore never write over, nor read as a backup (a walk lost a database and its key)', () => {
  it('the live database, its journals and the key file are refused, one line, exit 1, nothing written', async () => {
    const database = path.join(dataDir, 'agency-desk.db');
    const before = fs.readFileSync(database);
    const keyFile = tempDir('agency-desk-cli-key-');
    const keyPath = path.join(keyFile, 'my.key');
    fs.writeFileSync(keyPath, hexKey);
    for (const [args, words, env] of [
      [['backup', database], /is the live database: write the copy somewhere else/, {}],
      [['backup', `${database}-wal`], /is the live database's write-ahead log/, {}],
      [['backup', path.join(dataDir, 'db.key')], /is the database's key/, {}],
      [['export', path.join(dataDir, 'agency-desk.db.csv')], null, {}],
      [['backup', keyPath], /is the database's key/, { AGENCY_DESK_KEY_FILE: keyPath }],
    ] as const) {
      const result = await cli([...args], { env });
      if (words === null) {
        // A name beside the database is no harm: written, then removed.
        expect(result.code, result.stderr).toBe(0);
        fs.rmSync(args[1], { force: true });
        continue;
      }
      expect(result.code, result.stdout).toBe(1);
      expectOneLineError(result, words);
    }
    expect(fs.readFileSync(database).equals(before)).toBe(true);
    expect(fs.readFileSync(keyPath, 'utf8')).toBe(hexKey);
    fs.rmSync(keyFile, { recursive: true });
  });

  it('a target that is no regular file, or ends with a slash with no such folder -> one line, exit 1', async () => {
    const folder = tempDir('agency-desk-cli-targets-');
    const pipe = path.join(folder, 'a-pipe');
    execFileSync('mkfifo', [pipe]);
    const fifo = await cli(['backup', pipe]);
    expect(fifo.code).toBe(1);
    expectOneLineError(fifo, /is not a regular file \(a device, a pipe or a socket\): nothing was written/);
    const slash = await cli(['backup', `${path.join(folder, 'nodir')}/`]);
    expect(slash.code).toBe(1);
    expectOneLineError(slash, /nodir\/ names a folder, and there is no such folder/);
    expect(fs.readdirSync(folder)).toEqual(['a-pipe']);
    fs.rmSync(folder, { recursive: true });
  });

  it("a key file that cannot be read is said in words, not Node's (a walk)", async () => {
    const missing = path.join(dataDir, 'no-such.key');
    const restoreWith = await cli(['restore', path.join(dataDir, 'whatever.db'), '--key-file', missing]);
    expect(restoreWith.code).toBe(1);
    expectOneLineError(restoreWith, new RegExp(`Cannot read the key file ${missing}: there is no such file$`));
    const serveWith = await cli(['user', 'list'], {
      env: { AGENCY_DESK_DB_KEY: undefined, AGENCY_DESK_KEY_FILE: missing },
    });
    expect(serveWith.code).toBe(1);
    expectOneLineError(serveWith, /Cannot read the key file .*no-such\.key: there is no such file$/);
  });

  it('restore refuses the live database itself, and a backup killed halfway, saying which', async () => {
    const self = await cli(['restore', path.join(dataDir, 'agency-desk.db')]);
    expect(self.code).toBe(1);
    expectOneLineError(self, /is the live database itself: restore one of its backups \(nothing was changed\)/);
    const partial = path.join(tempDir('agency-desk-cli-partial-'), 'auto-2026-01-01T00-00-00Z.db.partial-123');
    fs.writeFileSync(partial, 'half');
    const half = await cli(['restore', partial]);
    expect(half.code).toBe(1);
    expectOneLineError(half, /is an unfinished backup/);
  });
});

describe('Ctrl-C during a backup or an export (a walk: 22 MB temporaries left behind for good)', () => {
  it('leaves the whole file or none, never a temporary, whenever it comes', async () => {
    // A database big enough for its copy to take a while: 60,000 locations.
    const bigDir = tempDir('agency-desk-cli-big-');
    const store = openStore(databaseFileIn(bigDir), key);
    const organizationId = insertOrganization(store.db, 'Big Agency', Date.now());
    const clientId = insertClient(
      store.db,
      organizationId,
      { name: 'Big client', industry: null, website: null },
      Date.now(),
    ).id;
    const rows = Array.from({ length: 60_000 }, (_, i) => ({
      name: `Store ${i}`,
      address: `${i} Main St`,
      city: 'Leeds',
    }));
    const body = new TextEncoder().encode(JSON.stringify({ clientId, rows }));
    const imported = importLocations(store.db, {
      organizationId,
      body,
      dryRun: false,
      duplicates: 'skip',
      mode: 'create',
      blanks: 'keep',
      now: Date.now(),
    });
    expect(imported.statusCode).toBe(201);
    store.close();
    const out = tempDir('agency-desk-cli-out-');
    for (const [args, afterMs] of [
      [['backup', path.join(out, 'copy.db')], 350],
      [['backup', path.join(out, 'copy.db')], 550],
      [['backup', path.join(out, 'copy.db')], 750],
      [['export', path.join(out, 'plain.csv')], 450],
      [['export', path.join(out, 'plain.csv')], 650],
    ] as const) {
      const result = await runCliInterrupted({ dataDir: bigDir, key: hexKey, args: [...args] }, afterMs);
      // Finished (0), stopped between steps (130), or stopped before it began, by the signal itself (null).
      expect([0, 130, null], result.stderr).toContain(result.code);
      expect(
        fs.readdirSync(out).filter((name) => /partial|journal/.test(name)),
        `${args[0]} at ${afterMs} ms`,
      ).toEqual([]);
    }
    fs.rmSync(out, { recursive: true });
    fs.rmSync(bigDir, { recursive: true });
  }, 60_000);
});

describe('counts in the words the CLI prints ("Restored … (1 client, 15 locations)", "Exported 1 location")', () => {
  it.each([
    [0, 'client', '0 clients'],
    [1, 'client', '1 client'],
    [1, 'location', '1 location'],
    [15, 'location', '15 locations'],
  ])('%i %s -> %s', (count, one, words) => {
    expect(countWords(count, one)).toBe(words);
  });
});

describe('export', () => {
  // What a spreadsheet would run as a formula (OWASP's CSV injection list), one a line too.
  const HOSTILE = [
    '=HYPERLINK("http://evil.example","Click")',
    "-2+3+cmd|' /C calc'!A0",
    '@SUM(1,1)',
    '+1',
    '\t=1',
    '=1\n+2',
  ];

  beforeAll(() => {
    inDatabase((db) => {
      const clientId = db.prepare("SELECT id FROM clients WHERE name = 'Bluebird Coffee'").pluck().get() as string;
      const insert = db.prepare(
        `INSERT INTO locations (id, client_id, name, address, city, latitude, health_score, health_status, created_at)
         VALUES (?, ?, ?, ?, 'Leeds', -33.5, 40, 'red', '2026-01-01T00:00:00.000Z')`,
      );
      HOSTILE.forEach((address, i) =>
        insert.run(`00000000-0000-4000-8000-00000000000${i}`, clientId, `Branch ${i}`, address),
      );
    });
  });

  it('FILE.csv: every location with its client, formulas defused, 0600, with a warning', async () => {
    const file = path.join(dataDir, 'export.csv');
    const result = await cli(['export', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^WARNING: .*export\.csv is NOT encrypted/);
    expect(result.stdout).toContain(`Exported ${HOSTILE.length} locations`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const rows = Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows).toHaveLength(HOSTILE.length);
    expect(rows.map((row) => row.address)).toEqual(HOSTILE.map((value) => `'${value}`));
    expect(rows[0]).toMatchObject({
      client_name: 'Bluebird Coffee',
      name: 'Branch 0',
      city: 'Leeds',
      latitude: '-33.5',
    });
    for (const internal of ['match_key', 'health_notes', 'created_by', 'revision'])
      expect(Object.keys(rows[0]!)).not.toContain(internal);
  });

  it('FILE.json: the organization, clients, users without passwords, and every location', async () => {
    const file = path.join(dataDir, 'export.json');
    const result = await cli(['export', file]);
    expect(result.code, result.stderr).toBe(0);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      format: string;
      organization: { name: string };
      clients: { name: string }[];
      users: Record<string, unknown>[];
      locations: { address: string; latitude: number }[];
    };
    expect(data.format).toBe('agency-desk-export');
    expect(data.organization.name).toBe('CLI Agency');
    expect(data.clients.map((client) => client.name)).toContain('Bluebird Coffee');
    expect(data.users.every((user) => !('password_hash' in user))).toBe(true);
    expect(data.locations.map((location) => location.address)).toEqual(HOSTILE);
    expect(data.locations[0]!.latitude).toBe(-33.5);
  });

  it('refuses another extension and a missing folder, one line each', async () => {
    const wrong = await cli(['export', path.join(dataDir, 'export.xlsx')]);
    expect(wrong.code).toBe(2);
    expectOneLineError(wrong, /export writes a \.csv or a \.json file/);
    const missing = await cli(['export', path.join(dataDir, 'missing', 'export.csv')]);
    expect(missing.code).toBe(1);
    expectOneLineError(missing, /Cannot write .*export\.csv: its folder does not exist/);
    // A folder that is there but takes no file says ENOENT too: not "does not exist" (a walk).
    const kernel = await cli(['export', '/proc/export.csv']);
    expect(kernel.code).toBe(1);
    expectOneLineError(kernel, /Cannot write \/proc\/export\.csv: no file can be created in that folder$/);
  });
});
