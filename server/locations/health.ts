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

export function healthOf(location: HealthInput): Health {
  let score = 0;
  const issues: string[] = [];
  const award = (field: keyof typeof HEALTH_POINTS, ok: boolean, issue: string) => {
    if (ok) score += HEALTH_POINTS[field];
    else issues.push(issue);
  };
  award('address', location.address !== null, 'No street address');
  award('city', location.city !== null, 'No city');
  award('state', location.state !== null, 'No state or province');
  award('country', location.country !== null, 'No country');
  if (location.zip === null) award('zip', false, 'No postal code');
  else if (location.country === null) award('zip', false, 'Postal code cannot be checked without a country');
  else award('zip', zipFitsCountry(location.zip, location.country), `Postal code does not fit ${location.country}`);
  if (location.google_place_id === null) award('google_place_id', false, 'No Google place id');
  else award('google_place_id', PLACE_ID.test(location.google_place_id), 'Google place id looks malformed');
  return { score, status: statusOf(score), issues };
}
