import Papa from 'papaparse';

/** The delimiters a sheet of locations is written with. */
export const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter and line ending are guessed from this much text (the dashboard waits for as much). */
export const SNIFF_CHARS = 64 * 1024;

/** The rows, empty ones left out, that the delimiter is judged on. */
const SNIFF_ROWS = 50;

/** How the first rows read with one delimiter: the most of them that agree on one number of fields, and that number. */
interface Agreement {
  rows: number;
  width: number;
}

/** More rows agree, or as many on more fields. */
function beats(a: Agreement, b: Agreement): boolean {
  return a.rows > b.rows || (a.rows === b.rows && a.width > b.width);
}

/**
 * The rows of `sample` that agree on one number of fields, two or more, read with `delimiter`. Rows of
 * one field never agree: a title or a note above the header ("Google Business Profile – bulk upload"),
 * or every row when the delimiter is not the file's.
 */
function agreementWith(sample: string, delimiter: string): Agreement {
  const { data } = Papa.parse<string[]>(sample, { delimiter, preview: SNIFF_ROWS, skipEmptyLines: 'greedy' });
  const rowsOfWidth = new Map<number, number>();
  for (const row of data) if (row.length > 1) rowsOfWidth.set(row.length, (rowsOfWidth.get(row.length) ?? 0) + 1);
  let best: Agreement = { rows: 0, width: 0 };
  for (const [width, rows] of rowsOfWidth) if (beats({ rows, width }, best)) best = { rows, width };
  return best;
}

/**
 * A CSV's delimiter and line ending, guessed the one way for the dashboard and the `text/csv` endpoint
 * (README: "Import a CSV or Excel file"): the delimiter on which the most of the first 50 rows, empty
 * ones left out, agree on one number of fields (two or more); on a tie, the one giving more fields; a
 * comma when none splits a row. papaparse's own guess took the most even rows from the first line on: a
 * title above the header made every delimiter uneven, and a semicolon file with two decimal commas in
 * each row (`45,7610;4,8310`) then read as commas, its header one column. Counted this way, the header
 * decides it: it agrees with the rows under it only when split by the file's own delimiter.
 */
export function sniffCsv(text: string): { delimiter: string; linebreak: string } {
  const sample = text.slice(0, SNIFF_CHARS);
  let delimiter = Papa.DefaultDelimiter;
  let best: Agreement = { rows: 0, width: 0 };
  for (const each of DELIMITERS) {
    const agreement = agreementWith(sample, each);
    if (beats(agreement, best)) [delimiter, best] = [each, agreement];
  }
  const { linebreak } = Papa.parse<string[]>(sample, { delimiter, preview: 1 }).meta;
  return { delimiter, linebreak };
}
