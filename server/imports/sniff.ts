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
function readingWith(sample: string, delimiter: string): Reading {
  const { data, meta, errors } = Papa.parse<string[]>(sample, {
    delimiter,
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
export function sniffCsv(text: string): { delimiter: string; linebreak: string } {
  const sample = text.slice(0, SNIFF_CHARS);
  const readings = DELIMITERS.map((each) => ({ delimiter: each, reading: readingWith(sample, each) }));
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
  return { delimiter, linebreak: readings[0]!.reading.linebreak };
}
