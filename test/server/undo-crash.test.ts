import { beforeAll, describe, expect, it } from 'vitest';
import { realisticRows } from '../bench/rows.js';
import { CRASH_SEED as SEED, killedServerPerFile, seededRandom } from '../helpers/killed-server.js';

/**
 * Crash consistency of the audit trail and of undo (issue 11, "Done means"): the real `serve` process is
 * killed with SIGKILL at random moments while it imports and then undoes the import. After each kill the
 * database is intact, the import and its undo are each all there or not at all, and the trail matches the
 * data: an import's entry exists exactly when its rows do (or were undone), an undo's exactly when the
 * rows are gone and the operation is marked undone.
 */
const ROWS = 4_000;
const CYCLES = 20;

const server = killedServerPerFile('undo-crash');
const { call } = server;
let rowsJson: string;

beforeAll(() => {
  rowsJson = JSON.stringify(realisticRows(ROWS));
}, 120_000);

async function startSignedIn(): Promise<string> {
  await server.start();
  return server.signIn();
}

interface Seen {
  clientId: string;
  operationId: string | null;
}

/** The killed server's database, as the next start opens it: intact, each change whole, the trail agreeing. */
function check(seen: Seen[], context: string): void {
  server.readDatabase(context, (db) => {
    const one = <T>(sql: string, ...params: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...params) as T;
    for (const { clientId } of seen) {
      const rows = one<number>('SELECT count(*) FROM locations WHERE client_id = ?', clientId);
      expect([0, ROWS], `${context}: ${rows} rows`).toContain(rows);
      expect(one<number>('SELECT locations_count FROM clients WHERE id = ?', clientId), context).toBe(rows);
      const imported = one<number>(
        "SELECT count(*) FROM audit_entries WHERE client_id = ? AND action = 'locations.imported'",
        clientId,
      );
      const undone = one<number>(
        "SELECT count(*) FROM audit_entries WHERE client_id = ? AND action = 'operation.undone'",
        clientId,
      );
      const operation = one<string | null>(
        "SELECT undone_by FROM operations WHERE client_id = ? AND kind = 'import'",
        clientId,
      );
      // The trail matches the data: rows there <=> imported and not undone.
      expect(rows === ROWS, context).toBe(imported === 1 && undone === 0);
      expect(undone, context).toBe(operation ? 1 : 0);
      if (imported === 0) expect(operation, context).toBeUndefined();
    }
  });
}

describe('crash consistency: SIGKILL during imports and their undo', () => {
  it(
    `${CYCLES} kills at random moments (seed ${SEED}): the database, the changes and the trail agree`,
    { timeout: 600_000 },
    async () => {
      const random = seededRandom(SEED);
      const seen: Seen[] = [];
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const token = await startSignedIn();
        const client = await call<{ id: string }>(
          'POST',
          '/api/clients',
          token,
          JSON.stringify({ name: `Undo ${cycle}` }),
        );
        const entry: Seen = { clientId: client.body.id, operationId: null };
        seen.push(entry);
        // Half the cycles kill during the import, half during its undo.
        const importing = call<{ operation_id: string }>(
          'POST',
          '/api/locations/upload',
          token,
          `{"clientId":"${entry.clientId}","rows":${rowsJson}}`,
        ).catch(() => null);
        if (cycle % 2 === 0) {
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 600)));
        } else {
          const answer = (await importing)!;
          expect(answer.status).toBe(201);
          entry.operationId = answer.body.operation_id;
          void call('POST', `/api/operations/${entry.operationId}/undo`, token).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 400)));
        }
        await server.stop('SIGKILL');
        await importing;
        check(seen, `cycle ${cycle} (seed ${SEED})`);
      }
      // And the server starts again, imports and undoes.
      const token = await startSignedIn();
      const client = await call<{ id: string }>('POST', '/api/clients', token, JSON.stringify({ name: 'After' }));
      const answer = await call<{ operation_id: string }>(
        'POST',
        '/api/locations/upload',
        token,
        `{"clientId":"${client.body.id}","rows":${rowsJson}}`,
      );
      expect(answer.status).toBe(201);
      expect((await call('POST', `/api/operations/${answer.body.operation_id}/undo`, token)).status).toBe(200);
      await server.stop();
    },
  );
});
