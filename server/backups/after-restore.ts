import { newestSeq, recordEntry, systemActor, type Actor } from '../audit/queries.js';
import type { Db } from '../db/open.js';
import { migrations } from '../db/migrations/index.js';
import { countsOf } from '../db/restore.js';

const tablesOf = (db: Db) =>
  new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);

/** The columns `table` has in both databases (a backup may be of an older version), or none. */
function commonColumns(restored: Db, previous: Db, table: string): string[] {
  const columnsOf = (db: Db) => db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
  const before = new Set(columnsOf(previous));
  return columnsOf(restored).filter((column) => before.has(column));
}

const idsOf = (db: Db, table: string) => new Set(db.prepare(`SELECT id FROM ${table}`).pluck().all() as string[]);

/**
 * `table`'s rows as the replaced database has them, where the row's owners (`owners`: a condition on the
 * row's values, named @column) are in the restored one: each is inserted, or written over the backup's
 * row. The ids whose row could not be (its owner is not in the backup).
 */
function carryRows(restored: Db, previous: Db, table: string, owners: string): Set<string> {
  const columns = commonColumns(restored, previous, table);
  const names = columns.join(', ');
  const carry = restored.prepare(
    `INSERT INTO ${table} (${names}) SELECT ${columns.map((column) => `@${column}`).join(', ')} WHERE ${owners}
     ON CONFLICT (id) DO UPDATE SET ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}`,
  );
  const missed = new Set<string>();
  for (const row of previous.prepare(`SELECT ${names} FROM ${table}`).all() as { id: string }[])
    if (carry.run(row).changes === 0) missed.add(row.id);
  return missed;
}

/**
 * Whether the two databases hold one organization: a backup of this installation. A backup from another
 * computer restored on a new one brings its own people (found by a review: the new installation's users,
 * of an organization the backup lacks, were removed with the backup's own, and no one could sign in).
 */
function sameOrganization(restored: Db, previous: Db): boolean {
  const ours = idsOf(previous, 'organizations');
  return [...idsOf(restored, 'organizations')].some((id) => ours.has(id));
}

/**
 * Who may sign in and what they may do, as the replaced database says (a restore brings data back, not
 * access; found by a script author's walk: a password changed since the backup was the old one again).
 * A user removed since stays removed; a user added since comes along, with a Client Viewer's client in
 * the backup; each other user keeps the email, password, role and client they have now (one whose
 * client the backup lacks is removed: neither the old access nor the new one can stand). An API token
 * likewise: one revoked since stays revoked, one made since comes along with its owner and client.
 */
function keepAccess(restored: Db, previous: Db, withTokens: boolean): void {
  const now = idsOf(previous, 'users');
  const remove = restored.prepare('DELETE FROM users WHERE id = ?');
  for (const id of idsOf(restored, 'users')) if (!now.has(id)) remove.run(id);
  // Emails may have moved between users since: each kept user's is set aside before all are written.
  restored.prepare("UPDATE users SET email = id || '@restoring.invalid'").run();
  const client = '(@client_id IS NULL OR EXISTS (SELECT 1 FROM clients WHERE id = @client_id))';
  const missed = carryRows(
    restored,
    previous,
    'users',
    `EXISTS (SELECT 1 FROM organizations WHERE id = @organization_id) AND ${client}`,
  );
  for (const id of missed) remove.run(id);
  if (!withTokens) return;
  const tokens = idsOf(previous, 'api_tokens');
  const revoke = restored.prepare('DELETE FROM api_tokens WHERE id = ?');
  for (const id of idsOf(restored, 'api_tokens')) if (!tokens.has(id)) revoke.run(id);
  carryRows(restored, previous, 'api_tokens', `EXISTS (SELECT 1 FROM users WHERE id = @user_id) AND ${client}`);
}

/**
 * What a restore keeps of the database it replaces (README: "Restore"), found by a script author's walk:
 * - who may sign in, with which password, role and client, and the API tokens, as they are now
 *   (keepAccess);
 * - every session ends: each person signs in again;
 * - the audit trail numbers on past the entries a change feed may have read, and says the data was
 *   restored: a script polling with its cursor gets that entry, never a silent gap.
 * Run on the restored copy, with the replaced database open beside it, before the copy goes live.
 */
export function afterRestore(
  backupName: string,
  now: number,
  /** Who restored (the trail's entry names them: it named no one, a walk), and what it kept, for the words after. */
  { actor = systemActor('Agency Desk'), outcome }: { actor?: Actor; outcome?: { keptAccess: boolean } } = {},
): (restored: Db, previous: Db) => void {
  return (restored, previous) => {
    const tables = tablesOf(restored);
    const before = tablesOf(previous);
    if (tables.has('sessions')) restored.prepare('DELETE FROM sessions').run();
    if (tables.has('users') && before.has('users') && sameOrganization(restored, previous)) {
      keepAccess(restored, previous, tables.has('api_tokens') && before.has('api_tokens'));
      if (outcome) outcome.keptAccess = true;
    }
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
          actor,
          action: 'database.restored',
          target: { type: 'backup', id: null, name: backupName },
          summary,
        },
        now,
      );
    }
  };
}
