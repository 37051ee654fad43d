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
}

export interface Health {
  score: number;
  status: HealthStatus;
  /** What lowers the score, in the dashboard's words; empty at 100. */
  issues: string[];
}

/**
 * Points for each piece of a location's data that a maps listing needs (README: "Health").
 * A full postal address is green even without a place id (80); a name alone is red (0).
 */
export const HEALTH_POINTS = {
  address: 25,
  city: 15,
  state: 10,
  zip: 15,
  country: 15,
  google_place_id: 20,
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

/** Each check once: the score and the explanation cannot disagree. */
const CHECKS: readonly { field: keyof typeof HEALTH_POINTS; issue(location: HealthInput): string | null }[] = [
  { field: 'address', issue: (l) => (l.address === null ? 'No street address' : null) },
  { field: 'city', issue: (l) => (l.city === null ? 'No city' : null) },
  { field: 'state', issue: (l) => (l.state === null ? 'No state or province' : null) },
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
];

/** The score alone, without building the explanation: the import's hot path. */
export function healthScore(l: HealthInput): number {
  // The same checks as CHECKS, written out without building any message (rules.test.ts holds them equal).
  return (
    (l.address !== null ? HEALTH_POINTS.address : 0) +
    (l.city !== null ? HEALTH_POINTS.city : 0) +
    (l.state !== null ? HEALTH_POINTS.state : 0) +
    (l.country !== null ? HEALTH_POINTS.country : 0) +
    (l.zip !== null && l.country !== null && zipFitsCountry(l.zip, l.country) ? HEALTH_POINTS.zip : 0) +
    (l.google_place_id !== null && PLACE_ID.test(l.google_place_id) ? HEALTH_POINTS.google_place_id : 0)
  );
}

export function healthOf(location: HealthInput): Health {
  let score = 0;
  const issues: string[] = [];
  for (const check of CHECKS) {
    const issue = check.issue(location);
    if (issue === null) score += HEALTH_POINTS[check.field];
    else issues.push(issue);
  }
  return { score, status: statusOf(score), issues };
}
