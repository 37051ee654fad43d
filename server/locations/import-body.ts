/**
 * An import body read a batch of rows at a time. JSON.parse of a whole 18 MiB body takes its time and
 * keeps 100,000 row objects alive at once; instead the body's bytes are scanned once for the top-level
 * keys and the boundaries of the row batches, the rest of the body (its "envelope") is parsed with the
 * rows left out, and the rows are parsed a batch at a time as they are checked and sent to the writer.
 * Memory then holds a batch of rows instead of all of them, and the writer starts inserting before the
 * last row is read.
 *
 * The result is always JSON.parse's: the pieces parsed are contiguous slices of the body that together
 * cover all of it, so the body is valid JSON exactly when every piece is; a piece that does not parse is
 * reported with JSON.parse's own message on the whole body. A body of another shape (not an object at the
 * top, or without a "rows" array) is no import; it is parsed whole when it is small enough to be parsed
 * safely (see WHOLE_VALUES).
 *
 * The scan also bounds what parsing may cost: a batch of rows holding more than BATCH_VALUES values (a
 * usual row has 8), or the rest of the body more than WHOLE_VALUES, is refused before it is parsed, so
 * that no body of legal size can make the parser build millions of objects at once.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Values (objects, arrays and the items in them) a batch of rows may hold: 25 times a usual batch's. */
export const BATCH_VALUES = 100_000;

/** Values a body of another shape may hold to be parsed whole, to tell "not JSON" from "not an import". */
export const WHOLE_VALUES = 200_000;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Thrown when the body is not valid JSON: JSON.parse's message on the whole body. */
export class BodyNotJson extends Error {
  override name = 'BodyNotJson';
}

/** Thrown when a batch of rows holds more values than BATCH_VALUES. */
export class BodyTooComplex extends Error {
  override name = 'BodyTooComplex';
}

/** The body with its rows read lazily. */
export interface SplitBody {
  /** The body without its rows (`"rows": []`), parsed. */
  envelope: unknown;
  /** How many rows the array holds. */
  rowCount: number;
  /** The rows in order, a batch parsed at a time; throws BodyNotJson where the body is not valid JSON. */
  rows(): Generator<unknown, void, undefined>;
}

class Scanner {
  at = 0;
  /** Commas and opening brackets passed outside strings: about one a value. */
  values = 0;

  constructor(readonly bytes: Buffer) {}

  skipSpace(): void {
    const { bytes } = this;
    while (this.at < bytes.length && isSpace(bytes[this.at]!)) this.at++;
  }

  /** At an opening quote: moves past the closing one; false if the string never ends. */
  skipString(): boolean {
    const { bytes } = this;
    let at = this.at + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote === -1) return false;
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      at = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    this.at = at;
    return true;
  }

  /**
   * Moves past one value of any kind, without checking it (the pieces' JSON.parse does): a string, an
   * object or array with everything nested in it, or a scalar up to the next delimiter. `atSeparator` is
   * called at every comma directly inside an array or object value. False if the body ends first.
   */
  skipValue(atSeparator?: (at: number) => void): boolean {
    const { bytes } = this;
    if (bytes[this.at] === QUOTE) return this.skipString();
    const first = bytes[this.at];
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
      while (this.at < bytes.length) {
        const byte = bytes[this.at]!;
        if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) break;
        this.at++;
      }
      return true;
    }
    let depth = 0;
    while (this.at < bytes.length) {
      const byte = bytes[this.at]!;
      if (byte === QUOTE) {
        if (!this.skipString()) return false;
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
        this.values++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          this.at++;
          return true;
        }
      } else if (byte === COMMA) {
        this.values++;
        if (depth === 1) atSeparator?.(this.at);
      }
      this.at++;
    }
    return false;
  }
}

/** Where the last top-level "rows" array lies, `[` at `start` and `]` at `end`, and its batches. */
interface RowsExtent {
  start: number;
  end: number;
  rowCount: number;
  /** The values in it, counted in its batches; the rest of the body is the envelope's. */
  values: number;
  /** The comma after each batch's last row, but for the last batch's. */
  boundaries: number[];
}

/** A top-level key, as JSON.parse reads it (escapes included). */
function keyText(bytes: Buffer, start: number, end: number): string {
  const raw = bytes.subarray(start, end);
  return raw.includes(BACKSLASH) ? (JSON.parse(`"${raw.toString('utf8')}"`) as string) : raw.toString('utf8');
}

/**
 * The top-level object's last "rows" array; null for an object without one; undefined for a body that
 * is not an object at the top or that the scan cannot follow (JSON.parse then says what is wrong).
 * Throws BodyTooComplex.
 */
function findRows(scanner: Scanner, batchRows: number): RowsExtent | null | undefined {
  const { bytes } = scanner;
  scanner.skipSpace();
  if (bytes[scanner.at] !== OPEN_BRACE) return undefined;
  scanner.at++;
  let rows: RowsExtent | null = null;
  for (;;) {
    scanner.skipSpace();
    if (bytes[scanner.at] === CLOSE_BRACE) break;
    if (bytes[scanner.at] !== QUOTE) return undefined;
    const keyStart = scanner.at + 1;
    if (!scanner.skipString()) return undefined;
    let key: string;
    try {
      key = keyText(bytes, keyStart, scanner.at - 1);
    } catch {
      return undefined;
    }
    scanner.skipSpace();
    if (bytes[scanner.at] !== COLON) return undefined;
    scanner.at++;
    scanner.skipSpace();
    const start = scanner.at;
    if (key === 'rows' && bytes[start] === OPEN_BRACKET) {
      const boundaries: number[] = [];
      let separators = 0;
      const valuesBefore = scanner.values;
      let batchValues = scanner.values;
      const extent = scanner.skipValue((at) => {
        separators++;
        if (separators % batchRows !== 0) return;
        boundaries.push(at);
        if (scanner.values - batchValues > BATCH_VALUES) throw new BodyTooComplex();
        batchValues = scanner.values;
      });
      // The scan counts brackets of either kind: the array must end with its own, which no parse sees.
      if (!extent || bytes[scanner.at - 1] !== CLOSE_BRACKET) return undefined;
      if (scanner.values - batchValues > BATCH_VALUES) throw new BodyTooComplex();
      // `[ ]` holds no row; otherwise one more row than separators.
      let empty = true;
      for (let at = start + 1; at < scanner.at - 1 && empty; at++) empty = isSpace(bytes[at]!);
      const values = scanner.values - valuesBefore;
      rows = { start, end: scanner.at - 1, rowCount: empty ? 0 : separators + 1, values, boundaries };
    } else {
      if (!scanner.skipValue()) return undefined;
      // JSON.parse keeps the last of repeated keys: a later "rows" that is no array wins over an array.
      if (key === 'rows') rows = null;
    }
    scanner.skipSpace();
    if (bytes[scanner.at] === COMMA) {
      scanner.at++;
      continue;
    }
    if (bytes[scanner.at] !== CLOSE_BRACE) return undefined;
    break;
  }
  // The envelope is parsed whole: it may hold no more than a body of another shape.
  if (scanner.values - (rows?.values ?? 0) > WHOLE_VALUES) throw new BodyTooComplex();
  return rows;
}

/** The values of a whole body, outside strings: what parsing all of it would build, about. */
function countValues(bytes: Buffer): number {
  const scanner = new Scanner(bytes);
  while (scanner.at < bytes.length) {
    scanner.skipSpace();
    if (scanner.at >= bytes.length) break;
    if (!scanner.skipValue()) break;
    scanner.at++;
  }
  return scanner.values;
}

/**
 * Splits the body. Returns undefined for a body of another shape, to be parsed whole, or 'too complex'
 * when that body holds too many values for that (more than WHOLE_VALUES). Throws BodyNotJson and
 * BodyTooComplex.
 */
export function splitImportBody(body: Uint8Array, batchRows: number): SplitBody | 'too complex' | undefined {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const rows = findRows(new Scanner(bytes), batchRows);
  // An object without rows was scanned whole, and its values counted, by findRows.
  if (rows === null) return undefined;
  // A body the scan left part way must be counted through.
  if (rows === undefined) return countValues(bytes) > WHOLE_VALUES ? 'too complex' : undefined;
  const notJson = (): never => {
    try {
      JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      if (error instanceof SyntaxError) throw new BodyNotJson(error.message);
      throw error;
    }
    // Every piece parsed but one: the scan and JSON.parse disagree, which the tests show never happens.
    throw new Error('the import body scan disagrees with JSON.parse');
  };
  let envelope: unknown;
  try {
    envelope = JSON.parse(`${bytes.toString('utf8', 0, rows.start)}[]${bytes.toString('utf8', rows.end + 1)}`);
  } catch {
    return notJson();
  }
  const { start, end, rowCount, boundaries } = rows;
  return {
    envelope,
    rowCount,
    *rows() {
      for (let batch = 0; batch * batchRows < rowCount; batch++) {
        const from = batch === 0 ? start + 1 : boundaries[batch - 1]! + 1;
        const to = batch < boundaries.length ? boundaries[batch]! : end;
        const expected = Math.min(batchRows, rowCount - batch * batchRows);
        let parsed: unknown[];
        try {
          parsed = JSON.parse(`[${bytes.toString('utf8', from, to)}]`) as unknown[];
        } catch {
          return notJson();
        }
        // Commas inside the rows that the scan took for separators would show as a wrong count.
        if (parsed.length !== expected) return notJson();
        yield* parsed;
      }
    },
  };
}
