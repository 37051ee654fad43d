import type { BlankCells } from '../locations/schemas.js';
import { joinAddress } from './address.js';
import { cellValue } from './cells.js';
import { isDayHours } from './columns.js';
import { isPlaceholder } from './placeholders.js';
import { DAY_HOURS, type ColumnTarget } from './targets.js';

/**
 * How one sheet row becomes one upload row, the same for a file the server reads (imports/table-rows.ts)
 * and for the rows the dashboard sends from its preview (renderer/src/import/upload-rows.ts).
 */

/** A row's cells trimmed, spreadsheet escaping undone, placeholders of the list blank ("NA" stays a country). */
export function cleanedCells(
  cells: readonly string[],
  fields: readonly ColumnTarget[],
  placeholders: ReadonlySet<string>,
): string[] {
  return cells.map((cell, column) => {
    const value = cellValue(cell).trim();
    return isPlaceholder(value, fields[column] ?? undefined, placeholders) ? '' : value;
  });
}

/** A sheet row's values by field: texts, and the hours of the per-day columns as {mon: "09:00-17:00", ...}. */
export type SheetValues = Record<string, string | Record<string, string>>;

/**
 * The values of a row's mapped columns by field ("" when blank), its cells cleaned: several address
 * columns joined the way the row's country writes them (server/imports/address.ts); the per-day hours
 * columns gathered, blank days left out ("" when all are), unless an "hours" column says them. Of two
 * columns of one field, a filled cell wins over a blank one.
 */
export function sheetValues(cells: readonly string[], fields: readonly ColumnTarget[], separator: string): SheetValues {
  const values: SheetValues = {};
  const lines: string[] = [];
  const days: Record<string, string> = {};
  let houseNumber = '';
  let hasAddress = false;
  let hasDays = false;
  fields.forEach((field, column) => {
    const value = cells[column] ?? '';
    if (field === null) return;
    if (field === 'address' || field === 'street_number' || field === 'suite') {
      hasAddress = true;
      if (field === 'street_number') houseNumber = value;
      else if (value !== '') lines.push(field === 'suite' ? suiteLine(value) : value);
    } else if (isDayHours(field)) {
      hasDays = true;
      if (value !== '') days[DAY_HOURS[field]] = value;
    } else if (value !== '' || !(field in values)) values[field] = value;
  });
  if (hasAddress) {
    const country = typeof values.country === 'string' ? values.country : '';
    values.address = joinAddress({ lines, houseNumber, country, separator });
  }
  if (hasDays && (values.hours ?? '') === '') values.hours = Object.keys(days).length > 0 ? days : '';
  return values;
}

/**
 * A suite column's value as an address line: a bare number or letter ("200", "#200", "B") reads
 * "Suite 200", as USPS writes a secondary unit; what says its own kind ("Ste 200", "Floor 2") is kept.
 */
export function suiteLine(value: string): string {
  const bare = /^#?\s*([0-9]+[A-Za-z]?|[A-Za-z]|[0-9]+-[0-9A-Za-z]+)$/.exec(value.trim());
  return bare ? `Suite ${bare[1]}` : value;
}

/**
 * The upload row of a sheet row's values: the name always, blank included, so that the import flags it;
 * another blank field left out, or sent as "" when `blanks` is "clear" so that an upsert clears it (never
 * the location id, a key).
 */
export function uploadRowOfValues(values: SheetValues, blanks: BlankCells): Record<string, unknown> {
  const row: Record<string, unknown> = { name: typeof values.name === 'string' ? values.name : '' };
  // Its keys, not Object.entries: an import reads 100,000 rows, and each entry was an array of its own.
  for (const field of Object.keys(values)) {
    if (field === 'name') continue;
    const value = values[field]!;
    const blank = typeof value === 'string' && value.trim() === '';
    if (!blank || (blanks === 'clear' && field !== 'id')) row[field] = value;
  }
  return row;
}
