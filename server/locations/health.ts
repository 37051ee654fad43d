import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type { HealthStatus } from './schemas.js';

/** The fields the health rule reads, already normalized (trimmed, null when empty, country alpha-2). */
export interface HealthInput {
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  google_place_id: string | null;
  phone: string | null;
  primary_category: string | null;
  website: string | null;
  hours: object | null;
}

export interface Health {
  score: number;
  status: HealthStatus;
  /** What lowers the score, in the dashboard's words; empty when green. */
  issues: string[];
  /** For a green location: what would still raise the score. */
  hints: string[];
}

/**
 * Points for each piece of a location's data that a maps listing needs (README: "Health"). The spec's
 * fields make 80, green: a complete postal address with a place id is green without the listing fields,
 * and every field makes 100. A name alone is red (0).
 */
export const HEALTH_POINTS = {
  address: 20,
  city: 10,
  state: 10,
  zip: 12,
  country: 8,
  google_place_id: 20,
  phone: 10,
  primary_category: 5,
  website: 3,
  hours: 2,
} as const;

export const GREEN_FROM = 80;
export const YELLOW_FROM = 50;

// Place ids are URL-safe base64 of at least 20 characters (Google Places API, "Place IDs").
const PLACE_ID = /^[A-Za-z0-9_-]{20,}$/;

export function statusOf(score: number): HealthStatus {
  return score >= GREEN_FROM ? 'green' : score >= YELLOW_FROM ? 'yellow' : 'red';
}

export function zipFitsCountry(zip: string, country: string): boolean {
  if (!postcodeValidatorExistsForCountry(country)) return true;
  try {
    return postcodeValidator(zip, country);
  } catch {
    return false;
  }
}

export const NO_PLACE_ID = 'No Google place id';

/**
 * The countries whose postal addresses require a state, province or prefecture: those whose address
 * metadata holds S in its "require" field (Google's libaddressinput data, which Chrome's and Android's
 * address forms use; its region_data_constants as Chromium ships it, which the review checked against the
 * older Android copy). Elsewhere (GB, IE, DE, FR, NL, …) an address has none, or may leave it out: a
 * missing state lowers nothing there (a walk saw London scored yellow for "No state or province").
 */
const STATE_REQUIRED: ReadonlySet<string> = new Set([
  ...['AE', 'AS', 'AU', 'BR', 'CA', 'CN', 'CO', 'CR', 'ES', 'FM', 'HK', 'HN', 'ID', 'IN', 'IQ', 'IT', 'JM'],
  ...['JP', 'KN', 'KR', 'KY', 'MH', 'MP', 'MX', 'NR', 'PF', 'PG', 'PW', 'RU', 'SO', 'SV', 'TW', 'UA', 'UM'],
  ...['US', 'VE', 'VI'],
]);

/** Whether a location lacks a state its address needs: any country's without one known. */
const lacksState = (l: HealthInput) => l.state === null && (l.country === null || STATE_REQUIRED.has(l.country));

/**
 * Every note the rule can give, in the order the dashboard lists them. A location stores the notes that
 * apply to it as a set of bits (health_flags: bit i for HEALTH_NOTES[i]), worded when it is read
 * (healthWords): the words of 100,000 locations are not stored 100,000 times (npm run bench: an import's
 * pages). A note's bit is its place here: add new ones at the end, and raise RULE_VERSION
 * (locations/record.ts) when one changes meaning, so that every location is scored again at start.
 */
const HEALTH_NOTES: readonly { field: keyof typeof HEALTH_POINTS; words(country: string | null): string }[] = [
  { field: 'address', words: () => 'No street address' },
  { field: 'city', words: () => 'No city' },
  { field: 'state', words: () => 'No state or province' },
  { field: 'country', words: () => 'No country' },
  { field: 'zip', words: () => 'No postal code' },
  { field: 'zip', words: () => 'Postal code cannot be checked without a country' },
  { field: 'zip', words: (country) => `Postal code does not fit ${country}` },
  { field: 'google_place_id', words: () => NO_PLACE_ID },
  { field: 'google_place_id', words: () => 'Google place id looks malformed' },
  { field: 'phone', words: () => 'No phone number' },
  { field: 'primary_category', words: () => 'No primary category' },
  { field: 'website', words: () => 'No website' },
  { field: 'hours', words: () => 'No opening hours' },
];

/** The note of HEALTH_NOTES (its index) that a field's check gives a location, or -1 when the field is fine. */
const CHECKS: readonly { field: keyof typeof HEALTH_POINTS; note(location: HealthInput): number }[] = [
  { field: 'address', note: (l) => (l.address === null ? 0 : -1) },
  { field: 'city', note: (l) => (l.city === null ? 1 : -1) },
  { field: 'state', note: (l) => (lacksState(l) ? 2 : -1) },
  { field: 'country', note: (l) => (l.country === null ? 3 : -1) },
  {
    field: 'zip',
    note: (l) => (l.zip === null ? 4 : l.country === null ? 5 : zipFitsCountry(l.zip, l.country) ? -1 : 6),
  },
  {
    field: 'google_place_id',
    note: (l) => (l.google_place_id === null ? 7 : PLACE_ID.test(l.google_place_id) ? -1 : 8),
  },
  { field: 'phone', note: (l) => (l.phone === null ? 9 : -1) },
  { field: 'primary_category', note: (l) => (l.primary_category === null ? 10 : -1) },
  { field: 'website', note: (l) => (l.website === null ? 11 : -1) },
  { field: 'hours', note: (l) => (l.hours === null ? 12 : -1) },
];

/** A location's score, its status and its notes as bits (HEALTH_NOTES): what is stored. */
export interface HealthFlags {
  score: number;
  status: HealthStatus;
  flags: number;
}

/** Each check once: the score and the notes cannot disagree. */
export function healthFlagsOf(location: HealthInput): HealthFlags {
  let score = 0;
  let flags = 0;
  for (const check of CHECKS) {
    const note = check.note(location);
    if (note < 0) score += HEALTH_POINTS[check.field];
    else flags |= 1 << note;
  }
  return { score, status: statusOf(score), flags };
}

/** The words of a location's notes (its health_flags), in the rule's order; `country` words a postal code's. */
export function healthWords(flags: number, country: string | null): string[] {
  const words: string[] = [];
  for (let note = 0; note < HEALTH_NOTES.length; note++) {
    if (flags & (1 << note)) words.push(HEALTH_NOTES[note]!.words(country));
  }
  return words;
}

export function healthOf(location: HealthInput): Health {
  const { score, status, flags } = healthFlagsOf(location);
  const notes = healthWords(flags, location.country);
  return status === 'green' ? { score, status, issues: [], hints: notes } : { score, status, issues: notes, hints: [] };
}
