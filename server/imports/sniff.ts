import Papa from 'papaparse';

/** The delimiters a sheet of locations is written with. */
export const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter and line ending are guessed from this much text (the dashboard waits for as much). */
export const SNIFF_CHARS = 64 * 1024;

/**
 * A CSV's delimiter and line ending, guessed the one way for the dashboard and the `text/csv` endpoint:
 * papaparse's guess over the first 50 lines, empty ones left out (a trailing empty line would make every
 * delimiter look inconsistent, and papaparse would fall back to a comma: a French file of
 * `48,8556;2,3522` would be read as commas).
 */
export function sniffCsv(text: string): { delimiter: string; linebreak: string } {
  const { meta } = Papa.parse<string[]>(text.slice(0, SNIFF_CHARS), {
    preview: 50,
    skipEmptyLines: 'greedy',
    delimitersToGuess: DELIMITERS,
  });
  return { delimiter: meta.delimiter, linebreak: meta.linebreak };
}
