import Papa from 'papaparse';
import { headerRowOf } from '../../../server/imports/header-row.js';
import { oneLineEnding, SNIFF_CHARS, sniffCsv } from '../../../server/imports/sniff.js';

/** A problem papaparse (or the shape of a row) reveals, at its line: the row a spreadsheet shows it on. */
export interface LineProblem {
  line: number;
  message: string;
}

/** The rows that leave one column blank: how many, and the lines of the first few. */
export interface ColumnBlanks {
  rows: number;
  firstLines: number[];
}

/** Text that rows were read from, and where it starts in the file's text. */
export interface TextPiece {
  start: number;
  text: string;
}

/**
 * A CSV file as read: its header and its data rows, with the line each row starts on. Each row is
 * kept as where it lies in the file's text, and split into values again when asked (`valuesOf`).
 * Measured in Chromium on 100,000 rows of 12 values: held as values, 1.3 million small strings made
 * the worker's garbage collector copy them again and again while the file was read (50-100 ms of a
 * ~150 ms read); held as one substring each, still ~9 ms.
 */
export interface CsvTable {
  headers: string[];
  /** The line the header starts on: 1, or lower when a title or a note sits above it (left out). */
  headerLine: number;
  /** The non-empty rows above the header, left out. */
  rowsAboveHeader: number;
  /** The text the rows lie in, in the pieces it was parsed in. */
  texts: TextPiece[];
  /**
   * Where each data row starts and ends in the file's text, its line break included, in file order;
   * empty lines (and rows of empty cells) are left out.
   */
  rowStarts: number[];
  rowEnds: number[];
  /** The 1-based line of the file where each row starts (rows can span lines inside quotes). */
  lines: number[];
  /** Per header column, the data rows whose value there is blank (counted as the rows are read). */
  blanks: ColumnBlanks[];
  delimiter: string;
  /** The line break rows end with. */
  newline: string;
  problems: LineProblem[];
  /**
   * The rows (by index) with more values than the header has columns: how many values, and the values
   * past the header's columns that are not blank. The preview holds each as a problem (import-job.ts).
   */
  overfull: Map<number, { values: number; extras: string[] }>;
  /** A workbook sheet's columns hidden in Excel, 0-based (read-xlsx.ts); a CSV has none. */
  hiddenColumns?: number[];
}

/** How many lines of rows with a blank value each column keeps, for messages that point at them. */
export const BLANK_LINES_KEPT = 5;

export { DELIMITERS } from '../../../server/imports/sniff.js';

/** Whether a value is empty or only white space; most values start with a printable character. */
function isBlank(cell: string | undefined): boolean {
  if (cell === undefined || cell.length === 0) return true;
  const first = cell.charCodeAt(0);
  // No printable character trim() removes sits above U+0020 in ASCII, so these are never blank.
  if (first > 0x20 && first < 0x7f) return false;
  return cell.trim().length === 0;
}

function isEmptyRow(row: readonly string[], from = 0): boolean {
  for (let index = from; index < row.length; index++) if (!isBlank(row[index])) return false;
  return true;
}

function describeParseError(error: Papa.ParseError): string {
  switch (error.code) {
    case 'MissingQuotes':
      return 'A quoted value is never closed (a " is missing), so the rest of the file was read as one value.';
    case 'InvalidQuotes':
      return 'A value has a stray " after its closing quote. Quotes inside a quoted value must be doubled ("").';
    default:
      return error.message;
  }
}

/** The rows papaparse's parser hands over one at a time: `data` holds the one row. */
type RowStep = Papa.ParseStepResult<string[][]>;

/**
 * Parses CSV text with papaparse's parser as it arrives, a piece at a time (a TextSink for the
 * decoder): guesses the delimiter (comma, semicolon, tab or pipe) and the line ending, skips empty
 * lines, strips a BOM left in the header, and records every problem with its line. Each row's values
 * are checked as papaparse hands the row over, then left for the collector: the table keeps its text.
 */
export class CsvParser {
  readonly table: CsvTable = {
    headers: [],
    headerLine: 1,
    rowsAboveHeader: 0,
    texts: [],
    rowStarts: [],
    rowEnds: [],
    lines: [],
    blanks: [],
    delimiter: ',',
    newline: '\n',
    problems: [],
    overfull: new Map(),
  };
  private parser: Papa.Parser | null = null;
  /** How many data rows have each count of cells (more than one), for the file's usual width. */
  private readonly widths = new Map<number, number>();
  /** Rows wider than the header whose cells past it are blank: overfull if wider than the usual rows too. */
  private readonly wide: { index: number; values: number; line: number }[] = [];
  /** Text not parsed yet: a row cut by the end of the last piece, or the start before the guess. */
  private pending = '';
  /** Rows end with \r\n and with \n (sniffCsv's `mixed`): each piece's \r\n are made \n; `carry` is a \r held back. */
  private mixed = false;
  private carry = '';
  /** The text being parsed, where it starts in the file's text, and where its next row starts. */
  private input = '';
  private base = 0;
  private rowStart = 0;
  /** The next "\n" and "\r" in the input not counted yet (-1: none), so line breaks are found in one pass. */
  private nextLf = -1;
  private nextCr = -1;
  private line = 1;
  private headerSeen = false;
  /** The non-empty rows read before the header is known (server/imports/header-row.ts decides). */
  private top: { row: string[]; line: number; start: number; end: number }[] = [];

  write(piece: string): void {
    const text = this.mixed ? this.oneEnding(piece) : piece;
    if (!this.parser) {
      this.pending += text;
      if (this.pending.length < SNIFF_CHARS) return;
      this.start();
      this.parse(false);
      return;
    }
    // The row cut by the last piece's end is finished with this piece's first line alone when it can
    // be: joining the whole piece to it would copy the piece (a Chromium profile of a 16 MB file read
    // in 2 MiB pieces showed ~10 ms going to those copies).
    let rest = text;
    const firstBreak = text.indexOf('\n') + 1;
    if (this.pending !== '' && firstBreak > 0 && firstBreak < text.length) {
      this.pending += text.substring(0, firstBreak);
      this.parse(false);
      rest = text.substring(firstBreak);
    }
    this.pending += rest;
    this.parse(false);
  }

  end(): CsvTable {
    if (!this.parser) this.start();
    // A \r held back at a piece's end, which no \n followed.
    this.pending += this.carry;
    this.carry = '';
    this.parse(true);
    if (!this.headerSeen && this.top.length > 0) this.takeHeader(0);
    this.overfullByWidth();
    this.table.problems.sort((a, b) => a.line - b.line);
    return this.table;
  }

  /**
   * The rows wider than the header and than the file's usual rows, whose cells past the header are
   * blank: a value held the delimiter unquoted and pushed a blank last cell past the end (the server's
   * rule, table-rows.ts hasExtraValues: "B;Mo-Fr 8-16 Uhr; Sa 8-12;" under "Name;Hours;Note" put
   * " Sa 8-12" in Note, a review). Rows that all end in delimiters (A;B;;;) are the usual width.
   */
  private overfullByWidth(): void {
    let usual = 0;
    for (const [width, count] of this.widths) if (count > (this.widths.get(usual) ?? 0)) usual = width;
    for (const { index, values, line } of this.wide) {
      if (values <= usual) continue;
      this.table.overfull.set(index, { values, extras: [] });
      this.table.problems.push({ line, message: this.overfullWords(values) });
    }
  }

  /**
   * The row's count of cells, for the file's usual width; a row with values past the header is overfull
   * now, one wider than the header with blank cells past it is once the usual width is known.
   */
  private noteWidth(row: readonly string[], line: number, extraValues: boolean): void {
    const { table } = this;
    const index = table.rowStarts.length;
    if (row.length > 1) this.widths.set(row.length, (this.widths.get(row.length) ?? 0) + 1);
    if (extraValues) {
      const extras = row.slice(table.headers.length).filter((cell) => !isBlank(cell));
      table.overfull.set(index, { values: row.length, extras });
      table.problems.push({ line, message: this.overfullWords(row.length) });
    } else if (row.length > table.headers.length) {
      this.wide.push({ index, values: row.length, line });
    }
  }

  private overfullWords(values: number): string {
    const { headers, delimiter } = this.table;
    return `This row has ${values} values but the header has ${headers.length} columns: a value may hold an unquoted "${delimiter}". The preview holds the row as a problem, to fix or leave out.`;
  }

  /** The delimiter and line ending guessed by the server's one rule (server/imports/sniff.ts). */
  private start(): void {
    const meta = sniffCsv(this.pending);
    if (meta.mixed) {
      this.mixed = true;
      this.pending = this.oneEnding(this.pending);
    }
    this.table.delimiter = meta.delimiter;
    this.table.newline = meta.linebreak;
    this.parser = new Papa.Parser({
      delimiter: meta.delimiter,
      newline: meta.linebreak as Papa.ParseConfig['newline'],
      step: (results: RowStep) => this.row(results),
    });
  }

  private parse(final: boolean): void {
    this.input = this.pending;
    this.rowStart = 0;
    this.nextLf = this.input.indexOf('\n');
    this.nextCr = this.input.indexOf('\r');
    // Until the end, the last row may be incomplete: Papa leaves it out and it waits for more text
    // (and so do the problems found in it so far: they are found again with the rest of the row).
    const rows = this.table.rowStarts.length;
    const { meta } = (this.parser as Papa.Parser).parse(this.input, this.base, !final);
    // Rows held while the header is not known yet lie in this text too.
    if (this.table.rowStarts.length > rows || this.top.length > 0) {
      this.table.texts.push({ start: this.base, text: this.input });
    }
    const consumed = meta.cursor - this.base;
    this.pending = this.input.substring(consumed);
    this.input = '';
    this.base = meta.cursor;
  }

  /**
   * A piece of a file whose rows end with \r\n and with \n, its \r\n made \n (oneLineEnding, the server's
   * rule); a \r at its end waits for the next piece, which may start with the \n of the same line ending.
   */
  private oneEnding(piece: string): string {
    const text = this.carry + piece;
    this.carry = text.endsWith('\r') ? '\r' : '';
    return oneLineEnding(this.carry === '' ? text : text.slice(0, -1));
  }

  /** One row from papaparse, with the problems found in it; its cursor is where the row ends. */
  private row({ data, errors, meta }: RowStep): void {
    const end = meta.cursor - this.base;
    const line = this.line;
    // Lines are a spreadsheet's rows, as the server counts them: the row's own line break counts, and
    // empty lines, but not a line break inside a quoted value ("Suite 200⏎Building B" is one row).
    const breaks = this.lineBreaksBefore(end);
    this.line += Math.max(1, breaks > 1 ? breaks - lineBreaksIn(data[0] ?? []) : breaks);
    for (const error of errors) this.table.problems.push({ line, message: describeParseError(error) });
    const start = this.rowStart;
    this.rowStart = end;
    this.take(data[0] ?? [], line, this.base + start, this.base + end);
  }

  /** Line breaks from the last row's end to `end`: "\n", "\r\n" and a lone "\r" each count once. */
  private lineBreaksBefore(end: number): number {
    const { input } = this;
    let count = 0;
    while (this.nextLf !== -1 && this.nextLf < end) {
      count++;
      this.nextLf = input.indexOf('\n', this.nextLf + 1);
    }
    while (this.nextCr !== -1 && this.nextCr < end) {
      if (input.charCodeAt(this.nextCr + 1) !== 0x0a) count++;
      this.nextCr = input.indexOf('\r', this.nextCr + 1);
    }
    return count;
  }

  /** The header found among the rows read so far: the rows above it are left out, those below are data. */
  private takeHeader(index: number): void {
    const { table } = this;
    const header = this.top[index]!;
    const below = this.top.slice(index + 1);
    this.top = [];
    this.headerSeen = true;
    table.headers = header.row.map((cell) => cell.trim());
    table.headerLine = header.line;
    table.rowsAboveHeader = index;
    table.blanks = table.headers.map(() => ({ rows: 0, firstLines: [] }));
    for (const { row, line, start, end } of below) this.take(row, line, start, end);
  }

  private take(row: string[], line: number, start: number, end: number): void {
    const { table } = this;
    if (!this.headerSeen) {
      if (isEmptyRow(row)) return;
      this.top.push({ row: row.map((cell) => cell.replace(/^\uFEFF/, '')), line, start, end });
      const header = headerRowOf(this.top.map((each) => each.row));
      if (header !== undefined) this.takeHeader(header);
      return;
    }
    // One pass over the header's columns: the blanks each column has (the mapping screen's check,
    // for any column) and whether the row is empty.
    const columns = table.headers.length;
    let blankColumns = 0;
    for (let column = 0; column < columns; column++) if (isBlank(row[column])) blankColumns++;
    const extraValues = row.length > columns && !isEmptyRow(row, columns);
    if (blankColumns === columns && !extraValues) return;
    if (blankColumns > 0) {
      for (let column = 0; column < columns; column++) {
        if (!isBlank(row[column])) continue;
        const blanks = table.blanks[column] as ColumnBlanks;
        blanks.rows++;
        if (blanks.firstLines.length < BLANK_LINES_KEPT) blanks.firstLines.push(line);
      }
    }
    this.noteWidth(row, line, extraValues);
    table.rowStarts.push(start);
    table.rowEnds.push(end);
    table.lines.push(line);
  }
}

/** A whole text at once. */
export function parseCsvText(text: string): CsvTable {
  const parser = new CsvParser();
  parser.write(text);
  return parser.end();
}

/** One parser per delimiter and line break, to split rows again. */
const splitters = new Map<string, Papa.Parser>();

/** How many data rows a table has. */
export function rowCountOf(table: CsvTable): number {
  return table.rowStarts.length;
}

/** The text a row lies in: the last piece that starts at or before it. */
function pieceAt(texts: readonly TextPiece[], start: number): TextPiece | undefined {
  let low = 0;
  let high = texts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((texts[middle] as TextPiece).start <= start) low = middle;
    else high = middle - 1;
  }
  return texts[low];
}

/**
 * The rows (in order, each once) whose text holds `char`, found by the text's own indexOf over each piece,
 * never by splitting every row into values: a cheap search before valuesOf.
 */
export function rowsHolding(table: CsvTable, char: string): number[] {
  const rows: number[] = [];
  for (const piece of table.texts) {
    for (let at = piece.text.indexOf(char); at >= 0; at = piece.text.indexOf(char, at + 1)) {
      const row = rowAt(table, piece.start + at);
      if (row >= 0 && rows.at(-1) !== row) rows.push(row);
    }
  }
  return rows;
}

/** The row whose text holds the offset, or -1 (the header, a line left out). */
function rowAt(table: CsvTable, offset: number): number {
  let low = 0;
  let high = table.rowStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (table.rowStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  const start = table.rowStarts[low];
  return start !== undefined && start <= offset && offset < table.rowEnds[low]! ? low : -1;
}

/**
 * A row's values, as papaparse gave them while the file was read: the row's text alone parses the
 * same, since every row starts with no quote open.
 */
export function valuesOf(table: CsvTable, row: number): string[] {
  const start = table.rowStarts[row];
  const end = table.rowEnds[row];
  const piece = start === undefined ? undefined : pieceAt(table.texts, start);
  if (start === undefined || end === undefined || !piece) return [];
  const key = `${table.delimiter}\u0000${table.newline}`;
  let splitter = splitters.get(key);
  if (!splitter) {
    splitter = new Papa.Parser({
      delimiter: table.delimiter,
      newline: table.newline as Papa.ParseConfig['newline'],
    });
    splitters.set(key, splitter);
  }
  const text = piece.text.substring(start - piece.start, end - piece.start);
  // A row that ends with its line break parses as the row and an empty one after it.
  return (splitter.parse(text, 0, false).data as string[][])[0] ?? [];
}

/** The line breaks inside a row's values ("\r\n" counts once, as in lineBreaksBefore). */
function lineBreaksIn(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) if (cell.includes('\n') || cell.includes('\r')) count += cell.match(/\r\n|\r|\n/g)!.length;
  return count;
}
