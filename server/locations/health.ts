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

/** Each check once: the score and the explanation cannot disagree. */
const CHECKS: readonly { field: keyof typeof HEALTH_POINTS; issue(location: HealthInput): string | null }[] = [
  { field: 'address', issue: (l) => (l.address === null ? 'No street address' : null) },
  { field: 'city', issue: (l) => (l.city === null ? 'No city' : null) },
  { field: 'state', issue: (l) => (lacksState(l) ? 'No state or province' : null) },
  { field: 'country', issue: (l) => (l.country === null ? 'No country' : null) },
  {
    field: 'zip',
    issue: (l) =>
      l.zip === null
        ? 'No postal code'
        : l.country === null
          ? 'Postal code cannot be checked without a country'
          : zipFitsCountry(l.zip, l.country)
            ? null
            : `Postal code does not fit ${l.country}`,
  },
  {
    field: 'google_place_id',
    issue: (l) =>
      l.google_place_id === null
        ? NO_PLACE_ID
        : PLACE_ID.test(l.google_place_id)
          ? null
          : 'Google place id looks malformed',
  },
  { field: 'phone', issue: (l) => (l.phone === null ? 'No phone number' : null) },
  { field: 'primary_category', issue: (l) => (l.primary_category === null ? 'No primary category' : null) },
  { field: 'website', issue: (l) => (l.website === null ? 'No website' : null) },
  { field: 'hours', issue: (l) => (l.hours === null ? 'No opening hours' : null) },
];

export function healthOf(location: HealthInput): Health {
  let score = 0;
  const missing: string[] = [];
  for (const check of CHECKS) {
    const issue = check.issue(location);
    if (issue === null) score += HEALTH_POINTS[check.field];
    else missing.push(issue);
  }
  const status = statusOf(score);
  return status === 'green'
    ? { score, status, issues: [], hints: missing }
    : { score, status, issues: missing, hints: [] };
}
