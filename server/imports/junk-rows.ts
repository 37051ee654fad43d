import { headerKey, mayHaveKey } from './columns.js';
import { isPlaceholder, PLACEHOLDERS, placeholderSet } from './placeholders.js';

/**
 * Rows of a sheet that are not locations (README: "Rows left out"): a header row repeated (files glued
 * together, a report exported a page at a time; in another column order, it starts a second table, which
 * the server refuses: table-rows.ts), a totals or summary row ("Total", "TOTAL LOCATIONS: 46",
 * a row whose only value is a number), a row with only a name and nothing else, the Template CSV's example
 * row. The import leaves them
 * out unless asked to keep them; the dashboard flags them the same way.
 */
export type JunkReason =
  | 'repeated header row'
  | 'header in another order'
  | 'totals or summary row'
  | 'only a name, nothing else'
  | 'the template’s example row';

/**
 * The name of the example row of the dashboard's Template CSV (renderer/public/locations-template.csv): a
 * template filled in below it, the example kept, would add the example as a location (a walk found it).
 */
export const TEMPLATE_EXAMPLE_NAME = 'Example Coffee Downtown';

// "Total", "Totals", "Grand total", "Sum", "Summe", "Gesamt", "Totale", "Total général" ..., alone or with a
// colon ("Grand Total:", its count in the next cell); with a count ("Total 46"); after a colon, a count
// and a word or two ("Summe: 4 Filialen", found by a probe); a count of locations in words ("Gesamt 12
// Standorte"); or a word or two and a count after a colon ("TOTAL LOCATIONS: 46"). Never a name or an
// address that starts with the word: "Total Wine & More", "Total 24 Fitness", "Gesamt 2 Etagen" (found by
// a review).
const TOTAL_WORD = String.raw`(grand\s+|sub-?)?(totals?|sum|summe|gesamt(summe)?|totale|total\s+g[eé]n[eé]ral)`;
const COUNTED = String.raw`(locations?|stores?|shops?|branches|sites|filialen|standorte|gesch[aä]fte|filiales|magasins|tiendas|sucursales|negozi|punti vendita|vestigingen|locaties)`;
const TOTAL = new RegExp(
  [
    String.raw`^${TOTAL_WORD}\s*([:=]\s*)?([\d.,]+)?$`,
    String.raw`^${TOTAL_WORD}\s*[:=]\s*[\d.,]+(\s+[\p{L}]+){1,2}$`,
    String.raw`^${TOTAL_WORD}\s+[\d.,]+\s+${COUNTED}$`,
    String.raw`^${TOTAL_WORD}(\s+[\p{L}]+){1,2}\s*[:=]\s*[\d.,]+$`,
  ].join('|'),
  'iu',
);
/** The first letters TOTAL can start with: most cells are ruled out without the whole pattern. */
const TOTAL_START = /^[gstGST]/;
const NUMBER = /^[-+]?[\d\s.,']+%?$/;

export interface JunkContext {
  headers: readonly string[];
  /** The column mapped to the name (-1: none). */
  nameColumn: number;
  /** The columns mapped to any field; only these count for "only a name". */
  mappedColumns: readonly number[];
  placeholders?: readonly string[];
}

function blank(value: string | undefined, words: ReadonlySet<string>): boolean {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || isPlaceholder(trimmed, undefined, words);
}

/** The header's key per column, once per header row (headerKey is too slow to run for every cell). */
const headerKeysOf = new WeakMap<readonly string[], string[]>();

function isHeaderCell(cell: string, column: number, headers: readonly string[]): boolean {
  let keys = headerKeysOf.get(headers);
  if (keys === undefined) {
    keys = headers.map(headerKey);
    headerKeysOf.set(headers, keys);
  }
  const key = keys[column] ?? '';
  // Most data cells are ruled out without headerKey (a tenth of a CSV import's rows).
  return key !== '' && mayHaveKey(cell, key) && headerKey(cell) === key;
}

/** The header's cells as written, once per header row: a header repeated in another order is found by them. */
const headerCellsOf = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * Whether the row is the header again with its columns in another order (found by a probe: a sheet holding
 * a second table, Austria's below Germany's, its columns ordered otherwise): most of its cells are header
 * cells, written as the header writes them, and not in their own columns.
 */
function isHeaderInAnotherOrder(filled: readonly { cell: string }[], headers: readonly string[]): boolean {
  let cells = headerCellsOf.get(headers);
  if (cells === undefined) {
    cells = new Set(headers.map((header) => header.trim()).filter((header) => header !== ''));
    headerCellsOf.set(headers, cells);
  }
  // Most rows are data: they are ruled out by their first cells that are no header's.
  const needed = Math.max(2, Math.ceil(filled.length * 0.8));
  if (filled.length < needed) return false;
  let misses = 0;
  for (const { cell } of filled) if (!cells.has(cell) && ++misses > filled.length - needed) return false;
  return true;
}

/** Why a row is not a location, or null when it may be one. */
export function junkReason(cells: readonly string[], context: JunkContext): JunkReason | null {
  const words = placeholderSet(context.placeholders ?? PLACEHOLDERS);
  const filled: { cell: string; column: number }[] = [];
  cells.forEach((raw, column) => {
    const cell = raw.trim();
    if (cell !== '') filled.push({ cell, column });
  });
  if (filled.length === 0) return null;
  const { headers } = context;
  const headerCells = filled.filter(({ cell, column }) => isHeaderCell(cell, column, headers)).length;
  if (headerCells >= Math.max(2, Math.ceil(filled.length * 0.8))) return 'repeated header row';
  if (isHeaderInAnotherOrder(filled, headers)) return 'header in another order';
  if (filled.some(({ cell }) => TOTAL_START.test(cell) && TOTAL.test(cell))) return 'totals or summary row';
  if (filled.length === 1 && NUMBER.test(filled[0]!.cell)) return 'totals or summary row';
  const { nameColumn, mappedColumns } = context;
  // The name as trimmed above: the row's cells are trimmed once.
  if (filled.find(({ column }) => column === nameColumn)?.cell === TEMPLATE_EXAMPLE_NAME) {
    return 'the template’s example row';
  }
  if (nameColumn >= 0 && mappedColumns.length > 1 && !blank(cells[nameColumn], words)) {
    const others = mappedColumns.filter((column) => column !== nameColumn);
    if (others.every((column) => blank(cells[column], words))) return 'only a name, nothing else';
  }
  return null;
}
