import type { Migration } from './index.js';

/**
 * Excel reads a store code of digits as a number and drops its leading zeros (00123 saved as 123). A
 * re-import matches such a code to the stored one with its zeros (locations/import.ts, README: "Excel's
 * leading zeros") in SQL: an index of the codes that start with a zero, by the code without them. Partial,
 * so that no other code costs an import anything.
 */
export const storeCodesWithZeros: Migration = {
  version: 8,
  name: 'store codes with leading zeros',
  up(db) {
    db.exec(`CREATE INDEX locations_by_code_without_zeros ON locations(client_id, ltrim(store_code, '0'))
      WHERE substr(store_code, 1, 1) = '0'`);
  },
};
