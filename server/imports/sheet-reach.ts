import { MAX_IMPORT_ROWS } from '../locations/schemas.js';
import { MAX_CELLS, MAX_SHEET_ROWS } from './cell-limits.js';
import { ascii, offsetsOf, type SheetState, type WorkbookParts } from './workbook-facts.js';

/**
 * How far a sheet's values reach, read from its XML before read-excel-file reads it: the library makes
 * every row from the first to the last holding a value, and every cell of them up to the rightmost column
 * holding one, so that one stray cell (a value on line 1,048,576, or in column XFD) makes a million
 * empty rows or 16,384 columns of each row, more than the import's thread holds (found by a probe: a
 * 500, ERR_WORKER_OUT_OF_MEMORY). Only cells holding a value count: Excel writes empty cells and rows
 * that carry a format alone, and its used range (`<dimension ref>`) often reaches far below the data;
 * the library leaves those out, and so does this.
 */
export interface SheetReach {
  /** The rows holding a value. */
  rows: number;
  /** The last row holding a value, 1-based (0: none). */
  lastRow: number;
  /** The rightmost column holding a value, 1-based, and the first cell holding a value in it ("XFD2"). */
  lastColumn: number;
  widest: string;
  /** The first cell holding a value below MAX_SHEET_ROWS, its line, and how many rows from it hold one. */
  far: { cell: string; line: number; rows: number } | null;
}

const SHEET_DATA = ascii('<sheetData');
const SHEET_DATA_END = ascii('</sheetData>');
const R_ATTRIBUTE = ascii(' r="');
const [LT, GT, SLASH, QUOTE] = [0x3c, 0x3e, 0x2f, 0x22];

/** Whether `pattern` stands in `bytes` at `at`. */
function standsAt(bytes: Uint8Array, pattern: Uint8Array, at: number): boolean {
  let next = 0;
  while (next < pattern.length && bytes[at + next] === pattern[next]) next++;
  return next === pattern.length;
}

/** The offset of the tag's closing `>` from `from`, or -1. */
function closeOf(bytes: Uint8Array, from: number): number {
  for (let at = from; at < bytes.length; at++) if (bytes[at] === GT) return at;
  return -1;
}

/** Whether the byte ends an element's name: `<c r=…`, `<c>`, `<c/>`. */
const endsName = (byte: number | undefined) =>
  byte === 0x20 || byte === GT || byte === SLASH || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Whether text other than white space follows `from` before the next tag: an element's value. */
function holdsText(bytes: Uint8Array, from: number): boolean {
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte === LT) return false;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return true;
  }
  return false;
}

/** A tag's `r` attribute, 1-based: 0 where it names no row or no column (`<row r="12">`: no column). */
interface Reference {
  row: number;
  column: number;
}

/** Reads the `r` attribute of the tag from `open` to `close` into `into` (one object for every tag). */
function readReference(bytes: Uint8Array, open: number, close: number, into: Reference): void {
  into.row = 0;
  into.column = 0;
  // Looked for byte by byte: a call of the array's indexOf a tag cost more than its few bytes.
  let at = open;
  while (at < close && !standsAt(bytes, R_ATTRIBUTE, at)) at++;
  for (let next = at + R_ATTRIBUTE.length; next < close && bytes[next] !== QUOTE; next++) {
    const byte = bytes[next]!;
    if (byte >= 0x41 && byte <= 0x5a) into.column = into.column * 26 + byte - 0x40;
    else if (byte >= 0x30 && byte <= 0x39) into.row = into.row * 10 + byte - 0x30;
  }
}

/** A column's letters, as Excel names it: 1 is A, 16,384 is XFD. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let left = column; left > 0; left = Math.floor((left - 1) / 26)) {
    letters = String.fromCharCode(0x41 + ((left - 1) % 26)) + letters;
  }
  return letters;
}

const isRow = (xml: Uint8Array, at: number) =>
  xml[at + 1] === 0x72 && xml[at + 2] === 0x6f && xml[at + 3] === 0x77 && endsName(xml[at + 4]);
const isCell = (xml: Uint8Array, at: number) => xml[at + 1] === 0x63 && endsName(xml[at + 2]);
const isCellEnd = (xml: Uint8Array, at: number) => xml[at + 1] === SLASH && xml[at + 2] === 0x63 && xml[at + 3] === GT;
const isDataEnd = (xml: Uint8Array, at: number) => xml[at + 1] === SLASH && standsAt(xml, SHEET_DATA_END, at);

/** The reading of one sheet's `<sheetData>`, a tag at a time, in order. */
class ReachReader {
  readonly reach: SheetReach = { rows: 0, lastRow: 0, lastColumn: 0, widest: '', far: null };
  private readonly reference: Reference = { row: 0, column: 0 };
  private row = 0;
  private column = 0;
  /** Whether a cell is open (`<c …>` read, not yet `</c>`), and whether its value holds text. */
  private inCell = false;
  private valued = false;

  constructor(private readonly xml: Uint8Array) {}

  /** Reads the tag at `at`: the offset to go on from (its `>`), or -1 at the end of the rows. */
  tag(at: number): number {
    const { xml } = this;
    if (isRow(xml, at)) return this.rowTag(at);
    if (isCell(xml, at)) return this.cellTag(at);
    if (isDataEnd(xml, at)) return -1;
    if (!this.inCell) return at;
    if (isCellEnd(xml, at)) {
      if (this.valued) this.counted();
      this.inCell = false;
    } else if (xml[at + 1] === 0x76 && xml[at + 2] === GT) {
      // <v>…</v>: the value, or a formula's result
      this.valued ||= holdsText(xml, at + 3);
    } else if (xml[at + 1] === 0x74 && endsName(xml[at + 2])) {
      // <t>…</t>: an inline string's text
      const close = closeOf(xml, at);
      this.valued ||= close > 0 && xml[close - 1] !== SLASH && holdsText(xml, close + 1);
      return close;
    }
    return at;
  }

  /** <row r="12">: its number, or the one after the row before. */
  private rowTag(at: number): number {
    const close = closeOf(this.xml, at);
    readReference(this.xml, at, close, this.reference);
    this.row = this.reference.row > 0 ? this.reference.row : this.row + 1;
    this.column = 0;
    return close;
  }

  /** <c r="B12" …>, or <c …/>: a cell with no value, a format alone. */
  private cellTag(at: number): number {
    const close = closeOf(this.xml, at);
    readReference(this.xml, at, close, this.reference);
    this.column = this.reference.column > 0 ? this.reference.column : this.column + 1;
    if (this.reference.row > 0) this.row = this.reference.row;
    this.inCell = close > 0 && this.xml[close - 1] !== SLASH;
    this.valued = false;
    return close;
  }

  /** Counts the cell just read, which holds a value: cells come row by row, left to right. */
  private counted(): void {
    const { reach, row, column } = this;
    if (row !== reach.lastRow) {
      reach.rows++;
      reach.lastRow = row;
      if (row > MAX_SHEET_ROWS) {
        reach.far ??= { cell: `${columnLetters(column)}${row}`, line: row, rows: 0 };
        reach.far.rows++;
      }
    }
    if (column > reach.lastColumn) {
      reach.lastColumn = column;
      reach.widest = `${columnLetters(column)}${row}`;
    }
  }
}

/**
 * How far the values of a sheet's XML reach. A row or cell without its `r` follows the one before, as
 * the library reads it; a cell holds a value when its `<v>` or an inline string's `<t>` holds text.
 */
export function sheetReach(xml: Uint8Array): SheetReach {
  const reader = new ReachReader(xml);
  const [start] = offsetsOf(xml, SHEET_DATA);
  if (start === undefined) return reader.reach;
  // A loop of its own rather than indexOf: tags are a few bytes apart, and a call each cost more.
  for (let at = start + 1; at < xml.length; at++) {
    if (xml[at] !== LT) continue;
    at = reader.tag(at);
    if (at < 0) break;
  }
  return reader.reach;
}

/**
 * Who says a refusal: an upload's answer adds that nothing was imported; the dashboard's reader, which has
 * sent nothing yet, does not.
 */
export type RefusalFor = 'upload' | 'dashboard';

/** A refusal's last words, joined to them by "; " or by a new sentence, as each refusal reads. */
function ended(words: string, said: RefusalFor, join: '; ' | '. '): string {
  if (said === 'dashboard') return `${words}.`;
  return join === '; ' ? `${words}; nothing was imported.` : `${words}. Nothing was imported.`;
}

/**
 * Why read-excel-file must not read the sheet, in the API's words (a 413), or null: a value below
 * MAX_SHEET_ROWS, or values spread over more than MAX_CELLS rows × columns. The words name the cell, so
 * that a stray one can be deleted; a sheet that is only too big is told to be sent in parts.
 */
export function reachRefusal(sheet: string, reach: SheetReach, said: RefusalFor): string | null {
  const count = (value: number) => value.toLocaleString('en-US');
  if (reach.far !== null) {
    // More rows than an import takes (its header aside): no stray cell to delete.
    if (reach.rows > MAX_IMPORT_ROWS + 1) {
      return ended(
        `An import takes at most ${MAX_IMPORT_ROWS} rows; sheet "${sheet}" holds values on ${reach.rows} lines. Send it in parts`,
        said,
        '; ',
      );
    }
    const { cell, line, rows } = reach.far;
    const more = rows > 1 ? ` and ${rows - 1} more row${rows === 2 ? '' : 's'} below it` : '';
    return ended(
      `Sheet "${sheet}" has a value on line ${count(line)} (cell ${cell})${more}, far below its other rows: an import reads a sheet down to line ${count(MAX_SHEET_ROWS)} (${count(MAX_IMPORT_ROWS)} rows, with blank rows between them). Delete that cell, or the rows below the table, and save the workbook again`,
      said,
      '; ',
    );
  }
  const cells = reach.lastRow * reach.lastColumn;
  if (cells > MAX_CELLS) {
    return ended(
      `Sheet "${sheet}" has a value in column ${columnLetters(reach.lastColumn)} (cell ${reach.widest}): read with its ${count(reach.lastRow)} lines, that is ${count(cells)} cells, more than an import reads (${count(MAX_CELLS)}). If that cell is a stray beside the table, delete it, or the columns right of the table, and save the workbook again; else send the sheet in parts`,
      said,
      '. ',
    );
  }
  return null;
}

/**
 * Each sheet whose values reach too far (reachRefusal), with why, in the workbook's order; their XML
 * (unzipped once: workbookParts) is searched as bytes. The dashboard's reader reads the other sheets.
 */
export function reachRefusals(
  parts: WorkbookParts,
  states: readonly SheetState[],
  said: RefusalFor,
): { name: string; message: string }[] {
  return states.flatMap((state) => {
    const sheet = parts[state.path];
    const message = sheet && reachRefusal(state.name, sheetReach(sheet), said);
    return message ? [{ name: state.name, message }] : [];
  });
}

/**
 * Why an upload must not read a workbook's sheets, or null: the first sheet whose values reach too far.
 * Every sheet counts, since read-excel-file reads each (a sheet named with ?sheet= is asked alone).
 */
export function workbookReachRefusal(parts: WorkbookParts, states: readonly SheetState[]): string | null {
  return reachRefusals(parts, states, 'upload')[0]?.message ?? null;
}
