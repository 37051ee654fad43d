import Papa from 'papaparse';

/** The delimiters a sheet of locations is written with. */
export const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter and line ending are guessed from this much text (the dashboard waits for as much). */
export const SNIFF_CHARS = 64 * 1024;

/** The rows, empty ones left out, that the delimiter is judged on. */
const SNIFF_ROWS = 50;

/**
 * How the first rows read with one delimiter: how many it splits into two or more fields, how many of
 * those agree on one number of fields, and that number.
 */
interface Reading {
  split: number;
  agreeing: number;
  width: number;
  /** The rows read, empty ones left out. */
  rows: number;
  /** The line ending papaparse found: the same whatever the delimiter. */
  linebreak: string;
  /** Whether a quoted value holds a line break: its quotes open fields, as only the file's delimiter lets them. */
  quotedLines: boolean;
}

/** More rows split; on a tie, more of them agreeing; then more fields. */
function beats(a: Reading, b: Reading): boolean {
  if (a.split !== b.split) return a.split > b.split;
  return a.agreeing > b.agreeing || (a.agreeing === b.agreeing && a.width > b.width);
}

/**
 * The first rows of `sample` read with `delimiter`. A row of one field never counts: a title or a note
 * above the header ("Google Business Profile – bulk upload"), or every row when the delimiter is not
 * the file's.
 */
function readingWith(sample: string, delimiter: string, newline: string | null): Reading {
  const { data, meta, errors } = Papa.parse<string[]>(sample, {
    delimiter,
    ...(newline === null ? {} : { newline: newline as Papa.ParseConfig['newline'] }),
    preview: SNIFF_ROWS,
    skipEmptyLines: 'greedy',
  });
  const rowsOfWidth = new Map<number, number>();
  let split = 0;
  for (const row of data) {
    if (row.length < 2) continue;
    split++;
    rowsOfWidth.set(row.length, (rowsOfWidth.get(row.length) ?? 0) + 1);
  }
  let agreeing = 0;
  let width = 0;
  for (const [each, rows] of rowsOfWidth)
    if (rows > agreeing || (rows === agreeing && each > width)) [agreeing, width] = [rows, each];
  // A quote the delimiter leaves unclosed ("A; B";C read with commas) runs on over lines too: that is no quoting.
  const quotedLines =
    !errors.some((error) => error.type === 'Quotes') &&
    data.some((row) => row.some((cell) => cell.includes('\n') || cell.includes('\r')));
  return { split, agreeing, width, rows: data.length, linebreak: meta.linebreak, quotedLines };
}

/**
 * A CSV's delimiter and line ending, guessed the one way for the dashboard and the `text/csv` endpoint
 * (README: "Import a CSV or Excel file"): of the first 50 rows, empty ones left out, the delimiter that
 * splits the most into two or more fields, and at least half of them; on a tie, the one on which more
 * of them agree on one number of fields, then the one giving more fields; else a comma. The header
 * decides the close cases: split by the file's own delimiter, it counts with its rows, where a title
 * above it never does. papaparse's own guess took the most even rows from the first line on: a title
 * made every delimiter uneven, and a semicolon file with two decimal commas in each row (`45,7610;4,8310`)
 * then read as commas. Counting agreement first (2026-11-25, a day) read a one-column file with a
 * semicolon in one name as semicolons, and an Excel file whose later rows drop their empty cells, with a
 * `Mon-Fri 9-17; Sat 10-14` column, as semicolons too: the split rows come first now.
 */
export function sniffCsv(text: string): { delimiter: string; linebreak: string; mixed: boolean } {
  const raw = text.slice(0, SNIFF_CHARS);
  const endings = lineEndingsOf(raw);
  // Rows ending with \r\n and with \n in one file: read as \n once the \r\n are made \n (oneLineEnding).
  const mixed = endings['\r\n'] > 0 && endings['\n'] > 0;
  const sample = mixed ? oneLineEnding(raw) : raw;
  const newline = mixed ? '\n' : mostCommon(endings);
  const readings = DELIMITERS.map((each) => ({ delimiter: each, reading: readingWith(sample, each, newline) }));
  // A quoted value over several lines (hours pasted from Google Maps, "Monday<tab>9 AM–5 PM" a line) opens
  // with the file's delimiter only: read with another, each of its lines is a row, and outnumbers the rest
  // (found by a probe: a comma file was read as tabs). Those delimiters are judged among themselves.
  const quoting = readings.filter(({ reading }) => reading.quotedLines);
  const judged = quoting.length > 0 ? quoting : readings;
  let delimiter = Papa.DefaultDelimiter;
  let best: Reading | null = null;
  for (const { delimiter: each, reading } of judged) {
    if (reading.split * 2 >= reading.rows && (best === null || beats(reading, best)))
      [delimiter, best] = [each, reading];
  }
  // Every reading found the same line ending: the sample is not parsed a fifth time for it.
  return { delimiter, linebreak: newline ?? readings[0]!.reading.linebreak, mixed };
}

/**
 * A text whose rows end with \r\n and with \n (a header typed on Windows above rows written elsewhere) as
 * one whose rows all end with \n: papaparse reads one line ending, and the other's rows, a quoted cell
 * at their end, ran into one cell (found by a walk: three locations lost in a Description).
 */
export const oneLineEnding = (text: string): string => text.replace(/\r\n/g, '\n');

function mostCommon(counts: Record<string, number>): string | null {
  const [ending, count] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return count === 0 ? null : ending;
}

/**
 * How many of the sample's rows end with each line ending, outside quoted values (which may hold others:
 * Excel ends rows with \r\n and breaks a cell's lines with \n). papaparse's guess follows the first line.
 */
function lineEndingsOf(sample: string): Record<'\r\n' | '\n' | '\r', number> {
  const counts = { '\r\n': 0, '\n': 0, '\r': 0 };
  let quoted = false;
  for (let at = 0; at < sample.length; at++) {
    const char = sample[at];
    if (char === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (char === '\r' && sample[at + 1] === '\n') {
      counts['\r\n']++;
      at++;
    } else if (char === '\n' || char === '\r') counts[char]++;
  }
  return counts;
}
