import Papa from 'papaparse';
import readXlsxFile, { readSheet } from 'read-excel-file/web-worker';
import type { ByteSource } from './decode.js';
import { parseCsvText, type CsvTable } from './parse-csv.js';
import { reachRefusals } from '../../../server/imports/sheet-reach.js';
import {
  isWorksheet,
  NUMBERS_AS_TEXT,
  sheetStates,
  withSheetFacts,
  workbookFacts,
  workbookParts,
  type SheetState,
} from '../../../server/imports/workbook-facts.js';

/** One sheet of a workbook, its cells as text, each row with its row number in the spreadsheet. */
export interface WorkbookSheet {
  name: string;
  rows: string[][];
  /** The spreadsheet's row number of each row (empty rows are left out). */
  lines: number[];
  /** Hidden in Excel: offered only when no shown sheet has rows (sheet-choice.ts). */
  hidden?: boolean;
  /** The columns hidden in Excel, 0-based: a shown column wins over them for one field (matchHeaders). */
  hiddenColumns?: number[];
}

/** A sheet not read because a value in it reaches too far (sheet-reach.ts), with the server's words. */
export interface FarSheet {
  name: string;
  message: string;
}

export type Workbook = { ok: true; sheets: WorkbookSheet[]; tooFar?: FarSheet[] } | { ok: false; message: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];

/** Whether the file is a zip, as every .xlsx is: the import reads it as a workbook. */
export async function isWorkbook(file: ByteSource): Promise<boolean> {
  const head = await file.read(0, Math.min(4, file.size));
  return ZIP.every((byte, index) => head[index] === byte);
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A cell as the text a CSV would hold. Numbers keep the digits the file stores (read as text, so a
 * long store code is not rounded); text cells stay text, leading zeros and all; a date is ISO text,
 * with its time only when it has one (Excel's dates have no time zone: the library reads them as UTC).
 */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) {
    const day = `${cell.getUTCFullYear()}-${pad(cell.getUTCMonth() + 1)}-${pad(cell.getUTCDate())}`;
    const seconds = cell.getUTCHours() * 3600 + cell.getUTCMinutes() * 60 + cell.getUTCSeconds();
    if (seconds === 0) return day;
    return `${day}T${pad(cell.getUTCHours())}:${pad(cell.getUTCMinutes())}:${pad(cell.getUTCSeconds())}`;
  }
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell);
}

function sheetOf(name: string, data: readonly (readonly unknown[])[]): WorkbookSheet {
  const sheet: WorkbookSheet = { name, rows: [], lines: [] };
  data.forEach((cells, index) => {
    const row = cells.map(cellText);
    if (row.every((value) => value.trim() === '')) return;
    sheet.rows.push(row);
    sheet.lines.push(index + 1);
  });
  return sheet;
}

const NOT_A_WORKBOOK =
  'This is a zipped file that is not an Excel workbook Agency Desk can read. Open it in Excel and save it as Excel Workbook (.xlsx) or CSV, then drop that file here.';

/**
 * Reads every sheet of an .xlsx file (read-excel-file: maintained, MIT, fflate and saxen underneath). A
 * sheet whose values reach too far (a stray value far below or beside its table made the library build a
 * million empty rows; the server refuses it alike: sheet-reach.ts) is not read, and said in the server's
 * words: the other sheets are read one by one (a probe's workbook was refused whole for one stale sheet).
 */
export async function readWorkbook(file: ByteSource): Promise<Workbook> {
  const bytes = await file.read(0, file.size);
  try {
    const { states, tooFar, facts } = lookAtWorkbook(bytes);
    // Merged cells filled down, formula errors shown, hidden sheets known: as the server reads a workbook.
    const sheetFrom = (name: string, data: unknown[][] | undefined): WorkbookSheet => {
      const own = facts.find((each) => each.name === name);
      return {
        // A chart sheet has no cells: the library gives it no data.
        ...sheetOf(name, withSheetFacts(data ?? [], own)),
        hidden: own?.hidden ?? false,
        hiddenColumns: own?.hiddenColumns ?? [],
      };
    };
    if (tooFar.length === 0) {
      const sheets = await readXlsxFile(bytes.slice().buffer, NUMBERS_AS_TEXT);
      return { ok: true, sheets: sheets.map(({ sheet, data }) => sheetFrom(sheet, data as unknown[][] | undefined)) };
    }
    const sound = states.filter((state) => !tooFar.some((far) => far.name === state.name));
    const sheets: WorkbookSheet[] = [];
    for (const state of sound) sheets.push(sheetFrom(state.name, await soundSheetData(bytes, state)));
    // Nothing else to read: the workbook is refused for its first sheet that reaches too far.
    if (!sheets.some((sheet) => sheet.rows.length > 0)) return { ok: false, message: tooFar[0]!.message };
    return { ok: true, sheets, tooFar };
  } catch {
    return { ok: false, message: NOT_A_WORKBOOK };
  }
}

/**
 * The workbook's XML unzipped once, for its sheets' list, their reach and their facts, and let go when
 * this returns: the sheets' XML is not held while the library reads the file.
 */
function lookAtWorkbook(bytes: Uint8Array) {
  const parts = workbookParts(bytes);
  const states = sheetStates(parts);
  return { states, tooFar: reachRefusals(parts, states, 'dashboard'), facts: workbookFacts(parts, states) };
}

/** One sheet's cells, read alone; a chart sheet has none (isWorksheet). */
async function soundSheetData(bytes: Uint8Array, state: SheetState): Promise<unknown[][]> {
  if (!isWorksheet(state)) return [];
  return (await readSheet(bytes.slice().buffer, state.name, NUMBERS_AS_TEXT)) as unknown[][];
}

/**
 * A sheet as the table the CSV parser makes, so the rest of the import treats both alike; its lines
 * are the spreadsheet's row numbers (a line break inside a cell does not shift them).
 */
export function sheetTable(sheet: WorkbookSheet): CsvTable {
  const width = Math.max(0, ...sheet.rows.map((row) => row.length));
  const rows = sheet.rows.map((row) => Array.from({ length: width }, (_, column) => row[column] ?? ''));
  const table = parseCsvText(Papa.unparse(rows, { quotes: true, newline: '\n', escapeFormulae: false }));
  // The CSV's lines, one per row, turned back into the sheet's row numbers (a title above the header
  // is a row of the sheet, left out).
  const rowOfLine = new Map<number, number>();
  const above = table.rowsAboveHeader;
  rowOfLine.set(table.headerLine, sheet.lines[above] ?? table.headerLine);
  table.lines.forEach((line, index) => rowOfLine.set(line, sheet.lines[above + index + 1] ?? line));
  const toRow = (line: number) => rowOfLine.get(line) ?? line;
  table.headerLine = toRow(table.headerLine);
  table.lines = table.lines.map(toRow);
  table.problems = table.problems.map((problem) => ({ ...problem, line: toRow(problem.line) }));
  for (const blanks of table.blanks) blanks.firstLines = blanks.firstLines.map(toRow);
  if (sheet.hiddenColumns && sheet.hiddenColumns.length > 0) table.hiddenColumns = sheet.hiddenColumns;
  return table;
}
