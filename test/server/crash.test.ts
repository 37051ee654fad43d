import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { realisticRows } from '../bench/rows.js';
import { CRASH_SEED as SEED, killedServerPerFile, seededRandom } from '../helpers/killed-server.js';

/**
 * Crash consistency (issue 13): the real `serve` process is killed with SIGKILL at random moments during
 * imports; after each kill the database must be intact, each import all there or absent, and the server
 * must start again and import. The restarted server then deletes that import's client, so that each
 * integrity check reads one import's rows, not every row so far. Three kills fall during 100,000-row
 * imports (18 MiB), the other nineteen during 10,000-row ones, to keep the 22 cycles near a minute on two
 * cores. Over HTTP only: the import's insides may change.
 */
const BIG = 100_000;
const SMALL = 10_000;
// 22 kills, 3 of them during 100,000-row imports.
const CYCLES = Array.from({ length: 22 }, (_, cycle) => (cycle % 8 === 0 ? BIG : SMALL));

const server = killedServerPerFile('crash');
const { call } = server;
const rowsJson = new Map<number, string>();

beforeAll(() => {
  for (const size of new Set(CYCLES)) rowsJson.set(size, JSON.stringify(realisticRows(size)));
}, 120_000);

async function newClient(token: string, name: string): Promise<string> {
  const response = await call<{ id: string }>('POST', '/api/clients', token, JSON.stringify({ name }));
  expect(response.status).toBe(201);
  return response.body.id;
}

function importBody(clientId: string, size: number): string {
  return `{"clientId":"${clientId}","rows":${rowsJson.get(size)!}}`;
}

async function removeClient(token: string, clientId: string): Promise<void> {
  expect((await call('DELETE', `/api/clients/${clientId}`, token)).status).toBe(200);
}

function upload(token: string, clientId: string, size: number) {
  return call<{ count: number }>('POST', '/api/locations/upload?duplicates=keep', token, importBody(clientId, size));
}

/** Opens the killed server's database as the next start would, checks it, and answers the rows by client. */
function checkDatabase(expected: ReadonlyMap<string, number>, context: string): Map<string, number> {
  return server.readDatabase(context, (db) => {
    const counts = (sql: string) =>
      new Map((db.prepare(sql).all() as { id: string; n: number }[]).map((row) => [row.id, row.n] as const));
    const rows = counts('SELECT client_id AS id, count(*) AS n FROM locations GROUP BY client_id');
    const kept = counts('SELECT id, locations_count AS n FROM clients');
    for (const [clientId, size] of expected) {
      const found = rows.get(clientId) ?? 0;
      // All there or absent: never part of a file.
      expect([0, size], `${context}: client ${clientId} has ${found} of ${size} rows`).toContain(found);
      // The client's own count, kept in the same transaction, agrees.
      expect(kept.get(clientId), `${context}: locations_count of ${clientId}`).toBe(found);
    }
    // No rows of anything else: the clients removed earlier took theirs with them.
    expect(
      [...rows.keys()].filter((clientId) => !expected.has(clientId)),
      context,
    ).toEqual([]);
    return rows;
  });
}

const since = (start: number) => (performance.now() - start).toFixed(0);

describe('crash consistency: SIGKILL during imports', () => {
  it(
    `${CYCLES.length} kills at random moments (seed ${SEED}): intact, all or nothing, and the server imports again`,
    // Only a guard against a hang (a machine busy with other work is slow).
    { timeout: 600_000 },
    async () => {
      const began = performance.now();
      const next = seededRandom(SEED);
      // The clients whose import may be in the database, with the rows of their file.
      const expected = new Map<string, number>();
      const outcomes: string[] = [];
      await server.start();
      const token = await server.signIn();

      // How long an import takes here, uninterrupted (the faster of two small ones, scaled for the big
      // ones): each kill falls anywhere in it or in the third as long again after it (the answer, the
      // checkpoint).
      let msPerRow = Infinity;
      for (let run = 0; run < 2; run++) {
        const calibration = await newClient(token, `Calibration ${run}`);
        const startedAt = performance.now();
        const response = await upload(token, calibration, SMALL);
        msPerRow = Math.min(msPerRow, (performance.now() - startedAt) / SMALL);
        expect(response.status).toBe(201);
        expect(response.body.count).toBe(SMALL);
        await removeClient(token, calibration);
      }

      let absent = 0;
      for (const [cycle, size] of CYCLES.entries()) {
        const clientId = await newClient(token, `Crash ${cycle}`);
        expected.set(clientId, size);
        const delay = next() * msPerRow * size * 1.3;
        const answer = upload(token, clientId, size).then(
          (response) => `answered ${response.status}`,
          () => 'cut off',
        );
        await sleep(delay);
        await server.stop('SIGKILL');
        const heard = await answer;
        const context = `seed ${SEED}, cycle ${cycle} (${size} rows, killed after ${delay.toFixed(0)} ms, ${heard})`;
        const checking = performance.now();
        const rows = checkDatabase(expected, context);
        // A 201 that reached the client is durable: its rows survive the kill.
        if (heard === 'answered 201') expect(rows.get(clientId), context).toBe(size);
        if (!rows.has(clientId)) absent += 1;
        const checked = since(checking);
        // The access token lives an hour, in the database: it works across the restarts.
        const restarting = performance.now();
        await server.start();
        const restarted = since(restarting);
        // The restarted server writes: the client goes, so that each check reads one import's rows.
        await removeClient(token, clientId);
        expected.delete(clientId);
        outcomes.push(
          `${size} rows, killed at ${delay.toFixed(0)} ms: ${heard}, ${rows.has(clientId) ? 'all there' : 'absent'} (checked in ${checked} ms, restarted in ${restarted} ms)`,
        );
      }

      // After every kill, the server imports again, whole.
      const last = await newClient(token, 'After the crashes');
      const again = await upload(token, last, SMALL);
      expect(again.status).toBe(201);
      expect(again.body.count).toBe(SMALL);
      expected.set(last, SMALL);
      await server.stop('SIGTERM');
      expect(checkDatabase(expected, `seed ${SEED}, at the end`).get(last)).toBe(SMALL);
      console.log(
        `crash test (seed ${SEED}): ${CYCLES.length} kills in ${since(began)} ms; imports all there: ${CYCLES.length - absent}, absent: ${absent}\n  ${outcomes.join('\n  ')}`,
      );
      // The kills did land during imports, not only after them.
      expect(absent).toBeGreaterThan(0);
    },
  );
});
