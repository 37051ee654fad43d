import type { Migration } from './index.js';

/**
 * Issue 11: the audit trail and what an undo needs. Every change writes its entries in its own
 * transaction. An import, a bulk edit, a bulk delete and an undo are each one operation; an operation
 * keeps, for the locations it changed or deleted, their values before (operation_rows), and the
 * locations it created carry its id (created_by), so that an import of 100,000 rows writes one entry and
 * no row of log per location it creates. Entries keep names and e-mails as they were: they outlive what
 * they describe.
 */
export const audit: Migration = {
  version: 4,
  name: 'audit trail',
  up(db) {
    db.exec(`
      CREATE TABLE audit_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL,
        at TEXT NOT NULL,
        actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'token', 'system')),
        actor_id TEXT,
        actor_email TEXT,
        actor_name TEXT,
        token_id TEXT,
        action TEXT NOT NULL,
        target_type TEXT NOT NULL,
        target_id TEXT,
        target_name TEXT,
        client_id TEXT,
        location_id TEXT,
        changes TEXT,
        summary TEXT,
        operation_id TEXT
      );
      CREATE INDEX audit_by_organization ON audit_entries(organization_id, seq);
      CREATE INDEX audit_by_client ON audit_entries(client_id, seq) WHERE client_id IS NOT NULL;
      CREATE INDEX audit_by_location ON audit_entries(location_id, seq) WHERE location_id IS NOT NULL;
      CREATE INDEX audit_by_operation ON audit_entries(operation_id) WHERE operation_id IS NOT NULL;

      CREATE TABLE operations (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL,
        client_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('import', 'bulk_edit', 'bulk_delete', 'undo')),
        undoes TEXT,
        undone_by TEXT,
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;

      -- a location an operation changed, deleted or brought back, with its values before (JSON of its
      -- columns), and the revision the operation left it at: a later change shows as a conflict to its undo
      CREATE TABLE operation_rows (
        operation_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('updated', 'deleted', 'created')),
        before TEXT,
        left_revision INTEGER,
        PRIMARY KEY (operation_id, location_id)
      ) WITHOUT ROWID;

      ALTER TABLE locations ADD COLUMN created_by TEXT;
      -- one more at every change of the location: what an undo compares, even within one millisecond
      ALTER TABLE locations ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
