import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOCATOR_SETTINGS } from '../../server/memory.js';
import { tempDir } from '../helpers/app.js';
import {
  buildServer,
  callServer,
  GLIBC,
  randomHexKey,
  startServerProcess,
  type ServerProcess,
} from '../helpers/server-process.js';

const ADMIN = { AGENCY_DESK_ADMIN_EMAIL: 'owner@example.com', AGENCY_DESK_ADMIN_PASSWORD: 'owner password 1' };
/** Writes glibc's malloc_stats() to the server's standard error on SIGUSR2. */
const PROBE = fileURLToPath(new URL('../helpers/malloc-arenas.mjs', import.meta.url));

let server: ServerProcess;
let dataDir: string;

/** The server's arenas now: the "Arena N:" blocks of the malloc_stats() it writes on SIGUSR2. */
async function arenas(): Promise<number> {
  const before = server.output().stderr.length;
  server.process.kill('SIGUSR2');
  for (let waited = 0; waited < 200; waited++) {
    const written = server.output().stderr.slice(before);
    const end = written.indexOf('malloc_stats end');
    if (end >= 0) return written.slice(0, end).match(/^Arena \d+:$/gm)?.length ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no malloc_stats from the server: ${server.output().stderr}`);
}

/** An import of `count` rows into a new client, over HTTP: the writer's and the planner's threads start. */
async function importRows(token: string, count: number): Promise<number> {
  const client = await callServer<{ id: string }>(server.url, 'POST', '/api/clients', token, '{"name":"Arenas"}');
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `Store ${i}`,
    address: `${i} Main Street`,
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'US',
  }));
  const body = JSON.stringify({ clientId: client.body.id, rows });
  const answer = await callServer<{ count: number }>(server.url, 'POST', '/api/locations/upload', token, body);
  expect(answer.status).toBe(201);
  return answer.body.count;
}

describe.runIf(process.platform === 'linux' && GLIBC !== undefined)('the server process on glibc', () => {
  beforeAll(async () => {
    buildServer();
    dataDir = tempDir('agency-desk-arenas-');
    server = await startServerProcess({ dataDir, key: randomHexKey(), env: ADMIN, nodeFlags: ['--import', PROBE] });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('tunes the allocator before the program loads: 4 arenas at most, and none more for the threads an import starts', async () => {
    const atStart = await arenas();
    const signIn = JSON.stringify({ email: ADMIN.AGENCY_DESK_ADMIN_EMAIL, password: ADMIN.AGENCY_DESK_ADMIN_PASSWORD });
    const session = await callServer<{ access_token: string }>(server.url, 'POST', '/auth/callback', null, signIn);
    expect(session.status).toBe(200);
    expect(await importRows(session.body.access_token, 2_000)).toBe(2_000);
    // The bound (2), and the arenas of the threads that read the entry's three modules before it was set
    // (server/cli.ts). Set when the server was built, after the rest had loaded, it found 8 made already.
    expect(atStart).toBeLessThanOrEqual(ALLOCATOR_SETTINGS.arenaMax + 2);
    expect(await arenas()).toBe(atStart);
  });
});
