import readXlsxFile, { readSheet } from 'read-excel-file/node';
import { MAX_UNZIPPED_BYTES } from './cell-limits.js';
import { unzipUnder } from './zip-parts.js';
import type { Cells } from './csv-text.js';
import { HEADER_SEARCH_ROWS, rowsUnderHeader } from './header-row.js';
import { isTable, sheetsToRead } from './sheet-choice.js';
import { workbookReachRefusal } from './sheet-reach.js';
import {
  isFactPart,
  isWorksheet,
  NUMBERS_AS_TEXT,
  sheetStates,
  withSheetFacts,
  withSheetsElsewhere,
  workbookFacts,
  type SheetFacts,
  type SheetState,
} from './workbook-facts.js';

type Refusal = { statusCode: number; message: string };
type SheetCells = { cells: Cells; hiddenColumns: number[]; sheet: string } | Refusal;

/**
 * An .xlsx body's sheet as text cells (README: "Import a CSV or Excel file"), with read-excel-file
 * (maintained, MIT, fflate and saxen underneath; chosen over SheetJS, whose npm build is stuck with open
 * advisories): text cells as they are (leading zeros kept), numbers as the text the file stores (a
 * 20-digit number is never rounded), dates as ISO text, TRUE/FALSE as those words. Async (the library
 * unzips with promises): the writer thread reads it before the import's synchronous transaction.
 */
export async function xlsxCells(bytes: Uint8Array, sheet: string | undefined): Promise<SheetCells> {
  const look = lookAtWorkbook(bytes, sheet);
  if ('statusCode' in look) return look;
  // A sheet named is read alone: another sheet's stray cell far below does not refuse it (a probe's was).
  if (look.named !== undefined) return namedSheetCells(bytes, look.named, look.facts[0]);
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    const read = await readXlsxFile(asBuffer(bytes), NUMBERS_AS_TEXT);
    // A chart sheet has no cells: the library gives it no data (a 500 before, found by a probe).
    sheets = read.map(({ sheet, data }) => ({ sheet, data: (data as unknown[][] | undefined) ?? [] }));
  } catch {
    return UNREADABLE;
  }
  const stateOf = (name: string) => look.states.find((each) => each.name === name);
  const chosen = firstToRead(sheets, stateOf);
  if (chosen !== undefined && 'statusCode' in chosen) return chosen;
  if (chosen === undefined) return UNREADABLE;
  const facts = look.facts.find((each) => each.name === chosen.sheet);
  return sheetCells(facts, chosen.sheet, chosen.data);
}

/** What the workbook's own XML says before the library reads it: its sheets, the one named, their facts. */
interface WorkbookLook {
  states: SheetState[];
  /** The sheet ?sheet= names, read alone; undefined: the library reads every sheet. */
  named: SheetState | undefined;
  /** The facts of the sheets to read (the one named, else each). */
  facts: SheetFacts[];
}

/**
 * The workbook's XML (its list of sheets and their XML) unzipped once, under the cap, and read: whether
 * the sheets to read reach too far, and their facts. Its parts are let go when this returns, before
 * read-excel-file unzips the file again on its own: the sheet's XML (36 MB for 100,000 rows) is not
 * held through the library's reading.
 */
function lookAtWorkbook(bytes: Uint8Array, sheet: string | undefined): WorkbookLook | Refusal {
  const first = unzipUnder(bytes, isFactPart);
  if (first === 'unreadable') return UNREADABLE;
  if (first === 'too big') {
    return {
      statusCode: 413,
      message: `The workbook unzips to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MiB: save the sheet as CSV, or send it in parts.`,
    };
  }
  // A sheet its links put in another folder: unzipped in a second pass (the cap was checked by the first).
  const parts = withSheetsElsewhere(first, (names) => {
    const more = unzipUnder(bytes, (name) => names.has(name));
    return typeof more === 'object' ? more : {};
  });
  const states = sheetStates(parts);
  const state = sheet === undefined ? undefined : named(states, sheet);
  if (sheet !== undefined && state === undefined) {
    const names = states.map((each) => `"${each.name}"`).join(', ');
    return {
      statusCode: 400,
      message: `The workbook has no sheet named "${sheet}"; its sheets are ${names}. Name one with ?sheet=`,
    };
  }
  const toRead = state === undefined ? states : [state];
  const tooFar = workbookReachRefusal(parts, toRead);
  if (tooFar !== null) return { statusCode: 413, message: tooFar };
  return { states, named: state, facts: workbookFacts(parts, toRead) };
}

const UNREADABLE: Refusal = {
  statusCode: 400,
  message: 'The body is not an .xlsx workbook that can be read. Save it again from Excel as .xlsx, or as CSV.',
};

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The sheet ?sheet= names, read alone (readSheet parses no other sheet). */
async function namedSheetCells(
  bytes: Uint8Array,
  state: SheetState,
  facts: SheetFacts | undefined,
): Promise<SheetCells> {
  if (!isWorksheet(state)) return sheetCells(facts, state.name, []);
  let data: unknown[][];
  try {
    data = ((await readSheet(asBuffer(bytes), state.name, NUMBERS_AS_TEXT)) ?? []) as unknown[][];
  } catch {
    return UNREADABLE;
  }
  return sheetCells(facts, state.name, data);
}

/** A sheet's cells as text, with its merges and errors (workbook-facts.ts). */
function sheetCells(facts: SheetFacts | undefined, sheet: string, data: unknown[][]): SheetCells {
  const cells = withSheetFacts(data, facts).map((row) => row.map(cellText));
  return { cells, hiddenColumns: facts?.hiddenColumns ?? [], sheet };
}

/** The sheet of that name; else the one whose name is it in another case, as Excel's names are (found by a walk). */
function named(states: SheetState[], name: string): SheetState | undefined {
  const exact = states.find((each) => each.name === name);
  if (exact !== undefined) return exact;
  const folded = states.filter((each) => each.name.toLowerCase() === name.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

const hasValue = (row: unknown[]) => row.some((cell) => cell !== null && cell !== '');

/** A sheet's first rows with values, as text: where its header lies (header-row.ts). */
function topRows(data: unknown[][]): string[][] {
  const top: string[][] = [];
  for (let index = 0; index < data.length && top.length < HEADER_SEARCH_ROWS; index++) {
    if (hasValue(data[index]!)) top.push(data[index]!.map(cellText));
  }
  return top;
}

/**
 * The sheet read without ?sheet=: the one sheetsToRead offers (a probe's workbooks kept a stale hidden
 * sheet first, an empty one, or a page of instructions: the shown sheet whose header names the
 * locations' fields, as a person opening the file reads it); else the first. Several tables of locations
 * (a sheet a country, or a template's example beside the data: found by a probe, the second was never
 * read) are a 400 naming them, as the dashboard asks which one.
 */
function firstToRead<T extends { sheet: string; data: unknown[][] }>(
  sheets: T[],
  stateOf: (name: string) => { hidden: boolean } | undefined,
): T | Refusal | undefined {
  const looks = sheets.map((each) => ({
    each,
    hidden: stateOf(each.sheet)?.hidden ?? false,
    filled: each.data.some(hasValue),
    top: topRows(each.data),
  }));
  const offered = sheetsToRead(looks);
  const tables = offered.filter(isTable);
  if (tables.length < 2) return offered[0]?.each ?? sheets[0];
  // Its rows under the header, a title above it not counted.
  const rowsOf = ({ each, top }: (typeof tables)[number]) => rowsUnderHeader(each.data.filter(hasValue).length, top);
  const named = tables.map((table) => `"${table.each.sheet}" (${rowsWords(rowsOf(table))})`);
  return {
    statusCode: 400,
    message: `The workbook has ${tables.length} sheets of locations, ${named.join(', ')}: name the one to import with ?sheet=`,
  };
}

const rowsWords = (count: number) => `${count} row${count === 1 ? '' : 's'}`;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
