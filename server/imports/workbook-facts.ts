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
}

type Files = Record<string, Uint8Array>;

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const MERGE_CELLS = ascii('<mergeCells');
const MERGE_CELLS_END = ascii('</mergeCells>');
const ERROR_CELL = ascii('t="e"');
const CELL_END = ascii('</c>');
const COLS = ascii('<cols>');
const COLS_END = ascii('</cols>');

/** The offsets of `pattern` in `bytes`: the sheet's XML is searched as bytes, never made one big string. */
function* offsetsOf(bytes: Uint8Array, pattern: Uint8Array, from = 0): Generator<number> {
  for (let at = bytes.indexOf(pattern[0]!, from); at >= 0; at = bytes.indexOf(pattern[0]!, at + 1)) {
    let whole = true;
    for (let next = 1; next < pattern.length && whole; next++) whole = bytes[at + next] === pattern[next];
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

/** A sheet as the workbook lists it: its name, whether it is hidden, and its XML's path in the zip. */
export interface SheetState {
  name: string;
  hidden: boolean;
  path: string;
}

/** The zip's files that `wanted` names; none when the workbook cannot be unzipped. */
function unzipped(bytes: Uint8Array, wanted: (name: string) => boolean): Files {
  try {
    return unzipSync(bytes, { filter: ({ name }) => wanted(name) });
  } catch {
    return {};
  }
}

/** The workbook's sheets, in its order, from its list alone (no sheet's XML is unzipped). */
export function sheetStates(bytes: Uint8Array): SheetState[] {
  const files = unzipped(bytes, (name) => name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels');
  const workbook = strFromU8(files['xl/workbook.xml'] ?? new Uint8Array());
  const rels = strFromU8(files['xl/_rels/workbook.xml.rels'] ?? new Uint8Array());
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

const factsOf = (state: SheetState, xml: Uint8Array | undefined): SheetFacts => ({
  name: state.name,
  hidden: state.hidden,
  merges: xml ? mergesOf(xml) : [],
  errors: xml ? errorsOf(xml) : [],
  hiddenColumns: xml ? hiddenColumnsOf(xml) : [],
});

/** One sheet's facts: only its own XML is unzipped (the server reads one sheet of a workbook). */
export function sheetFacts(bytes: Uint8Array, state: SheetState): SheetFacts {
  return factsOf(state, unzipped(bytes, (name) => name === state.path)[state.path]);
}

/** Every sheet's facts, in the workbook's order (the dashboard offers each sheet). */
export function workbookFacts(bytes: Uint8Array): SheetFacts[] {
  const states = sheetStates(bytes);
  const files = unzipped(bytes, (name) => states.some((state) => state.path === name));
  return states.map((state) => factsOf(state, files[state.path]));
}

/**
 * A sheet's rows as read-excel-file gives them (row i is the sheet's row i + 1), with each formula's
 * error value in its cell and each value merged down a column in every row of the merge.
 */
export function withSheetFacts(data: unknown[][], facts: SheetFacts | undefined): unknown[][] {
  if (facts === undefined) return data;
  for (const { row, column, text } of facts.errors) {
    const cells = data[row];
    if (cells !== undefined && column < cells.length) cells[column] = text;
  }
  for (const { column, top, bottom } of facts.merges) {
    const value = data[top]?.[column];
    if (value === null || value === undefined) continue;
    for (let row = top + 1; row <= bottom && row < data.length; row++) {
      const cells = data[row]!;
      if (column < cells.length && (cells[column] === null || cells[column] === undefined)) cells[column] = value;
    }
  }
  return data;
}
