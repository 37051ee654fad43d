import type { Migration } from './index.js';

/**
 * Deleting a client cascades to its saved mappings, found by client_id alone: mappings_by_client starts with
 * the organization, so the cascade walked every organization's mappings (the query-plan test's find). An
 * index of their client, as the other tables that cascade from clients have.
 */
export const mappingsByClient: Migration = {
  version: 7,
  name: 'saved mappings by client',
  up(db) {
    db.exec('CREATE INDEX mappings_of_client ON mappings(client_id)');
  },
};
