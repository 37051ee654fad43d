import { MAX_IMPORT_ROWS } from '../locations/schemas.js';

/**
 * What a CSV or .xlsx body may hold once read, so that a small hostile file cannot make the writer thread
 * build more than its heap holds (README: "Limits"): the import's 100,000 rows × 50 columns (a CSV's
 * cells, a sheet's lines × columns up to its farthest value), and a workbook's parts unzipped no bigger
 * than the XML of such a sheet.
 */
export const MAX_CELLS = 5_000_000;
export const MAX_CELLS_IN_A_ROW = 2_000;
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
/**
 * The last line of a sheet an .xlsx import reads a value on: the import's rows with as many blank rows
 * between them. The workbook reader makes an array for every row above the last holding a value (a stray
 * cell on line 1,048,576 made a million, and the planner thread ran out of memory: sheet-reach.ts).
 */
export const MAX_SHEET_ROWS = 2 * MAX_IMPORT_ROWS;

const [OTHER, SEPARATOR, LINE] = [0, 1, 2];
/** What each code unit below 128 is to the count: , ; tab | separate cells, a line feed rows. */
const KINDS = new Uint8Array(128);
for (const code of [0x2c, 0x3b, 0x09, 0x7c]) KINDS[code] = SEPARATOR;
KINDS[0x0a] = LINE;

/**
 * Why a CSV's text has too many cells to read, or null: counted before papaparse builds them, every
 * separator counted (a quoted one too: the count is an upper bound, never an undercount).
 */
export function tooManyCells(text: string): string | null {
  let cells = 1;
  let inRow = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? KINDS[code] : OTHER;
    if (kind === OTHER) continue;
    if (kind === LINE) {
      cells += 1;
      inRow = 1;
    } else {
      cells += 1;
      inRow += 1;
      if (inRow > MAX_CELLS_IN_A_ROW) {
        return `A row has more than ${MAX_CELLS_IN_A_ROW.toLocaleString('en-US')} cells: this is not a sheet of locations.`;
      }
    }
    if (cells > MAX_CELLS) {
      return `The file has more than ${MAX_CELLS.toLocaleString('en-US')} cells; an import takes at most 100,000 rows of 50 columns. Send it in parts.`;
    }
  }
  return null;
}
