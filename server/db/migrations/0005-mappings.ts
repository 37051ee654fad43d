import type { Migration } from './index.js';

/**
 * Issue 12: saved column mappings. A mapping belongs to one client, or to every client of the
 * organization (client_id NULL); it applies to files with its header set (header_key: the headers'
 * normalized words, sorted, server/imports/columns.ts headerSetKey), found by an index. columns and
 * options are JSON: [{header, field}] and {separator, placeholders}.
 */
export const mappings: Migration = {
  version: 5,
  name: 'saved mappings',
  up(db) {
    db.exec(`
      CREATE TABLE mappings (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        client_id TEXT REFERENCES clients(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        header_key TEXT NOT NULL,
        columns TEXT NOT NULL,
        options TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_used_at TEXT
      ) WITHOUT ROWID;
      CREATE INDEX mappings_by_headers ON mappings(organization_id, header_key);
      CREATE INDEX mappings_by_client ON mappings(organization_id, client_id);
    `);
  },
};
