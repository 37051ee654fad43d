import { headerKey } from './columns.js';
import type { SavedMapping } from './table-rows.js';

/**
 * Why a mapping's columns cannot be applied, or null: a header sent to two fields, a field fed by two
 * headers (only `address` joins several columns), or no column for the name. Checked when a mapping is
 * saved, so that an import never has to guess. A module of its own: the routes that save mappings run on
 * the main thread, which does not load the sheet reader (table-rows.ts).
 */
export function mappingColumnsProblem(columns: SavedMapping['columns']): string | null {
  const fieldOf = new Map<string, string>();
  const headerOf = new Map<string, string>();
  for (const { header, field } of columns) {
    if (field === null) continue;
    const key = headerKey(header);
    const earlier = fieldOf.get(key);
    if (earlier !== undefined && earlier !== field)
      return `The column "${header}" is sent to both ${earlier} and ${field}`;
    fieldOf.set(key, field);
    const feeding = headerOf.get(field);
    if (feeding !== undefined && field !== 'address' && headerKey(feeding) !== key)
      return `The columns "${feeding}" and "${header}" are both sent to ${field}; only address joins several columns`;
    headerOf.set(field, header);
  }
  // What an import refuses of every file the mapping would apply to, refused once, as it is saved.
  if (!headerOf.has('name')) return 'No column is sent to name: each location needs its name';
  return null;
}
