import type { Migration } from './index.js';

export const init: Migration = {
  version: 1,
  name: 'init',
  up(db) {
    db.exec(`
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE clients (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        industry TEXT,
        website TEXT,
        created_at TEXT NOT NULL,
        -- kept by the import and the delete in the same transaction: listing clients never counts rows
        locations_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX clients_by_organization ON clients(organization_id, name COLLATE NOCASE, id);

      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'viewer', 'client_viewer')),
        -- a Client Viewer goes with its client (README: "Deleting a client")
        client_id TEXT REFERENCES clients(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK ((role = 'client_viewer') = (client_id IS NOT NULL))
      );
      CREATE INDEX users_by_organization ON users(organization_id);
      CREATE INDEX users_by_client ON users(client_id) WHERE client_id IS NOT NULL;

      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        access_hash BLOB NOT NULL UNIQUE,
        access_expires_at INTEGER NOT NULL,
        refresh_hash BLOB NOT NULL UNIQUE,
        refresh_expires_at INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions(user_id);

      -- refresh tokens already exchanged: presenting one again means it was stolen (reuse detection)
      CREATE TABLE rotated_refresh_tokens (
        hash BLOB PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX rotated_by_session ON rotated_refresh_tokens(session_id);

      CREATE TABLE locations (
        id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        address TEXT,
        city TEXT,
        state TEXT,
        zip TEXT,
        country TEXT,
        google_place_id TEXT,
        health_score INTEGER NOT NULL CHECK (health_score BETWEEN 0 AND 100),
        health_status TEXT NOT NULL CHECK (health_status IN ('green', 'yellow', 'red')),
        created_at TEXT NOT NULL
      );
      -- rowid order within a client is import order: the list's order
      CREATE INDEX locations_by_client ON locations(client_id);
      CREATE INDEX locations_by_place ON locations(client_id, google_place_id) WHERE google_place_id IS NOT NULL;
    `);
  },
};
