import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalByBearer } from '../../server/auth/queries.js';
import type { Principal } from '../../server/http/guards.js';
import { Writer } from '../../server/store/writer.js';
import { adminWithClient, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot } from '../helpers/data.js';

/**
 * An import runs on two threads (server/store/plan-channel.ts): the planner reads, checks and decides
 * each piece of rows on its own connection, and the writer makes its writes in one transaction. Either
 * thread may fail in the middle of it: the import is then answered as a failure, nothing of it is
 * written, and the next import runs on threads that work.
 */
const ROWS = 12_000;

const rows = (prefix: string) =>
  Array.from({ length: ROWS }, (_, i) => ({
    name: `${prefix} ${i}`,
    address: `${i} High Street`,
    city: 'Leeds',
    country: 'GB',
    google_place_id: `ChIJ${prefix}${String(i).padStart(20, '0')}`,
  }));

let t: TestApp;
let admin: string;
let clientId: string;
beforeAll(async () => ({ t, admin, clientId } = await adminWithClient('Two threads')));
afterAll(() => t.close());

const upload = (body: unknown) => t.request({ method: 'POST', url: '/api/locations/upload', token: admin, body });

describe('an import whose writer fails in the middle', () => {
  it('-> 500 saying nothing was changed, nothing of it is written, and the next import works', async () => {
    const before = dataSnapshot(t.store.db);
    // A write the writer cannot make, ten pieces into the file: the planner is still deciding later ones.
    t.store.db.exec(`CREATE TRIGGER refuse_one AFTER INSERT ON locations WHEN NEW.name = 'Boom 10500'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const failed = await upload({ clientId, rows: rows('Boom') });
    expectErrorBody(failed, 500);
    expect(failed.json<{ message: string }>().message).toBe('The change failed; nothing was changed');
    t.store.db.exec('DROP TRIGGER refuse_one');
    expect(dataSnapshot(t.store.db)).toEqual(before);

    const done = await upload({ clientId, rows: rows('After') });
    expect(done.statusCode).toBe(201);
    expect(done.json<{ count: number }>().count).toBe(ROWS);
  });
});

describe('an import whose planner thread stops in the middle', () => {
  it('-> the writer gives up and rolls back; a new planner takes the next import', async () => {
    const principal = principalByBearer(t.store.db, admin, t.clock.now()) as Principal;
    const logged: string[] = [];
    const log = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } } }).log;
    // Too small a heap for the planner of a big import, enough for it to start: V8 stops the thread when
    // it runs out, in the middle of the import.
    const writer = new Writer(t.store, log, undefined, {
      plannerLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 2 },
    });
    const importing = (body: object) => {
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return writer.importLocations({
        principal,
        organizationId: principal.organizationId,
        body: [bytes],
        dryRun: false,
        duplicates: 'skip',
        mode: 'create',
        blanks: 'keep',
        now: t.clock.now(),
      });
    };
    try {
      const before = dataSnapshot(t.store.db);
      // Pieces of valid rows, then a row of a million empty lists (within the body's limits, refused by the
      // rows' schema once read): reading its piece takes more than the planner's heap.
      const big = [...rows('Part'), { name: 'Heavy', labels: Array.from({ length: 1_000_000 }, () => []) }];
      await expect(importing({ clientId, rows: big })).rejects.toMatchObject({
        statusCode: 500,
        message: 'The change failed; nothing was changed',
      });
      expect(dataSnapshot(t.store.db)).toEqual(before);
      // The writer was taking the planner's writes, inside the transaction, when the planner stopped.
      const failed = logged.find((line) => line.includes('"msg":"write failed"'));
      expect(failed).toContain('PlannerStopped: the planner thread stopped');
      expect(failed).toContain('takeWrites');
      const small = await importing({ clientId, rows: rows('Small').slice(0, 10) });
      expect(small).toMatchObject({ statusCode: 201 });
    } finally {
      await writer.close();
    }
  });
});
