import { junkReason, type JunkReason } from '../../../server/imports/junk-rows.js';
import { PLACEHOLDERS } from '../../../server/imports/placeholders.js';
import { nameColumnOf, type ColumnMapping } from './header-mapping.js';
import { rowCountOf, valuesOf, type CsvTable } from './parse-csv.js';

/** How the grid names each reason the server's rule gives (server/imports/junk-rows.ts). */
export const JUNK_LABELS: Record<JunkReason, string> = {
  'repeated header row': 'Looks like a repeated header row',
  'header in another order': 'The header again, in another column order: the rows below are another table',
  'totals or summary row': 'Looks like a totals row',
  'only a name, nothing else': 'Only a name, nothing else',
};

/**
 * The rows of the table that are not locations under this mapping, with why: the server's one rule,
 * run over the file's own cells (not re-implemented here), so a file the dashboard reads and the same
 * file sent as text/csv leave out the same rows. `placeholders`: the list in force (the column step's).
 */
export function junkRows(
  table: CsvTable,
  mapping: ColumnMapping,
  placeholders: readonly string[] = PLACEHOLDERS,
): Map<number, JunkReason> {
  const context = {
    headers: table.headers,
    nameColumn: nameColumnOf(mapping),
    mappedColumns: mapping.flatMap((target, column) => (target === null ? [] : [column])),
    placeholders,
  };
  const flagged = new Map<number, JunkReason>();
  const count = rowCountOf(table);
  for (let row = 0; row < count; row++) {
    const reason = junkReason(valuesOf(table, row), context);
    if (reason !== null) flagged.set(row, reason);
  }
  return flagged;
}
