import { strFromU8, unzipSync } from 'fflate';

/**
 * What read-excel-file does not say of a workbook, read from its XML (found by a probe with real client
 * sheets): which sheets are hidden (a stale sheet kept first must not be the one imported), the cells
 * merged down a column (a city written once for three rows: each row is in that city), and the cells
 * whose formula failed (#REF!: read as empty, the value would be missing without a word). The server's
 * .xlsx upload and the dashboard's import read workbooks through it alike.
 */
export interface SheetFacts {
  name: string;
  hidden: boolean;
  /** Ranges merged down one column, 0-based: rows `top` to `bottom` of `column`. */
  merges: { column: number; top: number; bottom: number }[];
  /** Cells holding a formula's error value, 0-based, with the value (#REF!, #N/A …). */
  errors: { row: number; column: number; text: string }[];
  /** The columns hidden in Excel, 0-based: a visible column wins over them for one field (matchHeaders). */
  hiddenColumns: number[];
  /** Number cells whose format pads them with zeros ("00000": 123 shown as 00123), 0-based, with the width. */
  zeroPadded: { row: number; column: number; width: number }[];
}

/** A workbook's parts that these facts read, unzipped once (workbookParts), by their paths in the zip. */
export type WorkbookParts = Record<string, Uint8Array>;

/** A tag's text as the bytes it is in the XML. */
export const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const MERGE_CELLS = ascii('<mergeCells');
const MERGE_CELLS_END = ascii('</mergeCells>');
const ERROR_CELL = ascii('t="e"');
const CELL_END = ascii('</c>');
const COLS = ascii('<cols>');
const COLS_END = ascii('</cols>');

/** How far into the XML its bytes are counted to find a pattern's rarest byte (offsetsOf). */
const SAMPLE_BYTES = 64 * 1024;
const samples = new WeakMap<Uint8Array, Uint32Array>();

/** How often each byte comes in the first SAMPLE_BYTES of `bytes` (counted once for each array). */
function byteCounts(bytes: Uint8Array): Uint32Array {
  let counts = samples.get(bytes);
  if (counts === undefined) {
    counts = new Uint32Array(256);
    for (let at = 0; at < Math.min(bytes.length, SAMPLE_BYTES); at++) counts[bytes[at]!]! += 1;
    samples.set(bytes, counts);
  }
  return counts;
}

/**
 * The offsets of `pattern` in `bytes`: the sheet's XML is searched as bytes, never made one big string.
 * The search jumps (the array's native indexOf) from one of the pattern's rarest bytes in this XML to
 * the next: jumping from its first byte (the "t" of `t="e"`, the "<" of `<mergeCells`) stopped at
 * nearly every cell of a 100,000-row sheet, 0.3 s of an upload's facts.
 */
export function* offsetsOf(bytes: Uint8Array, pattern: Uint8Array, from = 0): Generator<number> {
  const counts = byteCounts(bytes);
  let anchor = 0;
  for (let next = 1; next < pattern.length; next++)
    if (counts[pattern[next]!]! < counts[pattern[anchor]!]!) anchor = next;
  const byte = pattern[anchor]!;
  for (let hit = bytes.indexOf(byte, from + anchor); hit >= 0; hit = bytes.indexOf(byte, hit + 1)) {
    const at = hit - anchor;
    let whole = true;
    for (let next = 0; next < pattern.length && whole; next++) whole = bytes[at + next] === pattern[next];
    if (whole) yield at;
  }
}

/** "AB12" as 0-based [row, column]. */
function cellAt(reference: string): [number, number] | null {
  const match = /^([A-Z]{1,3})(\d{1,7})$/.exec(reference);
  if (match === null) return null;
  const column = [...match[1]!].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return [Number(match[2]) - 1, column];
}

const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const unescapeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );

function mergesOf(xml: Uint8Array): SheetFacts['merges'] {
  const [start] = offsetsOf(xml, MERGE_CELLS);
  if (start === undefined) return [];
  const [end = xml.length] = offsetsOf(xml, MERGE_CELLS_END, start);
  const text = strFromU8(xml.subarray(start, end));
  const merges: SheetFacts['merges'] = [];
  for (const [, from, to] of text.matchAll(/<mergeCell ref="([A-Z]+\d+):([A-Z]+\d+)"/g)) {
    const [top, left] = cellAt(from!) ?? [];
    const [bottom, right] = cellAt(to!) ?? [];
    if (top === undefined || bottom === undefined || left !== right || bottom <= top) continue;
    merges.push({ column: left!, top, bottom });
  }
  return merges;
}

function errorsOf(xml: Uint8Array): SheetFacts['errors'] {
  const errors: SheetFacts['errors'] = [];
  for (const at of offsetsOf(xml, ERROR_CELL)) {
    const open = xml.lastIndexOf(0x3c, at); // the "<c" of this cell
    const [close = xml.length] = offsetsOf(xml, CELL_END, at);
    const cell = strFromU8(xml.subarray(open, close));
    const reference = attribute(cell, 'r');
    const value = /<v>([^<]*)<\/v>/.exec(cell)?.[1];
    const place = reference === undefined ? null : cellAt(reference);
    if (place !== null && value !== undefined) errors.push({ row: place[0], column: place[1], text: value });
  }
  return errors;
}

/** The columns a sheet hides (`<col min="3" max="4" hidden="1"/>`, 1-based), 0-based. */
function hiddenColumnsOf(xml: Uint8Array): number[] {
  const [start] = offsetsOf(xml, COLS);
  if (start === undefined) return [];
  const [end = xml.length] = offsetsOf(xml, COLS_END, start);
  const hidden: number[] = [];
  for (const [tag] of strFromU8(xml.subarray(start, end)).matchAll(/<col\b[^>]*>/g)) {
    if (!/\bhidden="(1|true)"/.test(tag)) continue;
    const min = Number(attribute(tag, 'min'));
    // A range to Excel's last column (16,384) hides the rest of the sheet: no header lies that far.
    const max = Math.min(Number(attribute(tag, 'max')), min + 1024);
    for (let column = min; Number.isInteger(column) && column <= max; column++) hidden.push(column - 1);
  }
  return hidden;
}

/**
 * The cell styles (their index in cellXfs) whose number format pads with zeros, with the width: a format
 * of zeros alone ("00000", Excel's Special > Zip Code, or "000000" on a store code), which shows the number
 * 123 as 00123. Found by a probe: such a store code was read as the 123 the cell holds.
 */
function zeroPaddedStyles(styles: string): Map<number, number> {
  const widths = new Map<string, number>();
  for (const [tag] of styles.matchAll(/<numFmt\b[^>]*>/g)) {
    const code = unescapeXml(attribute(tag, 'formatCode') ?? '');
    if (/^0{2,}$/.test(code)) widths.set(attribute(tag, 'numFmtId') ?? '', code.length);
  }
  const padded = new Map<number, number>();
  if (widths.size === 0) return padded;
  const formats = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  [...formats.matchAll(/<xf\b[^>]*>/g)].forEach(([tag], index) => {
    const width = widths.get(attribute(tag, 'numFmtId') ?? '');
    if (width !== undefined) padded.set(index, width);
  });
  return padded;
}

/** The number cells of a sheet in a zero-padding style (zeroPaddedStyles). */
function zeroPaddedOf(xml: Uint8Array, styles: Map<number, number>): SheetFacts['zeroPadded'] {
  const cells: SheetFacts['zeroPadded'] = [];
  for (const [style, width] of styles) {
    for (const at of offsetsOf(xml, ascii(` s="${style}"`))) {
      const open = xml.lastIndexOf(0x3c, at); // the "<c" of this cell
      const tag = strFromU8(xml.subarray(open, xml.indexOf(0x3e, at) + 1));
      const type = attribute(tag, 't');
      const place = tag.startsWith('<c ') ? cellAt(attribute(tag, 'r') ?? '') : null;
      if (place !== null && (type === undefined || type === 'n'))
        cells.push({ row: place[0], column: place[1], width });
    }
  }
  return cells;
}

/** A sheet as the workbook lists it: its name, whether it is hidden, and its XML's path in the zip. */
export interface SheetState {
  name: string;
  hidden: boolean;
  path: string;
}

/**
 * Whether the sheet is a worksheet, with cells: a chart sheet is not (its XML is under xl/chartsheets/), and
 * read-excel-file's readSheet fails on it by its name. The server and the dashboard read it as no cells.
 */
export const isWorksheet = (state: SheetState): boolean => state.path.startsWith('xl/worksheets/');

/**
 * read-excel-file's option that gives each number as the text the file stores (a 20-digit store code is
 * never rounded), for the server's reader and the dashboard's alike.
 */
export const NUMBERS_AS_TEXT = { parseNumber: (text: string) => text };

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const STYLES_PART = 'xl/styles.xml';

/**
 * Whether the facts read this part of the zip: the workbook's list of sheets and its links, the styles,
 * and the sheets where Excel and every common writer put them (not the shared strings, which
 * read-excel-file reads itself, nor a pivot cache or a calculation chain, which can be as big as a sheet:
 * a review). A sheet the links put elsewhere is unzipped by a second pass (withSheetsElsewhere).
 */
export const isFactPart = (name: string): boolean =>
  name === WORKBOOK ||
  name === WORKBOOK_RELS ||
  name === STYLES_PART ||
  /^xl\/(work|chart)sheets\/[^/]+\.xml$/.test(name);

/**
 * The parts with the sheets a workbook's links put in another folder added, unzipped by `unzipNamed`
 * (the server's capped reader or fflate): one second pass, only when a sheet is missing.
 */
export function withSheetsElsewhere(
  parts: WorkbookParts,
  unzipNamed: (names: ReadonlySet<string>) => WorkbookParts,
): WorkbookParts {
  const elsewhere = new Set(
    sheetStates(parts)
      .map((state) => state.path)
      .filter((path) => path.endsWith('.xml') && parts[path] === undefined),
  );
  return elsewhere.size === 0 ? parts : { ...parts, ...unzipNamed(elsewhere) };
}

function unzipped(bytes: Uint8Array, wanted: (name: string) => boolean): WorkbookParts {
  try {
    return unzipSync(bytes, { filter: ({ name }) => wanted(name) });
  } catch {
    return {};
  }
}

/**
 * The parts the facts read, unzipped once for the states, the reach and the facts alike (each unzipped
 * the sheets again: three times for an upload), and a sheet at an unusual path in a second pass. None
 * when the workbook cannot be unzipped: the reader refuses it in its own words. The server unzips them
 * itself, under its cap (zip-parts.ts).
 */
export function workbookParts(bytes: Uint8Array): WorkbookParts {
  return withSheetsElsewhere(unzipped(bytes, isFactPart), (names) => unzipped(bytes, (name) => names.has(name)));
}

/** The workbook's sheets, in its order, from its list. */
export function sheetStates(parts: WorkbookParts): SheetState[] {
  const workbook = strFromU8(parts[WORKBOOK] ?? new Uint8Array());
  const rels = strFromU8(parts[WORKBOOK_RELS] ?? new Uint8Array());
  const targets = new Map(
    [...rels.matchAll(/<Relationship\b[^>]*>/g)].map(([tag]) => [attribute(tag, 'Id'), attribute(tag, 'Target')]),
  );
  return [...workbook.matchAll(/<sheet\b[^>]*>/g)].map(([tag]) => {
    const target = targets.get(attribute(tag, 'r:id')) ?? '';
    return {
      name: unescapeXml(attribute(tag, 'name') ?? ''),
      hidden: /\bstate="(hidden|veryHidden)"/.test(tag),
      path: target.startsWith('/') ? target.slice(1) : `xl/${target}`,
    };
  });
}

const factsOf = (state: SheetState, xml: Uint8Array | undefined, styles: Map<number, number>): SheetFacts => ({
  name: state.name,
  hidden: state.hidden,
  merges: xml ? mergesOf(xml) : [],
  errors: xml ? errorsOf(xml) : [],
  hiddenColumns: xml ? hiddenColumnsOf(xml) : [],
  zeroPadded: xml ? zeroPaddedOf(xml, styles) : [],
});

const stylesOf = (parts: WorkbookParts) => zeroPaddedStyles(strFromU8(parts[STYLES_PART] ?? new Uint8Array()));

/** The facts of these sheets, in their order (the dashboard offers each sheet; the server reads one, or each). */
export function workbookFacts(parts: WorkbookParts, states: readonly SheetState[]): SheetFacts[] {
  const styles = stylesOf(parts);
  return states.map((state) => factsOf(state, parts[state.path], styles));
}

/**
 * A sheet's rows as read-excel-file gives them (row i is the sheet's row i + 1), with each formula's
 * error value in its cell, each value merged down a column in every row of the merge, and each number in
 * a zero-padding format as Excel shows it (123 in "00000" as 00123).
 */
export function withSheetFacts(data: unknown[][], facts: SheetFacts | undefined): unknown[][] {
  if (facts === undefined) return data;
  padWithZeros(data, facts.zeroPadded);
  for (const { row, column, text } of facts.errors) {
    const cells = data[row];
    if (cells !== undefined && column < cells.length) cells[column] = text;
  }
  fillMerges(data, facts.merges);
  return data;
}

function padWithZeros(data: unknown[][], padded: SheetFacts['zeroPadded']): void {
  for (const { row, column, width } of padded) {
    const cells = data[row];
    const value = cells?.[column];
    // The library gives a number as the text the file stores (parseNumber): padded when it is digits alone.
    if (typeof value === 'string' && /^\d+$/.test(value)) cells![column] = value.padStart(width, '0');
  }
}

function fillMerges(data: unknown[][], merges: SheetFacts['merges']): void {
  for (const { column, top, bottom } of merges) {
    const value = data[top]?.[column];
    if (value === null || value === undefined) continue;
    for (let row = top + 1; row <= bottom && row < data.length; row++) {
      const cells = data[row]!;
      if (column < cells.length && (cells[column] === null || cells[column] === undefined)) cells[column] = value;
    }
  }
}
