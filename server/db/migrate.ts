import type { Db } from './open.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

export class DatabaseTooNewError extends Error {
  override name = 'DatabaseTooNewError';
}

/**
 * Brings the schema to the newest version in one transaction: either every pending migration applies,
 * or none does. A database written by a newer Agency Desk is refused rather than guessed at.
 */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) {
    throw new DatabaseTooNewError(
      `The database is at schema version ${current}, newer than this Agency Desk knows (${latest}). Update the app.`,
    );
  }
  db.transaction(() => {
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }
  })();
  return latest;
}
