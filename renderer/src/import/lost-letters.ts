import { rowsHolding, valuesOf, type CsvTable } from './parse-csv.js';

/**
 * A "?" where a letter should be: between two letters ("M?nchen") or starting a word ("?ód?"). Excel's
 * "CSV" on Windows saves each letter its code page lacks as "?" (found by a probe: "Łódź" came as "?ód?",
 * stored without a word); the letter is gone from the file, so the person is told to save it again.
 */
const LOST_LETTER = /\p{L}\?\p{L}|(?:^|\s)\?\p{L}/u;
/** A web address's query ("…/page?id=4") is no lost letter. */
const URL_START = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i;

const hasLostLetter = (value: string) => value.includes('?') && !URL_START.test(value) && LOST_LETTER.test(value);

/** The rows (0-based) holding a lost letter, the first `limit` of them listed, all counted, and the first such value. */
export function rowsWithLostLetters(
  table: CsvTable,
  limit: number,
): { count: number; rows: number[]; example: string } {
  const rows: number[] = [];
  let count = 0;
  let example = '';
  // Only the rows whose text holds a "?" are split into values (the reader's figure, npm run bench, saw it).
  for (const row of rowsHolding(table, '?')) {
    const value = valuesOf(table, row).find(hasLostLetter);
    if (value === undefined) continue;
    count++;
    example ||= value;
    if (rows.length < limit) rows.push(row);
  }
  return { count, rows, example };
}
