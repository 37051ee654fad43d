import { inflateRawSync } from 'node:zlib';
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

/**
 * A zip's (an .xlsx's) parts that `wanted` names, unzipped, or 'too big' when the whole zip unzips to
 * more than `limit` bytes: each part is inflated with a cap (zlib's maxOutputLength) rather than trusting
 * the sizes the file declares, so a zip bomb stops at the cap. The parts kept are inflated once here for
 * every later reading of them (workbook-facts.ts, sheet-reach.ts). A zip that cannot be read gives the
 * parts read so far: the workbook reader refuses it in its own words.
 */
export function unzipUnder(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limit = MAX_UNZIPPED_BYTES,
): Record<string, Uint8Array> | 'too big' {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Record<string, Uint8Array> = {};
  const end = endOfCentralDirectory(view);
  if (end < 0) return parts;
  let entry = view.readUInt32LE(end + 16);
  let left = limit;
  for (let count = view.readUInt16LE(end + 10); count > 0; count--) {
    if (entry + 46 > view.length || view.readUInt32LE(entry) !== 0x02014b50) return parts;
    const method = view.readUInt16LE(entry + 10);
    const compressed = view.readUInt32LE(entry + 20);
    const nameLength = view.readUInt16LE(entry + 28);
    const local = view.readUInt32LE(entry + 42);
    if (local + 30 > view.length) return parts;
    const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
    const data = view.subarray(start, start + compressed);
    const part = method === 0 ? data : inflated(data, left);
    if (part === null || part.length > left) return 'too big';
    left -= part.length;
    const name = view.toString('utf8', entry + 46, entry + 46 + nameLength);
    if (wanted(name)) parts[name] = part;
    entry += 46 + nameLength + view.readUInt16LE(entry + 30) + view.readUInt16LE(entry + 32);
  }
  return parts;
}

/** The part inflated, or null past the cap (a broken stream counts as nothing: the reader refuses it). */
function inflated(data: Buffer, cap: number): Buffer | null {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? null : Buffer.alloc(0);
  }
}

function endOfCentralDirectory(view: Buffer): number {
  for (let i = view.length - 22; i >= Math.max(0, view.length - 22 - 65_535); i--) {
    if (view.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}
