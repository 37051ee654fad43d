import { analyse } from 'chardet';
import Papa from 'papaparse';
import { tooManyCells } from './cell-limits.js';
import { oneLineEnding, sniffCsv } from './sniff.js';
import { CP1252_HIGH, orLatin } from './latin-encoding.js';
import { mixedEncodingLine, mixedEncodingWords, strayByteLine, strayByteWords } from './mixed-encoding.js';

/**
 * A CSV body as the cells of a sheet (README: "Import a CSV or Excel file"): decoded by the charset the
 * request names, else as the dashboard reads a file (a byte order mark: UTF-8, or UTF-16LE/BE as Excel's
 * "Unicode Text" export; valid UTF-8; else the legacy encoding chardet finds, Windows-1252 for Latin
 * text), then split by papaparse with the delimiter it finds among , ; tab and |.
 */
export type Cells = string[][];
export type CellsOrRefusal = { cells: Cells } | { statusCode: number; message: string };

const NOT_TEXT =
  'The body is not text, so it cannot be read as a CSV. Send the file as it was exported (CSV or .xlsx), with its Content-Type.';

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

function bomOf(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', length: 3 };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', length: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** Why bytes without a byte order mark cannot be a CSV: a zipped workbook, or bytes that are no text. */
function notTextReason(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return 'This is an Excel workbook (.xlsx) or another zipped file: send it with Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
  const head = bytes.subarray(0, 64 * 1024);
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return NOT_TEXT;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) controls++;
  }
  return controls > head.length * 0.02 ? NOT_TEXT : null;
}

// chardet names these for any Latin-script single-byte text; spreadsheet exports in Western Europe and the
// Americas are Windows-1252 (Excel's "CSV"), as the dashboard's decode.ts reads them.
const LEGACY: Record<string, string> = {
  'windows-1251': 'windows-1251',
  Shift_JIS: 'shift_jis',
  GB18030: 'gb18030',
  Big5: 'big5',
  'EUC-KR': 'euc-kr',
};

function legacyEncoding(bytes: Uint8Array): string {
  const [best] = analyse(bytes.subarray(0, 64 * 1024));
  return best !== undefined && best.confidence >= 50 ? (LEGACY[best.name] ?? 'windows-1252') : 'windows-1252';
}

/** A decoder of `label` (any label TextDecoder takes; it throws on one it does not) that reads windows-1252 right. */
function decoderOf(label: string, options: { fatal?: boolean } = {}): { decode(bytes: Uint8Array): string } {
  const decoder = new TextDecoder(label, options);
  if (decoder.encoding !== 'windows-1252') return decoder;
  return {
    decode: (bytes) => decoder.decode(bytes).replace(/[\u0080-\u009F]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!),
  };
}

/** The body's text, or why it has none. */
export function decodeCsv(bytes: Uint8Array, charset: string | undefined): { text: string } | { message: string } {
  // A byte order mark says the encoding over any label, as the WHATWG Encoding Standard's decode does:
  // Excel's "Unicode Text" sent by a script that labels every body charset=utf-8 is UTF-16 all the same.
  const bom = bomOf(bytes);
  if (bom !== null) {
    // Fatal, as for a charset: a byte the encoding cannot read (a lone surrogate, an odd last byte of
    // UTF-16, a stray byte after UTF-8's mark) is refused, never stored as U+FFFD.
    try {
      return { text: new TextDecoder(bom.encoding, { fatal: true }).decode(bytes.subarray(bom.length)) };
    } catch {
      const line = bom.encoding === 'utf-8' ? strayByteLine(bytes) : null;
      if (line !== null) return { message: strayByteWords(line) };
      return {
        message: `The file is not valid ${bom.encoding.toUpperCase()}, as its byte order mark says it is: some bytes cannot be read in it`,
      };
    }
  }
  if (charset !== undefined) {
    let decoder: { decode(bytes: Uint8Array): string };
    try {
      decoder = decoderOf(charset, { fatal: true });
    } catch {
      return { message: `"${charset}" is not a character set this server reads; send the CSV as UTF-8` };
    }
    try {
      return { text: decoder.decode(bytes).replace(/^\uFEFF/, '') };
    } catch {
      return { message: `The body is not valid ${charset}: some bytes are not valid in that character set` };
    }
  }
  const reason = notTextReason(bytes);
  if (reason !== null) return { message: reason };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const legacy = orLatin(legacyEncoding(bytes), bytes);
    const mixed = mixedEncodingLine(bytes, legacy);
    if (mixed !== null) return { message: mixedEncodingWords(mixed) };
    return { text: decoderOf(legacy).decode(bytes) };
  }
}

/**
 * The CSV's rows, each the cells of one sheet row: row i is the sheet's row i + 1, whatever line breaks
 * its quoted cells hold, and an empty line is an empty row (so that row numbers match the sheet's).
 */
export function csvCells(bytes: Uint8Array, charset: string | undefined): CellsOrRefusal {
  const decoded = decodeCsv(bytes, charset);
  if ('message' in decoded) return { statusCode: 400, message: decoded.message };
  const tooMany = tooManyCells(decoded.text);
  if (tooMany !== null) return { statusCode: 413, message: tooMany };
  const { delimiter, linebreak, mixed } = sniffCsv(decoded.text);
  const text = mixed ? oneLineEnding(decoded.text) : decoded.text;
  const { data, errors } = Papa.parse<string[]>(text, {
    delimiter,
    newline: linebreak as Papa.ParseConfig['newline'],
    skipEmptyLines: false,
  });
  const quotes = errors.find((error) => error.code === 'MissingQuotes' || error.code === 'InvalidQuotes');
  if (quotes !== undefined) return { statusCode: 400, message: quoteProblem(text, quotes, delimiter) };
  // A final line break makes papaparse add one empty row: the sheet has none there.
  const last = data[data.length - 1];
  if (last !== undefined && last.length === 1 && last[0] === '') data.pop();
  return { cells: data };
}

/**
 * What is wrong with the quotes of the field papaparse stopped at (`index`: just after its opening quote).
 * Papaparse reports `"Best" Pizza,...` (text after a closing quote) as InvalidQuotes and, when no quote
 * follows in the file, as MissingQuotes too, at the same field; and a quote never closed as InvalidQuotes
 * where a later line has a stray quote. The text tells them apart: text after a closing quote on the
 * field's own line, or no closing quote before a line break (a quoted value may hold one, but not one
 * papaparse stopped at).
 */
function quoteProblem(text: string, error: Papa.ParseError, delimiter: string): string {
  const line = (error.row ?? 0) + 1;
  const from = error.index ?? 0;
  let close = text.indexOf('"', from);
  while (close >= 0 && text[close + 1] === '"') close = text.indexOf('"', close + 2);
  const next = close < 0 ? '' : text.charAt(close + 1);
  const sameLine = close >= 0 && !/[\r\n]/.test(text.slice(from, close));
  if (sameLine && next !== '' && next !== delimiter && next !== '\r' && next !== '\n') {
    return `Line ${line}: a value has text after its closing quote (such as "Best" Pizza), which would join the rows after it into one value. Put the whole value in quotes with its quotes doubled ("""Best"" Pizza"), or take the quotes out; nothing was imported`;
  }
  return `Line ${line}: a quoted value is never closed (a " is missing), so the rest of the file would be read as one value. Add the closing quote, or take the opening one out; nothing was imported`;
}
