import { newestSeq, recordEntry } from '../audit/queries.js';
import type { Db } from '../db/open.js';
import { migrations } from '../db/migrations/index.js';
import { countsOf } from '../db/restore.js';

const tablesOf = (db: Db) =>
  new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);

/**
 * What a restore keeps of the database it replaces (README: "Restore"), found by a script author's walk:
 * - an API token revoked since the backup stays revoked: one the backup holds that the database no
 *   longer has (revoked, or gone with its owner) is removed;
 * - every session ends: each person signs in again (a password changed since comes back with its session
 *   otherwise);
 * - the audit trail numbers on past the entries a change feed may have read, and says the data was
 *   restored: a script polling with its cursor gets that entry, never a silent gap.
 * Run on the restored copy, with the replaced database open beside it, before the copy goes live.
 */
export function afterRestore(backupName: string, now: number): (restored: Db, previous: Db) => void {
  return (restored, previous) => {
    const tables = tablesOf(restored);
    const before = tablesOf(previous);
    if (tables.has('api_tokens') && before.has('api_tokens')) {
      const kept = new Set(previous.prepare('SELECT id FROM api_tokens').pluck().all() as string[]);
      const remove = restored.prepare('DELETE FROM api_tokens WHERE id = ?');
      for (const id of restored.prepare('SELECT id FROM api_tokens').pluck().all() as string[])
        if (!kept.has(id)) remove.run(id);
    }
    if (tables.has('sessions')) restored.prepare('DELETE FROM sessions').run();
    if (!tables.has('audit_entries')) return;
    const last = Math.max(newestSeq(restored), before.has('audit_entries') ? newestSeq(previous) : 0);
    restored.prepare("DELETE FROM sqlite_sequence WHERE name = 'audit_entries'").run();
    restored.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('audit_entries', ?)").run(last);
    // The entry in the trail's shape of this version only: an older backup's is upgraded at start.
    if ((restored.pragma('user_version', { simple: true }) as number) !== migrations.at(-1)!.version) return;
    const summary = countsOf(restored);
    for (const organizationId of restored.prepare('SELECT id FROM organizations').pluck().all() as string[]) {
      recordEntry(
        restored,
        {
          organizationId,
          actor: { type: 'system', id: null, email: null, name: null, token_id: null },
          action: 'database.restored',
          target: { type: 'backup', id: null, name: backupName },
          summary,
        },
        now,
      );
    }
  };
}
