/**
 * What sheets write for "no value" (README: "Placeholders"): read as blank by the import, so that "N/A"
 * never counts as a phone number or earns health points. The one list the server applies to every row
 * (server/locations/fields.ts) and the dashboard shows on its column step; a mapping may replace it.
 * Compared without case; besides the list, a run of dashes or question marks ("---", "??") is one too.
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

/** A placeholder list as a set of lower-case words, once per list. */
export function placeholderSet(list: readonly string[]): ReadonlySet<string> {
  return list === PLACEHOLDERS ? DEFAULT_SET : new Set(list.map((word) => word.trim().toLowerCase()));
}

/**
 * Whether a trimmed value is a placeholder. "NA" is also Namibia's code: in the country field it is that.
 * `words` is the list in force (the default, or a mapping's edited one).
 */
export function isPlaceholder(value: string, field?: string, words: ReadonlySet<string> = DEFAULT_SET): boolean {
  if (value.length > 10) return false;
  const lower = value.toLowerCase();
  if (!words.has(lower) && !(words === DEFAULT_SET && RUN.test(value))) return false;
  return !(field === 'country' && lower === 'na');
}
