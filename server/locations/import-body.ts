import { joinPieces } from '../http/body.js';
import { BodyBytes } from './body-bytes.js';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import type { ErrorDetail } from '../http/errors.js';
import type { LeftOutRow } from '../imports/schemas.js';
import { readTableBody, type TableBody, type TableFormat } from '../imports/table-body.js';
import { firstRowProblem, rowError, schemaErrors } from './rows.js';
import { MAX_IMPORT_ROWS, UploadBody } from './schemas.js';

/** An import's body, refused: the status and the words of the answer. */
export interface Refusal {
  statusCode: number;
  message: string;
  details?: ErrorDetail[];
}

// The body's envelope, from the route's schema; rows are checked one by one for per-row messages.
const envelope = TypeCompiler.Compile(
  Type.Object(
    { clientId: UploadBody.properties.clientId, rows: Type.Array(Type.Unknown()) },
    { additionalProperties: false },
  ),
);

/**
 * Values a body may hold: 40 a row of 100,000 rows is more than any real import (16 fields, 10 labels,
 * 7 days of hours). A body of millions of tiny values (16 million numbers fit in 32 MiB) would build
 * hundreds of megabytes of objects: it is refused after one scan of its bytes, before it is parsed.
 */
const MAX_VALUES = MAX_IMPORT_ROWS * 40;
/** Arrays and objects cost the most to build: a row, its labels, its hours and their intervals. */
const MAX_CONTAINERS = MAX_IMPORT_ROWS * 12;

/**
 * No field of a location takes a text longer than this (the longest take 1,000 characters, 6 bytes each
 * when escaped): a longer string in a body is refused from the scan of its bytes, before JSON.parse
 * would make two copies of it (the text, then the value).
 */
export const MAX_STRING_BYTES = 64 * 1024;

/** What the scan of a body's bytes refuses: too many values, or a string no field takes (its row and key). */
type ScanFinding = 'too many values' | { row: number; key: string; bytes: number };

/**
 * Where the elements of the body's `"rows": [...]` lie: the offsets of its `[`, of the commas between
 * its elements and of its `]` (`bounds[i] + 1` to `bounds[i + 1]` is element i). Null when the body has
 * no such array at the top level, or more than one.
 */
interface RowsLayout {
  bounds: Int32Array;
  /** The commas between elements (the elements are one more, or none). */
  commas: number;
}

/**
 * One pass over the bytes: whether the text holds more JSON values
 * than MAX_VALUES (its commas, colons and brackets outside strings) or more arrays and objects than
 * MAX_CONTAINERS, or a string longer than MAX_STRING_BYTES, with the row (the objects two levels down)
 * and the key it is under; and where the rows array's elements lie, to parse them a piece at a time.
 */
class BodyScan {
  private values = 0;
  private containers = 0;
  private depth = 0;
  private row = -1;
  /** The last string read (its first byte and its closing quote), and the key the value being read is under. */
  private lastStart = -1;
  private lastEnd = -1;
  private keyStart = -1;
  private keyEnd = -1;
  /** The top-level arrays under a "rows" key, whether one is being read, and its commas so far. */
  private rowsArrays = 0;
  private inRows = false;
  private commas = 0;
  private readonly bounds: Int32Array;
  /** The body's own keys, and the first written twice (JSON.parse would keep only its last value). */
  private readonly topKeys = new Set<string>();
  repeatedKey: string | null = null;

  constructor(private readonly body: BodyBytes) {
    this.bounds = new Int32Array(Math.min(MAX_IMPORT_ROWS, body.length) + 2);
  }

  run(): { finding: ScanFinding | null; layout: RowsLayout | null } {
    const finding = this.scan();
    if (finding !== null) return { finding, layout: null };
    const whole = this.rowsArrays === 1 && !this.inRows && this.commas <= MAX_IMPORT_ROWS;
    return { finding: null, layout: whole ? { bounds: this.bounds, commas: this.commas } : null };
  }

  /** Piece by piece: a string may end in a later piece, and the scan goes on after it there. */
  private scan(): ScanFinding | null {
    const { body } = this;
    for (let at = 0; at < body.length;) {
      const piece = body.pieceOf(at);
      const base = body.startOf(piece);
      const bytes = body.pieces[piece]!;
      let i = at - base;
      for (; i < bytes.length; i++) {
        const kind = KINDS[bytes[i]!];
        if (kind === OTHER) continue;
        if (kind !== STRING) {
          const finding = this.structure(base + i, kind!, bytes[i]!);
          if (finding !== null) return finding;
          continue;
        }
        const start = base + i + 1;
        const end = stringEnd(body, start);
        if (end - start > MAX_STRING_BYTES)
          return { row: this.row, key: keyText(body, this.keyStart, this.keyEnd), bytes: end - start };
        // Two numbers, not an array: a body of 100,000 rows holds some 1.5 million strings (87 MB of arrays).
        this.lastStart = start;
        this.lastEnd = end;
        if (end - base >= bytes.length) break;
        i = end - base;
      }
      at = i >= bytes.length ? base + bytes.length : this.lastEnd + 1;
    }
    return null;
  }

  /** A bracket, a comma or a colon outside strings at `at`. */
  private structure(at: number, kind: number, byte: number): ScanFinding | null {
    if (kind === OPEN) return this.open(at, byte) ? null : 'too many values';
    if (kind === CLOSE) {
      if (--this.depth === 1 && this.inRows) this.closeRows(at);
      return null;
    }
    return this.separator(at, byte) ? null : 'too many values';
  }

  private open(at: number, byte: number): boolean {
    if (this.depth === 1 && byte === 0x5b && isRowsKey(this.body, this.keyStart, this.keyEnd)) {
      this.rowsArrays++;
      this.inRows = true;
      this.commas = 0;
      this.bounds[0] = at;
    }
    // The rows are the objects two levels down: {"rows": [{...}, ...]}.
    if (this.depth++ === 2 && byte === 0x7b) this.row++;
    return ++this.containers <= MAX_CONTAINERS && ++this.values <= MAX_VALUES;
  }

  private topKey(key: string): void {
    if (this.topKeys.has(key)) this.repeatedKey ??= key;
    this.topKeys.add(key);
  }

  private closeRows(at: number): void {
    this.inRows = false;
    if (this.commas <= MAX_IMPORT_ROWS) this.bounds[this.commas + 1] = at;
  }

  private separator(at: number, byte: number): boolean {
    if (byte === 0x3a) {
      this.keyStart = this.lastStart;
      this.keyEnd = this.lastEnd;
      if (this.depth === 1) this.topKey(keyText(this.body, this.keyStart, this.keyEnd));
    } else if (this.depth === 2 && this.inRows && ++this.commas <= MAX_IMPORT_ROWS) this.bounds[this.commas] = at;
    return ++this.values <= MAX_VALUES;
  }
}

/** Whether the key a value follows is written `"rows"` (an escaped spelling is read by JSON.parse instead). */
function isRowsKey(body: BodyBytes, start: number, end: number): boolean {
  return (
    end - start === 4 &&
    body.byteAt(start) === 0x72 &&
    body.byteAt(start + 1) === 0x6f &&
    body.byteAt(start + 2) === 0x77 &&
    body.byteAt(start + 3) === 0x73
  );
}

const QUOTE = 0x22;
const [OTHER, STRING, OPEN, CLOSE, SEPARATOR] = [0, 1, 2, 3, 4];
/** What each byte is to the scan outside strings: a quote, [ {, ] }, a comma or colon, or nothing. */
const KINDS = new Uint8Array(256);
KINDS[QUOTE] = STRING;
KINDS[0x5b] = KINDS[0x7b] = OPEN;
KINDS[0x5d] = KINDS[0x7d] = CLOSE;
KINDS[0x2c] = KINDS[0x3a] = SEPARATOR;

/**
 * The index of the quote that ends the string starting at `from`, or the length: the next quote that an
 * even number of backslashes precedes (each quote found by the native indexOf, not a byte at a time).
 */
function stringEnd(body: BodyBytes, from: number): number {
  for (let at = body.indexOf(QUOTE, from); at >= 0; at = body.indexOf(QUOTE, at + 1)) {
    let slashes = 0;
    while (at - 1 - slashes >= from && body.byteAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return body.length;
}

/** The key a string was under, as JSON reads it ("" when there is none, or it is not a short string). */
function keyText(body: BodyBytes, start: number, end: number): string {
  if (start < 0 || end - start > 200) return '';
  try {
    return JSON.parse(`"${body.text(start, end)}"`) as string;
  } catch {
    return '';
  }
}

const tooComplex: Refusal = {
  statusCode: 413,
  message:
    'The body holds more values than an import can: a row is an object of a location\'s fields, and an import is {"clientId": ..., "rows": [...]}',
};

/**
 * An import's rows, handed out a piece at a time: a JSON body's rows are parsed piece by piece from its
 * bytes, so that 100,000 parsed rows never sit in memory at once (npm run bench: peak RSS). A piece that
 * is not JSON is the whole body's parse error, as JSON.parse words it.
 */
export interface RowSource {
  /** At least as many as the rows: a sheet's lines under its header, some of which may be no row. */
  readonly length: number;
  /** Rows start to end (exclusive), at most end - start of them; each piece is asked for once, in order. */
  piece(start: number, end: number): unknown[] | Refusal;
  /** Once every piece was read: why the whole is refused after all (a sheet's overfull lines), or null. */
  finish?(): Refusal | null;
}

/** Rows already parsed (a CSV or .xlsx file's, or a body JSON.parse read whole): each let go once handed out. */
function rowsOfArray(rows: unknown[]): RowSource {
  return {
    length: rows.length,
    piece(start, end) {
      const piece = rows.slice(start, end);
      rows.fill(undefined, start, end);
      return piece;
    },
  };
}

/** A CSV or .xlsx body's rows, read a piece of lines at a time; the answer's members once all are read. */
function tableImportBody({ clientId, reader, answerMembers }: TableBody): ImportBody {
  let leftOut: LeftOutRow[] = [];
  const rows: RowSource = {
    length: reader.lines,
    piece: (start, end) => reader.rowsOf(start, end),
    finish() {
      const end = reader.finish();
      if ('statusCode' in end) return end;
      leftOut = end.left_out;
      return null;
    },
  };
  return { clientId, rows, answerMembers: () => answerMembers(leftOut) };
}

/** The whole body parsed; or, when it is not JSON, the answer in JSON.parse's words. */
function parseWhole(body: BodyBytes): { value: unknown } | Refusal {
  try {
    return { value: JSON.parse(body.text(0, body.length)) as unknown };
  } catch (error) {
    return { statusCode: 400, message: `The body is not valid JSON: ${(error as Error).message}` };
  }
}

/** The answer to a body a piece of which is not JSON: the whole body's parse says why. */
function notJson(body: BodyBytes): Refusal {
  const whole = parseWhole(body);
  return 'statusCode' in whole ? whole : { statusCode: 400, message: 'The body is not valid JSON' };
}

/**
 * The body with its rows array emptied, parsed (null when that is not JSON), and its rows to parse a
 * piece at a time. The envelope, each piece and the commas between elements being JSON, the whole is.
 */
function piecewise(body: BodyBytes, { bounds, commas }: RowsLayout): { envelope: unknown; rows: RowSource } | null {
  const [open, close] = [bounds[0]!, bounds[commas + 1]!];
  let envelope: unknown;
  try {
    envelope = JSON.parse(`${body.text(0, open + 1)}${body.text(close, body.length)}`);
  } catch {
    return null;
  }
  const empty = commas === 0 && body.text(open + 1, close).trim() === '';
  const rows: RowSource = {
    length: empty ? 0 : commas + 1,
    piece(start, end) {
      let piece: unknown;
      try {
        piece = JSON.parse(`[${body.text(bounds[start]! + 1, bounds[end]!)}]`);
      } catch {
        return notJson(body);
      }
      return Array.isArray(piece) && piece.length === end - start ? piece : notJson(body);
    },
  };
  return { envelope, rows };
}

/** An import's body read: its client, its rows, and what a CSV or .xlsx upload adds to the answer. */
export interface ImportBody {
  clientId: string;
  rows: RowSource;
  /** The answer's `columns` and `left_out`, as JSON members, once every row was read. */
  answerMembers?: () => string;
}

/** What the scan of the bytes refuses before anything is parsed: too much, too long, or a key given twice. */
function scanRefusal(finding: ScanFinding | null, repeatedKey: string | null): Refusal | null {
  if (finding === 'too many values') return tooComplex;
  if (finding !== null) return tooLong(finding);
  if (repeatedKey === null) return null;
  return {
    statusCode: 400,
    message: `The body gives "${repeatedKey}" more than once (JSON would keep only the last): give it once. Nothing was imported.`,
  };
}

/**
 * The body's envelope checked and its rows to read: the client and the rows, or why not. JSON.parse
 * only ever makes `__proto__` an own property (it never sets a prototype), and the checks refuse every
 * key but the known ones, so a poisoning body is a 400 before any of it is used. A body whose rows are
 * not one `"rows": [...]` array at the top level is parsed whole, as JSON.parse reads it.
 */
export function parseImportBody(body: Uint8Array | readonly Uint8Array[], format?: TableFormat): ImportBody | Refusal {
  const pieces = body instanceof Uint8Array ? [body] : body;
  if (format !== undefined) {
    // A CSV or a workbook is read into cells whole (its decoder and its unzipper take one buffer); its
    // rows are made from them a piece at a time.
    const table = readTableBody(joinPieces([...pieces]), format);
    return 'statusCode' in table ? table : tableImportBody(table);
  }
  return parseJsonBody(new BodyBytes(pieces));
}

/** A JSON import body, read in its pieces (body-bytes.ts). */
function parseJsonBody(body: BodyBytes): ImportBody | Refusal {
  // As every JSON body of the API (http/body.ts): bytes that are not UTF-8 are refused, never read as U+FFFD,
  // and a leading byte order mark is skipped (secure-json-parse does so for the others; RFC 8259 §8.1 allows it).
  if (!body.isUtf8()) return { statusCode: 400, message: 'The body is not valid UTF-8' };
  if (body.length >= 3 && body.byteAt(0) === 0xef && body.byteAt(1) === 0xbb && body.byteAt(2) === 0xbf)
    return parseJsonBody(new BodyBytes(withoutFirst(body.pieces, 3)));
  const scanner = new BodyScan(body);
  const scan = scanner.run();
  const refusal = scanRefusal(scan.finding, scanner.repeatedKey);
  if (refusal !== null) return refusal;
  const pieces = scan.layout && piecewise(body, scan.layout);
  const read = pieces ? { value: pieces.envelope } : parseWhole(body);
  if ('statusCode' in read) return read;
  const { value } = read;
  if (!envelope.Check(value)) return envelopeRefusal(value);
  const rows = pieces ? pieces.rows : rowsOfArray(value.rows);
  if (rows.length > MAX_IMPORT_ROWS) {
    return {
      statusCode: 413,
      message: `An import takes at most ${MAX_IMPORT_ROWS} rows; this one has ${rows.length}. Send it in parts.`,
    };
  }
  // UUIDs are case-insensitive on input (RFC 9562); ids are stored in lower case.
  return { clientId: value.clientId.toLowerCase(), rows };
}

/** The pieces without their first `count` bytes. */
function withoutFirst(pieces: readonly Uint8Array[], count: number): Uint8Array[] {
  const kept: Uint8Array[] = [];
  let left = count;
  for (const piece of pieces) {
    if (left >= piece.length) left -= piece.length;
    else {
      kept.push(piece.subarray(left));
      left = 0;
    }
  }
  return kept;
}

function envelopeRefusal(value: unknown): Refusal {
  const details = schemaErrors(envelope.Errors(value), (field, message) => ({
    path: `/${field}`,
    message:
      field === 'clientId' && message === 'must be text or null' ? 'must be a UUID' : envelopeWords(field, message),
  }));
  // The first problem in words, as every other 400 words its first detail ("clientId must be a UUID").
  const first = details[0];
  const words = first === undefined ? '' : `: ${first.path === '/' ? 'it' : first.path.slice(1)} ${first.message}`;
  return { statusCode: 400, message: `The import body is not valid${words}`, details };
}

function tooLong({ row, key, bytes }: { row: number; key: string; bytes: number }): Refusal {
  // Found before the rows are read (so the count of rows is not known): bytes, as they were counted.
  const message = `is ${bytes.toLocaleString('en')} bytes long, far longer than any field of a location takes`;
  if (row < 0) return { statusCode: 400, message: `A value of the body ${message}` };
  const detail = rowError(row, key, message);
  return {
    statusCode: 400,
    message: `A row is not valid; nothing was imported. ${firstRowProblem(detail)}`,
    details: [detail],
  };
}

function envelopeWords(field: string, message: string): string {
  if (field === '') return 'must be an object with clientId and rows';
  if (message.includes('not a field of a location'))
    return 'is not a field of an import, which holds clientId and rows';
  if (field === 'rows' && message !== 'is required') return 'must be an array of locations';
  if (field === 'clientId' && message !== 'is required') return 'must be a UUID';
  return message;
}
