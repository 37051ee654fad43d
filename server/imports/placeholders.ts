/**
 * What sheets write for "no value" (README: "Placeholders"): read as blank by the import, so that "N/A"
 * never counts as a phone number or earns health points. The one list the server applies to every row
 * (server/locations/fields.ts) and the dashboard shows on its column step; a mapping may replace it.
 * Compared without case; besides the list, a run of dashes or question marks ("---", "??") is one too
 * while the list holds "-" or "?".
 */
export const PLACEHOLDERS: readonly string[] = [
  'N/A',
  'NA',
  '#N/A',
  '-',
  '--',
  '—',
  'none',
  'null',
  'nil',
  'TBD',
  'TBA',
  'unknown',
  '?',
];

const DEFAULT_SET = new Set(PLACEHOLDERS.map((word) => word.toLowerCase()));
const RUN = /^(-+|\?+)$/;
const [DASH, QUESTION] = [0x2d, 0x3f];

/** No placeholder at all: the rows were blanked already by the caller's own list (`?placeholders=none`). */
export const NO_PLACEHOLDERS: ReadonlySet<string> = new Set();

const sets = new WeakMap<readonly string[], ReadonlySet<string>>([[PLACEHOLDERS, DEFAULT_SET]]);
/** The default list's longest word ("unknown") is shorter: longer values are never compared. */
const SHORT = 10;
/** An edited list's longest word, when it is longer than SHORT ("da definire"). */
const longest = new WeakMap<ReadonlySet<string>, number>();

/** A placeholder list as a set of lower-case words, made once per list. */
export function placeholderSet(list: readonly string[]): ReadonlySet<string> {
  let set = sets.get(list);
  if (set === undefined) {
    set = new Set(list.map((word) => word.trim().toLowerCase()));
    sets.set(list, set);
    const length = Math.max(SHORT, ...[...set].map((word) => word.length));
    if (length > SHORT) longest.set(set, length);
  }
  return set;
}

/**
 * Whether a trimmed value is a placeholder. "NA" is also Namibia's code: in the country field it is that.
 * `words` is the list in force (the default, or a mapping's edited one).
 */
export function isPlaceholder(value: string, field?: string, words: ReadonlySet<string> = DEFAULT_SET): boolean {
  const long = value.length > SHORT;
  if (long && (words === DEFAULT_SET || value.length > (longest.get(words) ?? SHORT))) return false;
  const lower = value.toLowerCase();
  // The run of dashes or question marks is tested only for a value that starts with one (most cells don't).
  const first = value.charCodeAt(0);
  const run = (first === DASH || first === QUESTION) && RUN.test(value) && words.has(value[0]!);
  if (!run && !words.has(lower)) return false;
  return !(field === 'country' && lower === 'na');
}
