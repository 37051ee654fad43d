import Papa from 'papaparse';

/** A problem papaparse (or the shape of a row) reveals, at the line a text editor shows for it. */
export interface LineProblem {
  line: number;
  message: string;
}

/** A CSV file as read: its header and its data rows, with the line each row starts on. */
export interface CsvTable {
  headers: string[];
  /** Data rows in file order; empty lines (and rows of empty cells) are left out. */
  rows: string[][];
  /** The 1-based line of the file where each row starts (rows can span lines inside quotes). */
  lines: number[];
  delimiter: string;
  problems: LineProblem[];
}

export const DELIMITERS = [',', ';', '\t', '|'];

function isEmptyRow(row: readonly string[]): boolean {
  for (const cell of row) if (cell.length > 0 && cell.trim().length > 0) return false;
  return true;
}

/** Line breaks in text[from, to): "\n", "\r\n" and a lone "\r" each count once. */
function lineBreaksIn(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  for (let i = text.indexOf('\r', from); i !== -1 && i < to; i = text.indexOf('\r', i + 1))
    if (text[i + 1] !== '\n') count++;
  return count;
}

function describeParseError(error: Papa.ParseError): string {
  switch (error.code) {
    case 'MissingQuotes':
      return 'A quoted value is never closed (a " is missing), so the rest of the file was read as one value.';
    case 'InvalidQuotes':
      return 'A value has a stray " after its closing quote. Quotes inside a quoted value must be doubled ("").';
    default:
      return error.message;
  }
}

// The delimiter and line ending are guessed from this much text before parsing starts.
const SNIFF_CHARS = 64 * 1024;

/**
 * Parses CSV text with papaparse's parser as it arrives, a piece at a time (a TextSink for the
 * decoder): guesses the delimiter (comma, semicolon, tab or pipe) and the line ending, skips empty
 * lines, strips a BOM left in the header, and records every problem with its line.
 */
export class CsvParser {
  readonly table: CsvTable = { headers: [], rows: [], lines: [], delimiter: ',', problems: [] };
  private parser: Papa.Parser | null = null;
  /** Text not parsed yet: a row cut by the end of the last piece, or the start before the guess. */
  private pending = '';
  private base = 0;
  private line = 1;
  private headerSeen = false;

  write(text: string): void {
    this.pending += text;
    if (!this.parser) {
      if (this.pending.length < SNIFF_CHARS) return;
      this.start();
    }
    this.parse(false);
  }

  end(): CsvTable {
    if (!this.parser) this.start();
    this.parse(true);
    this.table.problems.sort((a, b) => a.line - b.line);
    return this.table;
  }

  /**
   * Papa's own guess over the first lines, empty ones left out (they are kept in the parse, to count
   * lines, and a trailing empty line would make every delimiter look inconsistent).
   */
  private start(): void {
    const { meta } = Papa.parse<string[]>(this.pending.slice(0, SNIFF_CHARS), {
      preview: 50,
      skipEmptyLines: 'greedy',
      delimitersToGuess: DELIMITERS,
    });
    this.table.delimiter = meta.delimiter;
    this.parser = new Papa.Parser({
      delimiter: meta.delimiter,
      newline: meta.linebreak as Papa.ParseConfig['newline'],
    });
  }

  private parse(final: boolean): void {
    const input = this.pending;
    // Until the end, the last row may be incomplete: Papa leaves it out and it waits for more text.
    const { data, errors, meta } = (this.parser as Papa.Parser).parse(input, this.base, !final) as Papa.ParseResult<
      string[]
    >;
    const consumed = meta.cursor - this.base;
    // When the text has as many line breaks as rows end with, each row is one line; otherwise some
    // quoted values hold line breaks, and only then are the values searched for them.
    const breaks = lineBreaksIn(input, 0, consumed);
    const oneLineEach = breaks === data.length - (final && data.length > 0 ? 1 : 0);
    const rowLines = new Array<number>(data.length);
    for (let index = 0; index < data.length; index++) {
      const row = data[index] as string[];
      rowLines[index] = this.line;
      this.line += 1;
      if (!oneLineEach) for (const value of row) this.line += lineBreaksIn(value);
      this.take(row, rowLines[index] as number);
    }
    for (const error of errors) {
      const errorLine = error.row !== undefined ? rowLines[error.row] : undefined;
      this.table.problems.push({ line: errorLine ?? this.line, message: describeParseError(error) });
    }
    this.pending = input.substring(consumed);
    this.base = meta.cursor;
  }

  private take(row: string[], line: number): void {
    const { table } = this;
    if (isEmptyRow(row)) return;
    if (!this.headerSeen) {
      this.headerSeen = true;
      table.headers = row.map((header) => header.replace(/^\uFEFF/, '').trim());
      return;
    }
    if (row.length > table.headers.length && !isEmptyRow(row.slice(table.headers.length))) {
      table.problems.push({
        line,
        message: `This row has ${row.length} values but the header has ${table.headers.length} columns; the extra values are ignored. A value may hold an unquoted "${table.delimiter}".`,
      });
    }
    table.rows.push(row);
    table.lines.push(line);
  }
}

/** A whole text at once. */
export function parseCsvText(text: string): CsvTable {
  const parser = new CsvParser();
  parser.write(text);
  return parser.end();
}
