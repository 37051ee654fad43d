import type { Migration } from './index.js';

/**
 * A location's history reads the organization's operations, to find those that kept a row of it
 * (server/audit/queries.ts, OF_LOCATION): without an index of their organization it scanned every
 * organization's (the query-plan test's find). One entry an import, bulk change or undo: nothing beside
 * the rows an operation writes.
 */
export const operationsByOrganization: Migration = {
  version: 9,
  name: 'operations by organization',
  up(db) {
    db.exec('CREATE INDEX operations_by_organization ON operations(organization_id)');
  },
};
