import { junkReason, type JunkContext, type JunkReason } from '../../../server/imports/junk-rows.js';
import { PLACEHOLDERS } from '../../../server/imports/placeholders.js';
import { nameColumnOf, type ColumnMapping } from './header-mapping.js';
import { rowCountOf, valuesOf, type CsvTable } from './parse-csv.js';

/**
 * Why a row is flagged: the server's rule (server/imports/junk-rows.ts), and the dashboard's word for
 * the rows below a header repeated in another order, which the server refuses with the whole file.
 */
export type FlagReason = JunkReason | 'in a second table';

/** How the grid names each reason. */
export const JUNK_LABELS: Record<FlagReason, string> = {
  'repeated header row': 'Looks like a repeated header row',
  'header in another order': 'The header again, in another column order: the rows below are another table',
  'totals or summary row': 'Looks like a totals row',
  'only a name, nothing else': 'Only a name, nothing else',
  'the template’s example row': 'The Template CSV’s example row',
  'in a second table': 'In a second table, its columns in another order: import it as a file of its own',
};

/**
 * Rows that cannot be kept: a second table's header and rows would be read in the first table's
 * columns (a postal code as the street), which the server refuses for a whole file sent as CSV.
 */
export const LOCKED: ReadonlySet<FlagReason> = new Set(['header in another order', 'in a second table']);

function junkContext(table: CsvTable, mapping: ColumnMapping, placeholders: readonly string[]): JunkContext {
  return {
    headers: table.headers,
    nameColumn: nameColumnOf(mapping),
    mappedColumns: mapping.flatMap((target, column) => (target === null ? [] : [column])),
    placeholders,
  };
}

// How far down the column step looks for rows to show as samples.
const SAMPLE_SEARCH = 200;

/**
 * The first `wanted` rows that may be locations, for the column step's samples (a walk's showed a
 * repeated header's words as a column's values); the first rows when none near the top may be.
 */
export function sampleRows(table: CsvTable, mapping: ColumnMapping, wanted: number): number[] {
  const context = junkContext(table, mapping, PLACEHOLDERS);
  const count = rowCountOf(table);
  const found: number[] = [];
  for (let row = 0; row < Math.min(count, SAMPLE_SEARCH) && found.length < wanted; row++) {
    if (junkReason(valuesOf(table, row), context) === null) found.push(row);
  }
  return found.length > 0 ? found : Array.from({ length: Math.min(count, wanted) }, (_, row) => row);
}

/**
 * The rows without a name that may be locations, for the column step's notice: a totals row or a
 * repeated header has no name either, and the next step leaves it out and says so (a walk's "Summe"
 * row read "has no name" in the column step and "a totals row" in the preview). Read only when the
 * parser counted blank names (`blankNames` > 0): a file whose rows all have names costs nothing.
 */
export function namelessRows(
  table: CsvTable,
  mapping: ColumnMapping,
  placeholders: readonly string[],
  linesKept: number,
): { rows: number; firstLines: number[] } {
  const context = junkContext(table, mapping, placeholders);
  const found = { rows: 0, firstLines: [] as number[] };
  const count = rowCountOf(table);
  for (let row = 0; row < count; row++) {
    const values = valuesOf(table, row);
    if ((values[context.nameColumn] ?? '').trim() !== '' || junkReason(values, context) !== null) continue;
    found.rows++;
    if (found.firstLines.length < linesKept) found.firstLines.push(table.lines[row]!);
  }
  return found;
}

/**
 * The rows of the table that are not locations under this mapping, with why: the server's one rule,
 * run over the file's own cells (not re-implemented here), so a file the dashboard reads and the same
 * file sent as text/csv leave out the same rows. `placeholders`: the list in force (the column step's).
 */
export function junkRows(
  table: CsvTable,
  mapping: ColumnMapping,
  placeholders: readonly string[] = PLACEHOLDERS,
): Map<number, FlagReason> {
  const context = junkContext(table, mapping, placeholders);
  const flagged = new Map<number, FlagReason>();
  const count = rowCountOf(table);
  for (let row = 0; row < count; row++) {
    const reason = junkReason(valuesOf(table, row), context);
    if (reason !== null) flagged.set(row, reason);
    if (reason !== 'header in another order') continue;
    // Every row below it is the second table's (or a third's): none is read in these columns.
    for (let below = row + 1; below < count; below++) flagged.set(below, 'in a second table');
    break;
  }
  return flagged;
}
