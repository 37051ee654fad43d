import type { Migration } from './index.js';

/** Issue 10, section 1: API tokens that scripts send instead of a person's password. */
export const apiTokens: Migration = {
  version: 3,
  name: 'api-tokens',
  up(db) {
    db.exec(`
      CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        -- removing the owner removes its tokens (README: "API tokens")
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        -- SHA-256 of the secret: the secret itself is never stored
        hash BLOB NOT NULL UNIQUE,
        -- space-separated, in the fixed order read import clients admin
        scopes TEXT NOT NULL,
        -- the one client the token is limited to; it goes with its client
        client_id TEXT REFERENCES clients(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        last_used_at INTEGER
      );
      CREATE INDEX api_tokens_by_user ON api_tokens(user_id);
      CREATE INDEX api_tokens_by_client ON api_tokens(client_id) WHERE client_id IS NOT NULL;
    `);
  },
};
