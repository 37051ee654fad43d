import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { adminWithClient, restarted } from '../helpers/app.js';

/**
 * An upgrade whose health or matching rules differ rescores every location at start (locations/rescore.ts).
 * Here the "older rules" are stale values written over the derived columns, and the rule version set back.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

type Listed = { id: string; name: string; health_score: number; primary_category: string | null };

describe('a rescore after an upgrade', () => {
  it('moves no revision, says so in the trail, and leaves earlier changes undoable, worked out under the new rules', async () => {
    const { t, admin, clientId } = await adminWithClient('Before the upgrade');
    dirs.push(t.dataDir);
    const rows = [
      { name: 'A', address: '1 Main St', store_code: 'A-1', phone: '+1 415 555 0100', country: 'US' },
      { name: 'B', address: '2 Main St', store_code: 'B-1' },
    ];
    await t.request({ method: 'POST', url: '/api/locations/upload', token: admin, body: { clientId, rows } });
    const list = async (request: typeof t.request, token: string) =>
      (await request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token })).json<Listed[]>();
    const imported = await list(t.request, admin);
    const ids = imported.map((row) => row.id);
    const edit = (
      await t.request({
        method: 'PATCH',
        url: '/api/locations',
        token: admin,
        body: { ids, set: { primary_category: 'Cafe' } },
      })
    ).json<{ operation_id: string }>();
    const edited = await list(t.request, admin);
    const removed = (
      await t.request({ method: 'POST', url: '/api/locations/delete', token: admin, body: { ids: [ids[1]] } })
    ).json<{ operation_id: string }>();
    // The older rules: every derived value, stored and kept for the undos, is one they would not give.
    const db = t.store.db;
    db.exec(`UPDATE locations SET health_score = 1, match_hash = 1, health_flags = 0;
      UPDATE operation_rows SET before = json_set(before, '$.health_score', 1, '$.match_hash', 1);
      UPDATE rule_versions SET version = 0 WHERE feature = 'locations';`);
    const revisions = () => db.prepare('SELECT id, revision, updated_at FROM locations ORDER BY id').all();
    const revisionsBefore = revisions();
    const after = await restarted(t);
    try {
      const again = after.store.db;
      expect(again.prepare('SELECT id, revision, updated_at FROM locations ORDER BY id').all()).toEqual(
        revisionsBefore,
      );
      expect(
        again.prepare('SELECT count(*) FROM locations WHERE match_hash = 1 OR health_flags = 0').pluck().get(),
      ).toBe(0);
      const { request } = after;
      const token = await after.signIn('admin@example.com');
      const trail = (await request({ method: 'GET', url: '/api/audit?action=locations.rescored', token })).json<{
        entries: { actor: { type: string; name: string }; client_id: string; summary: { count: number } }[];
      }>();
      expect(trail.entries).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ type: 'system', name: 'Agency Desk' }),
          // In the client's History: one of its locations (A; B was deleted) scored again.
          client_id: clientId,
          summary: expect.objectContaining({ count: 1 }),
        }),
      ]);
      const undo = async (operationId: string) =>
        (await request({ method: 'POST', url: `/api/operations/${operationId}/undo`, token })).json();
      expect(await undo(removed.operation_id)).toMatchObject({ recreated: 1, conflicts: [] });
      const undone = (await undo(edit.operation_id)) as { restored: number; operation_id: string };
      expect(undone).toMatchObject({ restored: 2, conflicts: [] });
      expect(await list(request, token)).toEqual(
        imported.map((row) => expect.objectContaining({ ...row, updated_at: expect.any(String) })),
      );
      expect(
        again.prepare('SELECT count(*) FROM locations WHERE match_hash = 1 OR health_flags = 0').pluck().get(),
      ).toBe(0);
      // The undo kept what it found, health included (the rules had changed since the edit): its own undo
      // gives the edit's values back with the health they give.
      expect(await undo(undone.operation_id)).toMatchObject({ restored: 2, conflicts: [] });
      expect(await list(request, token)).toEqual(
        edited.map((row) => expect.objectContaining({ ...row, updated_at: expect.any(String) })),
      );
    } finally {
      await after.close();
    }
  });
});
