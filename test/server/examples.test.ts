import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import {
  buildServer,
  randomHexKey,
  REPO_ROOT,
  startServerProcess,
  type ServerProcess,
} from '../helpers/server-process.js';

/** The README's "Writing a script" examples, run as a newcomer would against a real server. */
const ADMIN = { email: 'scripter@example.com', password: 'scripter-password-1' };
const dataDir = tempDir('agency-desk-examples-');
let server: ServerProcess;
let token: string;
let readOnly: string;

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        AGENCY_DESK_URL: server.url,
        AGENCY_DESK_TOKEN: token,
        AGENCY_DESK_PAGE_SIZE: '2',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function csvFile(name: string, text: string): string {
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  buildServer();
  server = await startServerProcess({
    dataDir,
    key: randomHexKey(),
    env: { AGENCY_DESK_ADMIN_EMAIL: ADMIN.email, AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password },
  });
  const post = async (pathname: string, body: unknown, bearer?: string) =>
    (
      await fetch(server.url + pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      })
    ).json() as Promise<Record<string, string>>;
  const session = (await post('/auth/callback', ADMIN)).access_token!;
  token = (await post('/api/tokens', { name: 'examples', scopes: ['read', 'import', 'clients'] }, session)).token!;
  readOnly = (await post('/api/tokens', { name: 'read only', scopes: ['read', 'import'] }, session)).token!;
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ROWS =
  'name,address,city,country\nBluebird Downtown,1 Main St,Portland,US\nBluebird Airport,7 Gate Rd,Portland,US\nBluebird Pearl,9 Pearl St,Portland,US\n';

/** A clean run of the sync script: its import line, then the client's locations by name, in order. */
function expectImportedAndListed(result: Awaited<ReturnType<typeof run>>, imported: string, names: string[]): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines[0]).toBe(imported);
  expect(lines.slice(1).map((line) => line.split('\t')[0])).toEqual(names);
}

describe('examples/sync_locations.py (Python, standard library only)', () => {
  it('creates the client, imports the rows, lists them a page at a time', async () => {
    const result = await run('python3', ['examples/sync_locations.py', 'Bluebird Coffee', csvFile('rows.csv', ROWS)]);
    expectImportedAndListed(result, 'imported rows.csv: 3 created, 0 updated, 0 unchanged, 0 skipped', [
      'Bluebird Downtown',
      'Bluebird Airport',
      'Bluebird Pearl',
    ]);
  });

  it('run again with the name in another case: the same client, not a second one', async () => {
    const result = await run('python3', ['examples/sync_locations.py', 'BLUEBIRD COFFEE', csvFile('rows.csv', ROWS)]);
    expect(result.code).toBe(0);
    // An upsert: the same rows again change nothing.
    expect(result.stdout.split('\n')[0]).toBe('imported rows.csv: 0 created, 0 updated, 3 unchanged, 0 skipped');
    const clients = (await (
      await fetch(`${server.url}/api/clients`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as unknown[];
    expect(clients).toHaveLength(1);
  });

  it('a bad row: the 400 details are printed, exit 1, nothing imported', async () => {
    const result = await run('python3', [
      'examples/sync_locations.py',
      'Bluebird Coffee',
      csvFile('bad.csv', 'name,address,city\n,No Name St,Portland\n'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^line 2: name /m);
  });

  it('the example file as Excel saves it (a byte order mark, CRLF, the template headers) imports whole', async () => {
    const result = await run('python3', ['examples/sync_locations.py', 'Example Bluebird', 'examples/locations.csv']);
    expectImportedAndListed(result, 'imported locations.csv: 3 created, 0 updated, 0 unchanged, 0 skipped', [
      'Bluebird Downtown',
      'Bluebird Airport Kiosk',
      'Bluebird Campus',
    ]);
  });

  it('a refusal is one line in the server’s words and exit 1, never a traceback', async () => {
    const result = await run('python3', ['examples/sync_locations.py', 'Not Here Yet', csvFile('rows.csv', ROWS)], {
      AGENCY_DESK_TOKEN: readOnly,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sync_locations\.py: 403 Forbidden: .+\n$/);
    expect(result.stderr).not.toContain('Traceback');
  });
});

describe('examples/list-locations.mjs (Node, fetch)', () => {
  it("prints the client's locations with their health, a page at a time", async () => {
    const result = await run(process.execPath, ['examples/list-locations.mjs', 'bluebird coffee']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('a client of no such name: exit 1', async () => {
    const result = await run(process.execPath, ['examples/list-locations.mjs', 'Nobody Inc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No client named Nobody Inc/);
  });
});
