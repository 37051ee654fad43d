import type { Db } from '../open.js';
import { init } from './0001-init.js';
import { listingFields } from './0002-listing-fields.js';
import { apiTokens } from './0003-api-tokens.js';
import { audit } from './0004-audit.js';
import { mappings } from './0005-mappings.js';
import { operationRowsRowid } from './0006-operation-rows-rowid.js';
import { mappingsByClient } from './0007-mappings-by-client.js';
import { storeCodesWithZeros } from './0008-store-codes-with-zeros.js';
import { operationsByOrganization } from './0009-operations-by-organization.js';
import { slimLocations } from './0010-slim-locations.js';

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

/** In order; a migration, once released, is never edited (add a new one). */
export const migrations: readonly Migration[] = [
  init,
  listingFields,
  apiTokens,
  audit,
  mappings,
  operationRowsRowid,
  mappingsByClient,
  storeCodesWithZeros,
  operationsByOrganization,
  slimLocations,
];
