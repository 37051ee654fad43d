import type { RowField } from '../locations/schemas.js';

/**
 * What an unmapped column's values look like, so the dashboard can warn ("this column looks like postal
 * codes") with one click to map it. Pure, no node: module (the browser worker imports it too).
 */
export type LookableField = Extract<RowField, 'zip' | 'country' | 'phone' | 'state'>;

export interface ValuesLook {
  field: LookableField;
  /** Share of the non-blank values that look like it (0..1). */
  share: number;
}

/** The share of values that must look like a field for the column to be said to be one. */
export const LOOK_SHARE = 0.8;

// US states, Canadian provinces and Australian states as written in sheets.
const REGION_CODES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY AB BC MB NB NL NS NT NU ON PE QC SK YT NSW VIC QLD TAS ACT'
  ).split(' '),
);
const REGION_NAMES = new Set([
  'california',
  'texas',
  'new york',
  'florida',
  'illinois',
  'ontario',
  'quebec',
  'british columbia',
  'bayern',
  'bavaria',
  'berlin',
  'hessen',
  'sachsen',
  'nordrhein-westfalen',
  'baden-württemberg',
  'niedersachsen',
  'hamburg',
  'île-de-france',
  'ile-de-france',
  'catalonia',
  'cataluña',
  'madrid',
  'lombardia',
  'lazio',
  'noord-holland',
  'zuid-holland',
  'greater london',
  'new south wales',
  'victoria',
]);

let regionNames: Intl.DisplayNames | undefined;

function isCountry(value: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(value)) return false;
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const upper = value.toUpperCase();
  // "UK" is not ISO 3166-1 but is written for the United Kingdom.
  return upper === 'UK' || regionNames.of(upper) !== undefined;
}

// A date as sheets write one: 2019-04-01, 01/04/2019, 4/1/19, 01.04.2019 (a walk's "Opening date" column
// was said to look like phones).
const DATE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;

const TESTS: Record<LookableField, (value: string) => boolean> = {
  // 7 to 15 digits (E.164 allows 15), with the usual separators and an optional leading +; not a date.
  phone: (value) =>
    /^\+?[\d\s().\-/]{7,22}$/.test(value) && (value.match(/\d/g)?.length ?? 0) >= 7 && !DATE.test(value),
  // 4 to 6 digits ("10115", "75001", "1010"), a US ZIP+4, or the UK, Canadian and Dutch forms.
  zip: (value) =>
    /^\d{4,6}$/.test(value) ||
    /^\d{5}-\d{4}$/.test(value) ||
    /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i.test(value) ||
    /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i.test(value) ||
    /^\d{4} ?[A-Z]{2}$/i.test(value),
  country: isCountry,
  state: (value) => REGION_CODES.has(value.toUpperCase()) || REGION_NAMES.has(value.toLowerCase()),
};

/**
 * The field an unmapped column's values look like, or null: the field most of its non-blank values fit,
 * when at least LOOK_SHARE of them do. A column of "CA", "NY", "TX" is states; "US", "GB", "DE" countries.
 */
export function lookOfValues(values: readonly string[]): ValuesLook | null {
  const filled = values.map((value) => value.trim()).filter((value) => value !== '');
  if (filled.length === 0) return null;
  let best: ValuesLook | null = null;
  // The order breaks ties: a two-letter code that is both a state and a country ("CA") reads as a state
  // only when more of the column are states.
  for (const field of ['phone', 'zip', 'country', 'state'] as LookableField[]) {
    const share = filled.filter(TESTS[field]).length / filled.length;
    if (share >= LOOK_SHARE && (best === null || share > best.share)) best = { field, share };
  }
  return best;
}
