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

// Papa parses a string in slices of this many characters, so progress can be reported as it goes.
const CHUNK_CHARS = 1024 * 1024;
export const DELIMITERS = [',', ';', '\t', '|'];

function isEmptyRow(row: readonly string[]): boolean {
  for (const cell of row) if (cell.length > 0 && cell.trim().length > 0) return false;
  return true;
}

/** Line breaks inside one value: "\n", "\r\n" and a lone "\r" each count once. */
function lineBreaksIn(value: string): number {
  let count = 0;
  for (let i = value.indexOf('\n'); i !== -1; i = value.indexOf('\n', i + 1)) count++;
  for (let i = value.indexOf('\r'); i !== -1; i = value.indexOf('\r', i + 1)) if (value[i + 1] !== '\n') count++;
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

/**
 * Papa's delimiter guess over the first lines, empty ones left out: the main parse keeps empty lines
 * (to count lines), and a trailing empty line would otherwise make every delimiter look inconsistent.
 */
function guessDelimiter(text: string): string {
  const sample = text.slice(0, 64 * 1024);
  return Papa.parse<string[]>(sample, { preview: 50, skipEmptyLines: 'greedy', delimitersToGuess: DELIMITERS }).meta
    .delimiter;
}

/**
 * Parses CSV text with papaparse, a slice at a time: detects the delimiter (comma, semicolon, tab or
 * pipe) and the line ending, strips a BOM, skips empty lines, and records every problem with its line.
 */
export function parseCsvText(text: string, onProgress: (charsParsed: number) => void = () => {}): CsvTable {
  const table: CsvTable = { headers: [], rows: [], lines: [], delimiter: guessDelimiter(text), problems: [] };
  let headerSeen = false;
  let line = 1;
  let previousCursor = 0;
  Papa.parse<string[]>(text, {
    chunkSize: CHUNK_CHARS,
    delimiter: table.delimiter,
    // Papa parses a string synchronously, chunk after chunk; `complete` only ends the call.
    complete: () => undefined,
    chunk: (results: Papa.ParseResult<string[]>) => {
      const { data, errors, meta } = results;
      table.delimiter = meta.delimiter;
      // Without a quote in this slice no value can hold a line break: each row is one line.
      const nextQuote = text.indexOf('"', previousCursor);
      const quoted = nextQuote !== -1 && nextQuote < meta.cursor;
      const rowLines = new Array<number>(data.length);
      for (let index = 0; index < data.length; index++) {
        const row = data[index] as string[];
        rowLines[index] = line;
        let span = 1;
        if (quoted) for (const value of row) span += lineBreaksIn(value);
        line += span;
        if (isEmptyRow(row)) continue;
        if (!headerSeen) {
          headerSeen = true;
          table.headers = row.map((header) => header.replace(/^\uFEFF/, '').trim());
          continue;
        }
        if (row.length > table.headers.length && !isEmptyRow(row.slice(table.headers.length))) {
          table.problems.push({
            line: rowLines[index] as number,
            message: `This row has ${row.length} values but the header has ${table.headers.length} columns; the extra values are ignored. A value may hold an unquoted "${meta.delimiter}".`,
          });
        }
        table.rows.push(row);
        table.lines.push(rowLines[index] as number);
      }
      for (const error of errors) {
        if (error.code === 'UndetectableDelimiter') continue;
        const errorLine = error.row !== undefined ? rowLines[error.row] : undefined;
        table.problems.push({ line: errorLine ?? line, message: describeParseError(error) });
      }
      previousCursor = meta.cursor;
      onProgress(meta.cursor);
    },
  });
  table.problems.sort((a, b) => a.line - b.line);
  return table;
}
