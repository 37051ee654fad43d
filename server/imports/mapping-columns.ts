import { headerKey } from './columns.js';
import type { SavedMapping } from './table-rows.js';
import type { ColumnTarget } from './targets.js';

/**
 * Why a mapping's columns cannot be applied, or null: a header sent to two fields, or a field fed by two
 * headers (only `address` joins several columns). Checked when a mapping is saved, so that an import
 * never has to guess. A module of its own: the routes that save mappings run on the main thread, which
 * does not load the sheet reader (table-rows.ts).
 */
export function mappingColumnsProblem(columns: SavedMapping['columns']): string | null {
  const byHeader = new Map<string, { header: string; field: ColumnTarget }>();
  const byField = new Map<string, string>();
  for (const { header, field } of columns) {
    if (field === null) continue;
    const earlier = byHeader.get(headerKey(header));
    if (earlier !== undefined && earlier.field !== field)
      return `The column "${header}" is sent to both ${earlier.field} and ${field}`;
    byHeader.set(headerKey(header), { header, field });
    const feeding = byField.get(field);
    if (feeding !== undefined && field !== 'address' && headerKey(feeding) !== headerKey(header))
      return `The columns "${feeding}" and "${header}" are both sent to ${field}; only address joins several columns`;
    byField.set(field, header);
  }
  return null;
}
