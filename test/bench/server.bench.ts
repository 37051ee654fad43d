import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { WRITER_CACHE_MIB } from '../../server/db/open.js';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn, startServer } from '../../server/start.js';
import { insertClient } from '../../server/clients/queries.js';
import { insertOrganization } from '../../server/users/queries.js';
import type { Bench } from './report.js';
import { realisticRows } from './rows.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'dist/server/cli.js');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const ROWS = 100_000;
const RUNS = 3;

interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'agency-desk-bench-'));
}

/** A process that prints a URL on stdout when ready, matched by `ready`. */
function spawnUntil(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) {
        resolve({
          url: match[1]!,
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready:\n${out}\n${err}`)));
  });
}

const serve = (dataDir: string, key: string) =>
  spawnUntil(
    [CLI, 'serve'],
    {
      AGENCY_DESK_DATA_DIR: dataDir,
      AGENCY_DESK_DB_KEY: key,
      AGENCY_DESK_PORT: '0',
      AGENCY_DESK_ADMIN_EMAIL: ADMIN.email,
      AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password,
      AGENCY_DESK_LOG_LEVEL: 'silent',
    },
    /listening on (http:\/\/\S+)/,
  );

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function login(url: string): Promise<string> {
  const body = await json<{ access_token: string }>(`${url}/auth/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return body.access_token;
}

async function createClient(url: string, token: string, name: string): Promise<string> {
  const body = await json<{ id: string }>(`${url}/api/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  });
  return body.id;
}

/** Peak resident memory of a process, from the kernel (Linux). */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * The floor: the same work done directly in-process with the project's own libraries, on a database
 * of the same schema. One run a call, so that floor and figure runs can alternate under the same load.
 */
function floorImporter() {
  const dir = tmp();
  const store = openStore(databaseFileIn(dir), { kind: 'raw', hex: randomBytes(32).toString('hex') });
  // At least the writer thread's page cache (16 MiB, twice the server's): the floor inserts as well as
  // the server can, and better.
  store.db.pragma(`cache_size = -${Math.max(WRITER_CACHE_MIB, 16) * 1024}`);
  const organizationId = insertOrganization(store.db, 'Floor', Date.now());
  // The plain way: one prepared INSERT a row, in one transaction (SQLite's automatic checkpoint on).
  const insert = store.db.prepare(
    `INSERT INTO locations (id, client_id, name, address, city, state, zip, country, google_place_id,
       health_score, health_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const clientIds: string[] = [];
  const run = (body: string): number => {
    const clientId = insertClient(
      store.db,
      organizationId,
      { name: `c${clientIds.length}`, industry: null, website: null },
      Date.now(),
    ).id;
    clientIds.push(clientId);
    const start = process.hrtime.bigint();
    const parsed = JSON.parse(body) as { rows: Record<string, string>[] };
    const now = new Date().toISOString();
    store.db.transaction(() => {
      for (const row of parsed.rows) {
        insert.run(
          randomUUID(),
          clientId,
          row.name,
          row.address,
          row.city,
          row.state,
          row.zip,
          row.country,
          row.google_place_id,
          100,
          'green',
          now,
        );
      }
    })();
    return ms(start);
  };
  return { run, store, dir, clientIds };
}

function floorList(store: ReturnType<typeof openStore>, clientId: string): number {
  const select = store.db.prepare(
    `SELECT id, name, address, city, state, zip, country, health_score, health_status, created_at
     FROM locations WHERE client_id = ? ORDER BY rowid`,
  );
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const text = JSON.stringify(select.all(clientId));
    if (text.length < 1000) throw new Error('floor listing is empty');
    times.push(ms(start));
  }
  return Math.min(...times);
}

/**
 * Sends GET /api/clients every 20 ms from a separate process (so that the bench's own work cannot delay
 * it) until stopped; returns the longest wait for a complete answer.
 */
async function probeClients(url: string, token: string) {
  const script = `
    let worst = 0, count = 0, running = true; const pending = [];
    const timer = setInterval(() => {
      const start = performance.now();
      pending.push(fetch(process.env.URL + '/api/clients', { headers: { authorization: 'Bearer ' + process.env.TOKEN } })
        .then((r) => r.arrayBuffer()).then(() => { worst = Math.max(worst, performance.now() - start); count++; }));
    }, 20);
    process.stdin.once('data', async () => { clearInterval(timer); await Promise.all(pending);
      console.log(JSON.stringify({ worst, count })); process.exit(0); });
    console.log('probing on http://-');`;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, URL: url, TOKEN: token },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  await new Promise<void>((resolve) => {
    const check = () => (out.includes('probing') ? resolve() : setTimeout(check, 5));
    check();
  });
  return async (): Promise<{ worst: number; count: number }> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.write('stop\n');
    await exited;
    return JSON.parse(out.split('\n').find((line) => line.startsWith('{'))!) as { worst: number; count: number };
  };
}

async function rps(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: 5, pipelining: 1 });
  return result.requests.average;
}

const bench: Bench = async (record) => {
  const key = randomBytes(32).toString('hex');
  const dataDir = tmp();
  let served = await serve(dataDir, key);
  const token = await login(served.url);
  const body = JSON.stringify({ clientId: '00000000-0000-4000-8000-000000000000', rows: realisticRows(ROWS) });
  const bodyMb = Buffer.byteLength(body) / 1048576;

  // 1. Import over HTTP vs the floor, with the responsiveness probe running.
  const floor = floorImporter();
  const floorTimes: number[] = [];
  const importTimes: number[] = [];
  let worstProbe = 0;
  let probes = 0;
  let listClientId = '';
  for (let run = 0; run < RUNS; run++) {
    floorTimes.push(floor.run(body));
    const clientId = await createClient(served.url, token, `Bench ${run}`);
    listClientId ||= clientId;
    const payload = body.replace('00000000-0000-4000-8000-000000000000', clientId);
    const stopProbe = await probeClients(served.url, token);
    const start = process.hrtime.bigint();
    const response = await fetch(`${served.url}/api/locations/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: payload,
    });
    const result = (await response.json()) as { count: number };
    importTimes.push(ms(start));
    const probe = await stopProbe();
    worstProbe = Math.max(worstProbe, probe.worst);
    probes += probe.count;
    if (response.status !== 201 || result.count !== ROWS)
      throw new Error(`import: ${response.status} ${JSON.stringify(result).slice(0, 300)}`);
  }
  const importTime = Math.min(...importTimes);
  const floorTime = Math.min(...floorTimes);
  console.log(
    `  runs (ms): HTTP import ${importTimes.map(Math.round).join(' ')}; floor ${floorTimes.map(Math.round).join(' ')}`,
  );
  record({
    name: `Import ${ROWS} rows (${bodyMb.toFixed(1)} MiB JSON) over HTTP`,
    value: importTime,
    unit: 'ms',
    floor: floorTime,
    floorLabel:
      'JSON.parse + one-transaction prepared insert (a call a row, checkpoint in COMMIT, 16 MiB cache), encrypted, same indexes, in-process; runs alternate',
    target: '<= 1.3x floor',
    pass: importTime <= 1.3 * floorTime,
  });
  record({
    name: `Longest GET /api/clients wait during the imports (${probes} requests, one every 20 ms)`,
    value: worstProbe,
    unit: 'ms',
    target: '< 100 ms',
    pass: worstProbe < 100,
  });
  // The figure: the server's peak while it imports (three imports of 100,000 rows, with the probe).
  const importPeak = peakRssMb(served.child.pid!);
  record({
    name: 'Peak server memory (RSS) during the three imports',
    value: importPeak,
    unit: 'MB',
    target: '< 300 MB',
    pass: importPeak < 300,
  });

  // 2. Listing 100,000 locations until the last byte vs .all() + JSON.stringify in-process.
  const listFloor = floorList(floor.store, floor.clientIds[0]!);
  const listTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const response = await fetch(`${served.url}/api/locations?clientId=${listClientId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const bytes = await response.arrayBuffer();
    listTimes.push(ms(start));
    if (response.status !== 200 || bytes.byteLength < ROWS * 100) throw new Error(`list: ${response.status}`);
  }
  const listTime = Math.min(...listTimes);
  record({
    name: `List ${ROWS} locations over HTTP, to the last byte`,
    value: listTime,
    unit: 'ms',
    floor: listFloor,
    floorLabel: 'SELECT .all() + JSON.stringify, in-process',
    target: '<= floor',
    pass: listTime <= listFloor,
  });
  floor.store.close();
  fs.rmSync(floor.dir, { recursive: true, force: true });

  // 3. Authenticated GET /api/clients per second vs a bare Fastify route returning the same JSON.
  const clientsJson = await (
    await fetch(`${served.url}/api/clients`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const bare = await spawnUntil(
    [
      '--input-type=module',
      '-e',
      `import fastify from 'fastify';
       const app = fastify();
       const body = JSON.parse(process.env.BODY);
       app.get('/api/clients', async () => body);
       await app.listen({ host: '127.0.0.1', port: 0 });
       console.log('bare on http://127.0.0.1:' + app.server.address().port);`,
    ],
    { BODY: clientsJson },
    /on (http:\/\/\S+)/,
  );
  const bareRps = await rps(`${bare.url}/api/clients`, {});
  await bare.stop();
  const appRps = await rps(`${served.url}/api/clients`, { authorization: `Bearer ${token}` });
  record({
    name: 'Authenticated GET /api/clients',
    value: appRps,
    unit: 'req/s',
    floor: bareRps,
    floorLabel: 'bare Fastify route returning the same JSON; here the floor is the ceiling',
    target: '>= 0.4x',
    pass: appRps >= 0.4 * bareRps,
  });

  record({
    name: 'Peak server memory (RSS) through all of the above (imports, listing, the requests-per-second run)',
    value: peakRssMb(served.child.pid!),
    unit: 'MB',
  });

  // 4. Cold start of serve on the existing database (key, migrations check) to the first answer.
  await served.stop();
  const coldStarts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    served = await serve(dataDir, key);
    const response = await fetch(`${served.url}/health`);
    if (response.status !== 200) throw new Error('cold start: /health failed');
    coldStarts.push(ms(start));
    await served.stop();
  }
  const nodeStarts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const node = await spawnUntil(
      [
        '-e',
        `const s=require('http').createServer((q,r)=>r.end('ok')).listen(0,'127.0.0.1',()=>console.log('on http://127.0.0.1:'+s.address().port))`,
      ],
      {},
      /on (http:\/\/\S+)/,
    );
    await fetch(node.url);
    nodeStarts.push(ms(start));
    await node.stop();
  }
  record({
    name: 'Cold start of serve on an existing database to the first answered request',
    value: Math.min(...coldStarts),
    unit: 'ms',
    floor: Math.min(...nodeStarts),
    floorLabel: 'node with a bare http server to its first answer',
  });
  fs.rmSync(dataDir, { recursive: true, force: true });

  // 5. Event-loop delay while 10 logins verify passwords at once (in-process, where the loop is measured).
  const loginDir = tmp();
  const running = await startServer({
    dataDir: loginDir,
    key: { kind: 'raw', hex: key },
    port: 0,
    logger: false,
    dashboardDir: null,
    admin: { ...ADMIN, organizationName: 'Bench' },
  });
  await login(running.url);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await Promise.all(Array.from({ length: 10 }, () => login(running.url)));
  histogram.disable();
  await running.close();
  fs.rmSync(loginDir, { recursive: true, force: true });
  const p99 = histogram.percentile(99) / 1e6;
  record({
    name: 'Event-loop delay p99 during 10 simultaneous logins',
    value: p99,
    unit: 'ms',
    target: '< 20 ms',
    pass: p99 < 20,
  });
};

export default bench;
