import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { WRITER_CACHE_MIB } from '../../server/db/open.js';
import { openDatabase } from '../../server/db/open.js';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { databaseFileIn, startServer } from '../../server/start.js';
import { RETIRE_IDLE_MS, WARM_UP_AFTER_MS } from '../../server/store/writer.js';
import { healthWords } from '../../server/locations/health.js';
import { keyHashes } from '../../server/locations/record.js';
import { processMemoryMb } from './process-memory.js';
import { median, type Bench } from './report.js';
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

export function tmp(): string {
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

/**
 * More flags for the served process, to profile it in a bench run: BENCH_SERVER_FLAGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" writes a CPU profile of each of its threads (the writer's included).
 */
const profilingFlags = () => process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];

export const serve = (dataDir: string, key: string) =>
  spawnUntil(
    // As `npm run serve` and the `agency-desk` binary start it (server/node-flags.ts).
    [...SERVER_NODE_FLAGS, ...profilingFlags(), CLI, 'serve'],
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

/**
 * After an in-process floor run has blocked this thread for seconds, give the HTTP client a moment to see
 * the server close its idle keep-alive sockets: a POST sent on a socket the server is closing fails with
 * "other side closed" (fetch retries only idempotent requests), which is what stopped the upsert bench.
 */
export const afterFloor = () => new Promise((resolve) => setTimeout(resolve, 100));

/**
 * Collects this process's garbage before a timed run, outside its clock (`npm run bench` passes
 * --expose-gc). A floor parses 100,000 rows in this process, and each import's answer is parsed here
 * too: left to V8, that garbage was collected during the next timed run, by threads that took one of
 * the machine's two cores from the run being measured (the floor, or the server) and from the GET probe.
 * Every timed run, floor or HTTP, now starts from a collected heap.
 */
export function collectBenchGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function login(url: string): Promise<string> {
  const body = await json<{ access_token: string }>(`${url}/auth/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return body.access_token;
}

export async function createClient(url: string, token: string, name: string): Promise<string> {
  const body = await json<{ id: string }>(`${url}/api/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  });
  return body.id;
}

export const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** When each server's last timed upload was answered (performance.now()), by the server's origin. */
const lastUploadEnd = new Map<string, number>();

/**
 * How long the new threads take to load the server's modules and open their connections: 1.4 s of CPU
 * each in a profile on a 2-core machine, so up to 3 s while other work shares the cores.
 */
const THREADS_START_MS = 3_000;

/**
 * Waits until the server has let its import threads go after the last upload and started new ones
 * (store/writer.ts: RETIRE_IDLE_MS after a big write, then WARM_UP_AFTER_MS), and they have started:
 * every timed upload meets the threads that a user's next file meets after a pause. The floors' runs
 * between two uploads take 4 to 6 s on a slow machine: without the wait, an upload met warm threads,
 * threads being let go, or new threads still loading their modules on both cores, at random.
 */
async function untilThreadsRenewed(url: string): Promise<void> {
  const last = lastUploadEnd.get(new URL(url).origin);
  if (last === undefined) return;
  const due = last + RETIRE_IDLE_MS + WARM_UP_AFTER_MS + THREADS_START_MS;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
}

/**
 * Before a timed upload, and before the GET probe starts: the server's threads renewed, then this
 * process's garbage collected (V8's full collection takes both cores for a moment: the probe would see it).
 */
export async function readyForUpload(url: string): Promise<void> {
  await untilThreadsRenewed(url);
  collectBenchGarbage();
}

/** An upload over HTTP, timed as the floors are: from its bytes in memory to the answer's last byte. */
export interface TimedUpload<T> {
  status: number;
  answer: T;
  /** From sending the request's bytes to the answer's last byte. */
  ms: number;
  /** The client's own JSON.parse of the answer afterwards: not the server's work, so not in `ms` (printed). */
  parseMs: number;
}

/**
 * Posts `bytes` and times the upload to the answer's last byte, as the list's figure is timed. The body is
 * made bytes before the clock starts (a script sends a file's bytes; each floor starts from its text in
 * memory too), and the answer is parsed after it stops: a 100,000-row import answers 11 MiB of JSON,
 * whose parse is the client's work (each run prints it; README "Speed and memory" has the runs).
 */
export async function timedUpload<T>(
  url: string,
  token: string,
  contentType: string,
  bytes: Buffer<ArrayBuffer>,
): Promise<TimedUpload<T>> {
  const start = process.hrtime.bigint();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    body: bytes,
  });
  const raw = Buffer.from(await response.arrayBuffer());
  const time = ms(start);
  lastUploadEnd.set(new URL(url).origin, performance.now());
  const parseStart = process.hrtime.bigint();
  const answer = JSON.parse(raw.toString('utf8')) as T;
  return { status: response.status, answer, ms: time, parseMs: ms(parseStart) };
}

/** The floor's encrypted database: the table with the primary key and client_id indexed, `keys` adds the key indexes. */
function floorDatabase(dir: string, keys: boolean, trail: boolean) {
  const db = openDatabase(databaseFileIn(dir), { kind: 'raw', hex: randomBytes(32).toString('hex') }, { create: true });
  // At least the writer thread's page cache (16 MiB): the floor inserts as well as
  // the server can, and better.
  db.pragma(`cache_size = -${Math.max(WRITER_CACHE_MIB, 16) * 1024}`);
  db.exec(`CREATE TABLE locations (id TEXT PRIMARY KEY, client_id TEXT NOT NULL, name TEXT NOT NULL, address TEXT,
    city TEXT, state TEXT, zip TEXT, country TEXT, google_place_id TEXT, store_code TEXT, match_key TEXT,
    health_score INTEGER NOT NULL, health_status TEXT NOT NULL, created_at TEXT NOT NULL${trail ? ', created_by TEXT' : ''});
    CREATE INDEX locations_by_client ON locations(client_id);
    CREATE TABLE operations (id TEXT PRIMARY KEY, client_id TEXT, kind TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE audit_entries (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, action TEXT NOT NULL,
      operation_id TEXT, summary TEXT);`);
  if (keys)
    db.exec(`ALTER TABLE locations ADD COLUMN place_hash INTEGER;
      ALTER TABLE locations ADD COLUMN match_hash INTEGER;
      CREATE INDEX locations_by_place_hash ON locations(place_hash) WHERE place_hash IS NOT NULL;
      CREATE UNIQUE INDEX locations_by_store_code ON locations(client_id, store_code) WHERE store_code IS NOT NULL;
      CREATE INDEX locations_by_match_hash ON locations(match_hash) WHERE match_hash IS NOT NULL;`);
  return db;
}

/**
 * The floor: the same work done the minimal way, in-process: JSON.parse (or `rowsOf`, csv.bench.ts's
 * papaparse), then one prepared INSERT a row
 * in one transaction, into an encrypted table with only the indexes the task needs, SQLite's automatic
 * checkpoint on. `keys` false is the issue's floor (issue 9 §0): the primary key and client_id only.
 * `keys` true adds what matching in SQL needs and nothing else: the place id's and the name and
 * address's hashes within the client (server/locations/keys.ts, worked out in the timed loop) and the
 * three partial indexes of the keys (store code unique per client, the two hashes), as the real table
 * has them. One run a call, so that floor and figure runs can alternate under the same load.
 */
export function floorImporter(
  keys: boolean,
  rowsOf: (body: string) => Record<string, string>[] = (body) =>
    (JSON.parse(body) as { rows: Record<string, string>[] }).rows,
  trail = false,
) {
  const dir = tmp();
  const db = floorDatabase(dir, keys, trail);
  const insert = db.prepare(
    `INSERT INTO locations (id, client_id, name, address, city, state, zip, country, google_place_id,
       store_code, health_score, health_status, created_at${trail ? ', created_by' : ''}${keys ? ', place_hash, match_hash' : ''})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${trail ? ', ?' : ''}${keys ? ', ?, ?' : ''})`,
  );
  // `trail`: what the audit trail adds to an import (issue 11): its operation, its one entry, and the
  // operation's id on each row it creates (what an undo reads).
  const operation = db.prepare('INSERT INTO operations (id, client_id, kind, created_at) VALUES (?, ?, ?, ?)');
  const entry = db.prepare('INSERT INTO audit_entries (id, action, operation_id, summary) VALUES (?, ?, ?, ?)');
  const update = db.prepare(
    `UPDATE locations SET name = ?, address = ?, city = ?, state = ?, zip = ?, country = ?, google_place_id = ?
     WHERE id = ?`,
  );
  /** The ids the first import gave its rows, for the upsert's floor. */
  let firstIds: string[] = [];
  const run = (body: string): number => {
    const clientId = randomUUID();
    const start = process.hrtime.bigint();
    const rows = rowsOf(body);
    const now = new Date().toISOString();
    const ids: string[] = [];
    const operationId = trail ? randomUUID() : null;
    db.transaction(() => {
      if (operationId !== null) operation.run(operationId, clientId, 'import', now);
      for (const row of rows) {
        const id = randomUUID();
        ids.push(id);
        const hashes = keys
          ? keyHashes(clientId, { name: row.name!, address: row.address!, google_place_id: row.google_place_id! })
          : null;
        insert.run(
          id,
          clientId,
          row.name,
          row.address,
          row.city,
          row.state,
          row.zip,
          row.country,
          row.google_place_id,
          row.store_code ?? null,
          100,
          'green',
          now,
          ...(trail ? [operationId] : []),
          ...(hashes ? [hashes.place_hash, hashes.match_hash] : []),
        );
      }
      if (operationId !== null) {
        entry.run(randomUUID(), 'locations.imported', operationId, JSON.stringify({ created: rows.length }));
      }
    })();
    const time = ms(start);
    if (firstIds.length === 0) firstIds = ids;
    return time;
  };
  /** The same rows again with their ids, half of them changed: one prepared UPDATE by id a row. */
  const upsert = (rows: Record<string, string>[]): number => {
    const body = JSON.stringify({ rows: rows.map((row, i) => ({ id: firstIds[i], ...row })) });
    const start = process.hrtime.bigint();
    const parsed = JSON.parse(body) as { rows: Record<string, string>[] };
    db.transaction(() => {
      for (const row of parsed.rows) {
        update.run(row.name, row.address, row.city, row.state, row.zip, row.country, row.google_place_id, row.id);
      }
    })();
    return ms(start);
  };
  const close = () => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { run, upsert, close };
}

/** The columns GET /api/locations returns (locations/queries.ts, LOCATION_JSON), as plain columns. */
const LISTED_COLUMNS = `id, name, address, city, state, zip, country, health_score,
  CASE WHEN status = 'permanently_closed' THEN 'closed' ELSE health_status END AS health_status, created_at,
  store_code, phone, website, latitude, longitude, primary_category, labels, status, hours, health_flags,
  coalesce(updated_at, created_at) AS updated_at`;

interface ListedRow {
  labels: string | null;
  hours: string | null;
  health_status: string;
  health_flags: number;
  country: string | null;
  [column: string]: unknown;
}

/**
 * The list's floor: the same rows and fields the route returns, read from the server's own database file
 * (another connection, as WAL allows) with one prepared SELECT .all(), the JSON columns parsed, the health
 * notes worded (healthWords), and one JSON.stringify, in-process.
 */
function floorList(file: string, key: string, clientId: string): number {
  const db = openDatabase(file, { kind: 'raw', hex: key });
  const select = db.prepare<[string], ListedRow>(
    `SELECT ${LISTED_COLUMNS} FROM locations WHERE client_id = ? ORDER BY rowid`,
  );
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const rows = select.all(clientId).map(({ labels, hours, health_flags, ...row }) => {
      const notes = healthWords(health_flags, row.country);
      const green = row.health_status === 'green';
      return {
        ...row,
        labels: labels === null ? null : (JSON.parse(labels) as string[]),
        hours: hours === null ? null : (JSON.parse(hours) as unknown),
        health_issues: green ? [] : notes,
        health_hints: green ? notes : [],
      };
    });
    const text = JSON.stringify(rows);
    if (text.length < 1000) throw new Error('floor listing is empty');
    times.push(ms(start));
  }
  db.close();
  return median(times);
}

/**
 * Sends GET /api/clients every 20 ms from a separate process (so that the bench's own work cannot delay
 * it) until stopped; returns the longest wait for a complete answer. The probe says it is ready after
 * one request of its own, not counted: Node loads its fetch (undici) at the first call, which took 50 to
 * 200 ms on a loaded machine, and the import starts right after "ready" (the worst waits were all there).
 */
async function probeClients(url: string, token: string) {
  const script = `
    let worst = 0, count = 0; const pending = [];
    const get = () => fetch(process.env.URL + '/api/clients', { headers: { authorization: 'Bearer ' + process.env.TOKEN } });
    get().then((r) => r.arrayBuffer()).then(() => { begin(); console.log('probing on http://-'); });
    const begin = () => { const timer = setInterval(() => {
      const start = performance.now();
      pending.push(get().then((r) => r.arrayBuffer()).then(() => { worst = Math.max(worst, performance.now() - start); count++; }));
    }, 20);
    process.stdin.once('data', async () => { clearInterval(timer); await Promise.all(pending);
      console.log(JSON.stringify({ worst, count })); process.exit(0); }); };`;
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

/**
 * 1b. An upsert of the first import's 100,000 rows with their ids (as an export writes them), half of
 * them changed, into the client that holds them, vs the same UPDATE by id done in-process (issue 9 §3).
 */
async function benchUpsert(
  record: Parameters<Bench>[0],
  run: {
    url: string;
    token: string;
    clientId: string;
    rows: Record<string, string>[];
    ids: string[];
    floor: ReturnType<typeof floorImporter>;
    pid: number;
  },
): Promise<void> {
  const changed = run.rows.map((row, i) => (i % 2 === 0 ? { ...row, city: `${row.city} Heights` } : row));
  const times: number[] = [];
  const floorTimes: number[] = [];
  let worst = 0;
  for (let round = 0; round < RUNS; round++) {
    // Each round changes half the rows back and forth: every round updates 50,000 locations.
    const rows = round % 2 === 0 ? changed : run.rows;
    collectBenchGarbage();
    floorTimes.push(run.floor.upsert(rows));
    await afterFloor();
    const payload = Buffer.from(
      JSON.stringify({ clientId: run.clientId, rows: rows.map((row, i) => ({ id: run.ids[i], ...row })) }),
    );
    await readyForUpload(run.url);
    const stopProbe = await probeClients(run.url, run.token);
    const upload = await timedUpload<{ updated: number; unchanged: number }>(
      `${run.url}/api/locations/upload?mode=upsert`,
      run.token,
      'application/json',
      payload,
    );
    times.push(upload.ms);
    worst = Math.max(worst, (await stopProbe()).worst);
    const result = upload.answer;
    if (upload.status !== 201 || result.updated !== ROWS / 2 || result.unchanged !== ROWS / 2)
      throw new Error(`upsert: ${upload.status} ${JSON.stringify(result).slice(0, 300)}`);
  }
  const time = median(times);
  const floorTime = median(floorTimes);
  console.log(
    `  runs (ms): HTTP upsert ${times.map(Math.round).join(' ')}; floor ${floorTimes.map(Math.round).join(' ')}`,
  );
  record({
    name: `Upsert ${ROWS} rows (half changed) into a client that holds them, over HTTP`,
    value: time,
    unit: 'ms',
    floor: floorTime,
    floorLabel: 'JSON.parse + one-transaction prepared UPDATE by id of every row, encrypted, in-process',
    target: '<= 1.6x floor',
    pass: time <= 1.6 * floorTime,
  });
  record({
    name: 'Longest GET /api/clients wait during the upserts',
    value: worst,
    unit: 'ms',
    target: '< 50 ms',
    pass: worst < 50,
  });
  const peak = processMemoryMb(run.pid).peak;
  record({
    name: 'Peak server memory (RSS) through the imports and upserts',
    value: peak,
    unit: 'MB',
    target: '< 300 MB',
    pass: peak < 300,
  });
}

/**
 * 1. The import of 100,000 rows over HTTP, RUNS times, each run alternating with both floors' runs
 * (medians compared), with GET /api/clients probed meanwhile from another process.
 */
async function benchImport(
  record: Parameters<Bench>[0],
  run: {
    url: string;
    token: string;
    body: string;
    floor: ReturnType<typeof floorImporter>;
    keyedFloor: ReturnType<typeof floorImporter>;
  },
): Promise<{ listClientId: string; firstIds: string[] }> {
  const { url, token, body } = run;
  const floorTimes: number[] = [];
  const keyedTimes: number[] = [];
  const importTimes: number[] = [];
  const parseTimes: number[] = [];
  let worstProbe = 0;
  let probes = 0;
  let listClientId = '';
  let firstIds: string[] = [];
  for (let round = 0; round < RUNS; round++) {
    collectBenchGarbage();
    floorTimes.push(run.floor.run(body));
    collectBenchGarbage();
    keyedTimes.push(run.keyedFloor.run(body));
    await afterFloor();
    const clientId = await createClient(url, token, `Bench ${round}`);
    listClientId ||= clientId;
    const payload = Buffer.from(body.replace('00000000-0000-4000-8000-000000000000', clientId));
    await readyForUpload(url);
    const stopProbe = await probeClients(url, token);
    const upload = await timedUpload<{ count: number; locations: { id: string }[] }>(
      `${url}/api/locations/upload`,
      token,
      'application/json',
      payload,
    );
    const result = upload.answer;
    if (firstIds.length === 0) firstIds = result.locations.map((location) => location.id);
    importTimes.push(upload.ms);
    parseTimes.push(upload.parseMs);
    const probe = await stopProbe();
    worstProbe = Math.max(worstProbe, probe.worst);
    probes += probe.count;
    if (upload.status !== 201 || result.count !== ROWS)
      throw new Error(`import: ${upload.status} ${JSON.stringify(result).slice(0, 300)}`);
  }
  const importTime = median(importTimes);
  const floorTime = median(floorTimes);
  const keyedTime = median(keyedTimes);
  console.log(
    `  runs (ms): HTTP import ${importTimes.map(Math.round).join(' ')}; floor ${floorTimes.map(Math.round).join(' ')}; floor with the key indexes ${keyedTimes.map(Math.round).join(' ')}; the client's parse of each answer afterwards, not counted: ${parseTimes.map(Math.round).join(' ')}`,
  );
  const mib = (Buffer.byteLength(body) / 1048576).toFixed(1);
  record({
    name: `Import ${ROWS} rows (${mib} MiB JSON) over HTTP, to the answer's last byte, median`,
    value: importTime,
    unit: 'ms',
    floor: floorTime,
    floorLabel:
      "the issue's floor: JSON.parse + one-transaction prepared insert (a call a row, checkpoint in COMMIT, 16 MiB cache), encrypted, only the primary key and client_id indexed, in-process; runs alternate",
    target: '<= 1.3x floor',
    pass: importTime <= 1.3 * floorTime,
  });
  record({
    name: `The same import against the floor with the key indexes SQL matching needs, median`,
    value: importTime,
    unit: 'ms',
    floor: keyedTime,
    floorLabel:
      'the same floor plus the two key hashes worked out a row (place id; name and address) and the three partial key indexes (store code unique, the two hashes); printed only, the target is judged above',
  });
  record({
    name: `Longest GET /api/clients wait during the imports (${probes} requests, one every 20 ms)`,
    value: worstProbe,
    unit: 'ms',
    target: '< 50 ms',
    pass: worstProbe < 50,
  });
  return { listClientId, firstIds };
}

/** 2. Listing 100,000 locations until the last byte vs .all() + JSON.stringify in-process. */
async function benchList(
  record: Parameters<Bench>[0],
  run: { url: string; token: string; clientId: string; listFloor: number },
): Promise<void> {
  const listTimes: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    const start = process.hrtime.bigint();
    const response = await fetch(`${run.url}/api/locations?clientId=${run.clientId}`, {
      headers: { authorization: `Bearer ${run.token}` },
    });
    const bytes = await response.arrayBuffer();
    listTimes.push(ms(start));
    if (response.status !== 200 || bytes.byteLength < ROWS * 100) throw new Error(`list: ${response.status}`);
  }
  const listTime = median(listTimes);
  record({
    name: `List ${ROWS} locations over HTTP, to the last byte`,
    value: listTime,
    unit: 'ms',
    floor: run.listFloor,
    floorLabel: 'the same rows and fields: SELECT .all() from the same file + JSON.stringify, in-process',
    target: '<= floor',
    pass: listTime <= run.listFloor,
  });
}

/** 3. Authenticated GET /api/clients per second vs a bare Fastify route returning the same JSON. */
async function benchRequests(record: Parameters<Bench>[0], url: string, token: string): Promise<void> {
  const clientsJson = await (
    await fetch(`${url}/api/clients`, { headers: { authorization: `Bearer ${token}` } })
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
  const appRps = await rps(`${url}/api/clients`, { authorization: `Bearer ${token}` });
  record({
    name: 'Authenticated GET /api/clients',
    value: appRps,
    unit: 'req/s',
    floor: bareRps,
    floorLabel: 'bare Fastify route returning the same JSON; here the floor is the ceiling',
    target: '>= 0.4x',
    pass: appRps >= 0.4 * bareRps,
  });
}

/** 4. Cold start of serve on the existing database (key, migrations check) to the first answer. */
async function benchColdStart(record: Parameters<Bench>[0], dataDir: string, key: string): Promise<void> {
  const coldStarts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const served = await serve(dataDir, key);
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
}

/** 5. Event-loop delay while 10 logins verify passwords at once (in-process, where the loop is measured). */
async function benchLogins(record: Parameters<Bench>[0], key: string): Promise<void> {
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
}

const bench: Bench = async (record) => {
  const key = randomBytes(32).toString('hex');
  const dataDir = tmp();
  const served = await serve(dataDir, key);
  const token = await login(served.url);
  const rows = realisticRows(ROWS);
  const body = JSON.stringify({ clientId: '00000000-0000-4000-8000-000000000000', rows });

  // 1. Import over HTTP vs the floors, with the responsiveness probe running.
  const floor = floorImporter(false);
  const keyedFloor = floorImporter(true);
  const { listClientId, firstIds } = await benchImport(record, { url: served.url, token, body, floor, keyedFloor });
  keyedFloor.close();
  // The issue's figure: the server's peak while it imports (three imports of 100,000 rows, with the probe).
  const importPeak = processMemoryMb(served.child.pid!).peak;
  record({
    name: 'Peak server memory (RSS) during the three imports',
    value: importPeak,
    unit: 'MB',
    target: '< 300 MB',
    pass: importPeak < 300,
  });
  await benchUpsert(record, {
    url: served.url,
    token,
    clientId: listClientId,
    rows,
    ids: firstIds,
    floor,
    pid: served.child.pid!,
  });
  floor.close();

  const listFloor = floorList(databaseFileIn(dataDir), key, listClientId);
  await benchList(record, { url: served.url, token, clientId: listClientId, listFloor });
  await benchRequests(record, served.url, token);
  record({
    name: 'Peak server memory (RSS) through all of the above (imports, listing, the requests-per-second run)',
    value: processMemoryMb(served.child.pid!).peak,
    unit: 'MB',
  });
  await served.stop();
  await benchColdStart(record, dataDir, key);
  fs.rmSync(dataDir, { recursive: true, force: true });
  await benchLogins(record, key);
};

export default bench;
