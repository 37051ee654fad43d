import { MAX_IMPORT_ROWS, type BlankCells } from '../locations/schemas.js';
import { DEFAULT_ADDRESS_SEPARATOR } from './address.js';
import { headerKey, matchHeaders, type ColumnMatch } from './columns.js';
import type { Cells } from './csv-text.js';
import { HEADER_SEARCH_ROWS, headerRowOf } from './header-row.js';
import { junkReason, type JunkContext } from './junk-rows.js';
import { PLACEHOLDERS, placeholderSet } from './placeholders.js';
import type { ColumnReport, LeftOutRow } from './schemas.js';
import { cleanedCells, sheetValues, uploadRowOfValues } from './sheet-row.js';
import type { ColumnTarget } from './targets.js';

/** How a sheet's cells become import rows: the options a mapping may carry, and the import's own. */
export interface TableOptions {
  blanks: BlankCells;
  /** Import the rows flagged as not locations. */
  keepFlagged: boolean;
  /** 'none': no cell is a placeholder; else the mapping's list, or the default one. */
  placeholders?: 'none' | undefined;
  /** A saved mapping: its columns' fields and its options; else the headers are matched. */
  mapping?: SavedMapping;
  /**
   * A CSV's row with a value past the header's last column is refused: a value that held the delimiter
   * unquoted ("Mo-Fr 8-16; Sa 8-12" in a file separated by semicolons) split in two and moved every value
   * after it. A workbook's cells cannot split so: a value off to the side, under no header, is left out.
   */
  refuseExtraValues?: boolean;
  /** A workbook's hidden columns (workbook-facts.ts): a shown column wins over them for one field. */
  hiddenColumns?: ReadonlySet<number>;
}

/** What the import takes of a saved mapping (server/mappings/schemas.ts). */
export interface SavedMapping {
  name: string;
  columns: { header: string; field: ColumnTarget }[];
  options: { separator?: string; placeholders?: string[]; country?: string };
}

/**
 * The file's columns as the saved mapping sends them: each header by its key. A header of the mapping
 * that the file lacks is a 400 (the mapping does not fit); a file column the mapping lacks is left out.
 */
function savedMatches(headers: readonly string[], mapping: SavedMapping): ColumnMatch[] | TableRefusal {
  // A header the mapping lists twice (a file with two "Phone" columns, one left out) keeps its field.
  const fields = new Map(
    mapping.columns.filter((column) => column.field !== null).map((column) => [headerKey(column.header), column.field]),
  );
  const keys = new Set(headers.map(headerKey));
  const missing = mapping.columns.filter((column) => column.field !== null && !keys.has(headerKey(column.header)));
  if (missing.length > 0) {
    const names = missing.map((column) => `"${column.header}"`).join(', ');
    return {
      statusCode: 400,
      message: `The mapping "${mapping.name}" does not fit this file: it has no column ${names}`,
    };
  }
  return headers.map((header) => {
    const field = fields.get(headerKey(header)) ?? null;
    return field === null ? { field, matched_by: null, score: 0 } : { field, matched_by: 'mapping', score: 1 };
  });
}

export type TableRefusal = { statusCode: number; message: string };

function isEmpty(row: readonly string[]): boolean {
  return row.every((cell) => cell.trim() === '');
}

/**
 * The index of the sheet's header row, -1 when every row is empty: the first non-empty row, unless a
 * title or a note sits above the header (imports/header-row.ts). With a saved mapping, the header is the
 * row holding the mapping's headers.
 */
function headerIndexOf(cells: Cells, mapping: SavedMapping | undefined): number {
  const top: number[] = [];
  for (let index = 0; index < cells.length && top.length < HEADER_SEARCH_ROWS; index++) {
    if (!isEmpty(cells[index]!)) top.push(index);
  }
  if (top.length === 0) return -1;
  const isHeader = mapping && ((row: readonly string[]) => Array.isArray(savedMatches(row, mapping)));
  return top[
    headerRowOf(
      top.map((index) => cells[index]!),
      isHeader,
    ) ?? 0
  ]!;
}

/**
 * A sheet's import rows (README: "Import a CSV or Excel file"): the header is the first non-empty row, or
 * the first naming the name column below a title; placeholders are blanked; rows that are not locations
 * are left out (unless kept); each row carries `line`, its number in the sheet, which the import's errors
 * echo. Read a piece of lines at a time, as the import plans them (the header, its columns and
 * the limits are known first): 100,000 rows of a CSV are never made before the import begins, nor held
 * at once. `rowsOf` reads the lines under the header from `start` to `end` (exclusive), each once, in
 * order: a row for each that is a location, fewer when lines are empty or left out, or the refusal of a
 * second table; `finish`, once every line was read, what was left out, or the refusal of rows with more
 * values than the header has columns (which stands over every other error, as when it was read first).
 */
export interface TableReader {
  columns: ColumnReport[];
  /** The lines under the header: at least as many as the rows. */
  lines: number;
  rowsOf(start: number, end: number): Record<string, unknown>[] | TableRefusal;
  finish(): { left_out: LeftOutRow[] } | TableRefusal;
}

export function tableReader(cells: Cells, options: TableOptions): TableReader | TableRefusal {
  const headerIndex = headerIndexOf(cells, options.mapping);
  if (headerIndex < 0) {
    return { statusCode: 400, message: 'The file is empty: it needs a header row and one row per location' };
  }
  const headers = headerCells(cells[headerIndex]!, options.refuseExtraValues === true);
  const matches = options.mapping
    ? savedMatches(headers, options.mapping)
    : matchHeaders(headers, options.hiddenColumns);
  if (!Array.isArray(matches)) return matches;
  const nameColumn = matches.findIndex((match) => match.field === 'name');
  if (nameColumn < 0) {
    return {
      statusCode: 400,
      message: `No column can be the name of a location (its headers: ${headers.map((h) => `"${h}"`).join(', ')}). Name one "Name" or "Location name".`,
    };
  }
  const tooMany = rowsOverLimit(cells, headerIndex);
  if (tooMany !== undefined) {
    return {
      statusCode: 413,
      message: `An import takes at most ${MAX_IMPORT_ROWS} rows; this file has ${tooMany}. Send it in parts.`,
    };
  }
  const usual = options.refuseExtraValues ? usualWidth(cells, headerIndex) : 0;
  return new LineReader(
    cells,
    headerIndex,
    new RowReader(headers, matches, nameColumn, options),
    headers.map((header, column) => ({ header, ...(matches[column] ?? noMatch) })),
    Math.max(headers.length, usual),
    options.mapping ? [] : twinColumns(headers, matches),
  );
}

/** A column left out for another of the same header (a "City" twice), and that other. */
interface Twin {
  column: number;
  of: number;
}

/**
 * The columns whose header repeats a mapped column's (the same words: "phone" and "Phone"): a field
 * takes one column, so the other is left out, which is only safe where it says the same (RowReader).
 */
function twinColumns(headers: readonly string[], matches: readonly ColumnMatch[]): Twin[] {
  const mappedBy = new Map<string, number>();
  matches.forEach((match, column) => {
    if (match.field !== null && !mappedBy.has(headerKey(headers[column]!)))
      mappedBy.set(headerKey(headers[column]!), column);
  });
  return headers.flatMap((header, column) => {
    const of = mappedBy.get(headerKey(header));
    return matches[column]!.field === null && header !== '' && of !== undefined ? [{ column, of }] : [];
  });
}

/** Where a row's twin column says something else than the column imported: its line, the two values. */
interface TwinClash {
  line: number;
  twin: Twin;
  values: [string, string];
}

function twinClash(row: readonly string[], twins: readonly Twin[], line: number): TwinClash | undefined {
  for (const twin of twins) {
    const [kept, left] = [row[twin.of] ?? '', row[twin.column] ?? ''];
    if (left !== '' && left !== kept) return { line, twin, values: [kept, left] };
  }
  return undefined;
}

/**
 * Two columns of one header that disagree (found by a probe: "name,city,city" with Boston and Chicago
 * imported Boston and dropped Chicago without a word): the file says two things of one field.
 */
function twinsRefusal(clashes: readonly TwinClash[], headers: readonly ColumnReport[]): TableRefusal {
  const [first] = clashes;
  const { twin, values, line } = first!;
  const lines = clashes.map((clash) => clash.line);
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ` and ${lines.length - 10} more` : '');
  const header = headers[twin.of]!.header;
  return {
    statusCode: 400,
    message: `Columns ${twin.of + 1} and ${twin.column + 1} are both "${header}", and they differ on ${lines.length === 1 ? 'line' : 'lines'} ${shown} (line ${line}: ${JSON.stringify(values[0])} and ${JSON.stringify(values[1])}): a field takes one column, and the other would be left out. Delete or rename one of them; nothing was imported.`,
  };
}

/**
 * The header row's cells, trimmed: a CSV's every one (a header ending in separators has those columns),
 * a workbook's up to its last named one. The workbook reader gives every row the width of the sheet's
 * rightmost value, and a value off to the side, under no header, is left out: a stray cell in column XFD
 * made 16,384 columns of the answer (found by a probe).
 */
function headerCells(row: readonly string[], asWritten: boolean): string[] {
  const headers = row.map((header) => header.trim());
  if (asWritten) return headers;
  let width = headers.length;
  while (width > 0 && headers[width - 1] === '') width--;
  return headers.slice(0, width);
}

/** What a line read is left as: one empty line for all, never written to. */
const READ: string[] = [];

class LineReader implements TableReader {
  readonly lines: number;
  private readonly leftOut: LeftOutRow[] = [];
  private readonly overfull: number[] = [];
  private readonly clashes: TwinClash[] = [];

  constructor(
    private readonly cells: Cells,
    private readonly headerIndex: number,
    private readonly reader: RowReader,
    readonly columns: ColumnReport[],
    /** The header's width, or the file's usual one when wider (usualWidth). */
    private readonly width: number,
    private readonly twins: readonly Twin[],
  ) {
    this.lines = cells.length - headerIndex - 1;
  }

  rowsOf(start: number, end: number): Record<string, unknown>[] | TableRefusal {
    const { cells, reader, width } = this;
    const { keepFlagged, refuseExtraValues } = reader.options;
    const rows: Record<string, unknown>[] = [];
    const columns = this.columns.length;
    for (let index = this.headerIndex + 1 + start; index < this.headerIndex + 1 + end; index++) {
      const line = cells[index]!;
      // Each line is read once: its cells are let go.
      cells[index] = READ;
      // An empty line (a sheet saved with a million below its data) is passed over without cleaning it.
      if (isEmpty(line)) continue;
      const row = reader.cleaned(line);
      if (isEmpty(row)) continue;
      const number = index + 1;
      const reason = junkReason(row, reader.junk);
      if (reason === 'header in another order') return secondTableRefusal(number);
      if (reason !== null && !keepFlagged) this.leftOut.push({ line: number, reason });
      else if (refuseExtraValues && hasExtraValues(row, columns, width)) this.overfull.push(number);
      else {
        const clash = this.twins.length > 0 ? twinClash(row, this.twins, number) : undefined;
        if (clash !== undefined) this.clashes.push(clash);
        rows.push(reader.rowOf(row, number));
      }
    }
    return rows;
  }

  finish(): { left_out: LeftOutRow[] } | TableRefusal {
    if (this.overfull.length > 0) return overfullRefusal(this.overfull, this.columns.length);
    if (this.clashes.length > 0) return twinsRefusal(this.clashes, this.columns);
    return { left_out: this.leftOut };
  }
}

/**
 * A header repeated with its columns in another order: the rows below it are a second table, which the
 * first header's columns would read into the wrong fields (a postal code as the street): nothing is imported.
 */
function secondTableRefusal(line: number): TableRefusal {
  return {
    statusCode: 400,
    message:
      `Line ${line} repeats the header with its columns in another order: the rows below it are a second table, ` +
      "which the first header's columns would read into the wrong fields. Give the second table the first one's " +
      'column order, or send it as a file of its own; nothing was imported.',
  };
}

/**
 * How many rows under the header hold something, when they are more than an import takes; undefined
 * otherwise. Empty lines (a sheet saved with 100,000 blank rows below its data) are not rows; they are
 * counted only when the file has more lines than the limit.
 */
function rowsOverLimit(cells: Cells, headerIndex: number): number | undefined {
  if (cells.length - headerIndex - 1 <= MAX_IMPORT_ROWS) return undefined;
  let rows = 0;
  for (let index = headerIndex + 1; index < cells.length; index++) if (!isEmpty(cells[index]!)) rows++;
  return rows > MAX_IMPORT_ROWS ? rows : undefined;
}

/**
 * A row with a value past its header's last column, or wider than its header and the file's usual rows
 * (`width`); its cells past the header are copied only when it has any.
 */
function hasExtraValues(row: readonly string[], columns: number, width: number): boolean {
  return row.length > columns && (row.length > width || !isEmpty(row.slice(columns)));
}

/**
 * How many cells the file's rows usually have (the most common count): a row wider than that and than
 * its header was split by a delimiter its value held, even when the cell it pushed past the end is blank
 * (Excel writes a blank last column as a trailing ;). A file whose every row ends in ;;; is that wide.
 */
function usualWidth(cells: Cells, headerIndex: number): number {
  const counts = new Map<number, number>();
  let usual = 0;
  for (let index = headerIndex + 1; index < cells.length; index++) {
    // Counts only: an empty line is one cell and never the usual width; no cell is read (the rows'
    // loop reads them once).
    const width = cells[index]!.length;
    if (width <= 1) continue;
    const count = (counts.get(width) ?? 0) + 1;
    counts.set(width, count);
    if (count > (counts.get(usual) ?? 0)) usual = width;
  }
  return usual;
}

function overfullRefusal(lines: readonly number[], columns: number): TableRefusal {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ` and ${lines.length - 10} more` : '');
  return {
    statusCode: 400,
    message: `${lines.length === 1 ? 'Line' : 'Lines'} ${shown} of the file ${lines.length === 1 ? 'has' : 'have'} more values than the header has columns (${columns}): a value may hold the separator without quotes around it, which moves every value after it. Quote that value, or add the header it lacks; nothing was imported.`,
  };
}

const noMatch = { field: null, matched_by: null, score: 0 };

class RowReader {
  readonly junk: JunkContext;
  private readonly words: ReadonlySet<string>;
  private readonly fields: readonly ColumnTarget[];

  constructor(
    headers: readonly string[],
    matches: readonly ColumnMatch[],
    nameColumn: number,
    readonly options: TableOptions,
  ) {
    const placeholders = options.placeholders === 'none' ? [] : (options.mapping?.options.placeholders ?? PLACEHOLDERS);
    this.words = placeholderSet(placeholders);
    const mappedColumns = matches.flatMap((match, column) => (match.field === null ? [] : [column]));
    this.junk = { headers, nameColumn, mappedColumns, placeholders };
    this.fields = matches.map((match) => match.field);
  }

  /** The row's cells trimmed, escaping undone, placeholders blank ("NA" stays in the country column). */
  cleaned(cells: readonly string[]): string[] {
    return cleanedCells(cells, this.fields, this.words);
  }

  /** One import row: the mapped fields, the address joined from its parts, per-day hours as an object. */
  rowOf(cells: readonly string[], line: number): Record<string, unknown> {
    const separator = this.options.mapping?.options.separator ?? DEFAULT_ADDRESS_SEPARATOR;
    const row = uploadRowOfValues(sheetValues(cells, this.fields, separator), this.options.blanks);
    row.line = line;
    return row;
  }
}
