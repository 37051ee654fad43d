import { LOCATION_FIELDS, type LocationField, type LocationValues } from './fields.js';
import { healthFlagsOf } from './health.js';
import { clientKeyBase, keyHash } from './keys.js';
import type { Changes, HealthStatus } from './schemas.js';

/**
 * The version of the rules whose results are stored with each location: the health score and notes,
 * the keys' hashes. Raise it when either changes: at start the server recomputes every location
 * (locations/rescore.ts). 3: the notes as bits and the keys as hashes (migration 10).
 */
export const RULE_VERSION = 3;

// Runs of white space, or white space other than a single space: most names and addresses have none.
const UNUSUAL_SPACE = /\s\s|[^\S ]|^ | $/;

function folded(value: string): string {
  const lower = value.toLowerCase();
  return UNUSUAL_SPACE.test(lower) ? lower.replace(/\s+/g, ' ').trim() : lower;
}

/**
 * What duplicates and upserts match a location on when it has neither store code nor place id: its name
 * and address without case or extra spaces (README: "Import rules"). A name alone is no evidence: two
 * "Main Street Cafe" rows may be two places, so a location without an address has no key.
 */
export function matchKey(name: string, address: string | null): string | null {
  return address === null ? null : `${folded(name)}\u0000${folded(address)}`;
}

/** A location's values with what is computed from them: what a row of the table holds. */
export interface LocationRow extends LocationValues {
  health_score: number;
  /** The score's status; the list reads "closed" for a permanently closed location. */
  health_status: Exclude<HealthStatus, 'closed'>;
  /** What lowers the score, or, when green, what would raise it: bits of the rule's notes (health.ts). */
  health_flags: number;
  /** The place id's key within the client (keys.ts), or null without one. */
  place_hash: number | null;
  /** The folded name and address's key within the client (matchKey, keys.ts), or null without an address. */
  match_hash: number | null;
}

/** The clientKeyBase of the last client asked for: a row at a time, every row of an import asks for one. */
let lastClient: { id: string; base: number } | undefined;

function keyBaseOf(clientId: string): number {
  if (lastClient?.id !== clientId) lastClient = { id: clientId, base: clientKeyBase(clientId) };
  return lastClient.base;
}

/**
 * The indexed keys of a location of this client: its place id's and its name and address's (keys.ts).
 * `known`: its matchKey, when the caller has it already.
 */
export function keyHashes(
  clientId: string,
  values: Pick<LocationValues, 'name' | 'address' | 'google_place_id'>,
  known?: string | null,
): { place_hash: number | null; match_hash: number | null } {
  const base = keyBaseOf(clientId);
  const key = known === undefined ? matchKey(values.name, values.address) : known;
  return {
    place_hash: values.google_place_id === null ? null : keyHash(base, values.google_place_id),
    match_hash: key === null ? null : keyHash(base, key),
  };
}

/**
 * The values with what is computed from them, for a location of this client; `values` becomes the row
 * (no copy: an import makes 100,000). `matchKey`: its name and address's, when the caller has it already.
 */
export function derived(values: LocationValues, clientId: string, matchKey?: string | null): LocationRow {
  const health = healthFlagsOf(values);
  const { place_hash, match_hash } = keyHashes(clientId, values, matchKey);
  const row = values as LocationRow;
  row.health_score = health.score;
  row.health_status = health.status as LocationRow['health_status'];
  row.health_flags = health.flags;
  row.place_hash = place_hash;
  row.match_hash = match_hash;
  return row;
}

/** Values as a location without any of the listing fields: what a row that says nothing of them holds. */
export function emptyValues(name: string): LocationValues {
  return {
    name,
    address: null,
    city: null,
    state: null,
    zip: null,
    country: null,
    google_place_id: null,
    store_code: null,
    phone: null,
    website: null,
    latitude: null,
    longitude: null,
    primary_category: null,
    labels: null,
    status: 'open',
    hours: null,
  };
}

/**
 * Two values of a field are the same: hours compare as JSON, and labels in any order (a listing's labels
 * are a set: Google keeps no order, and a client's sheet may list them another way each month).
 */
export function sameValue(field: LocationField, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (field === 'labels' && Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Each field that differs: {field: {from, to}}, or null when none does (an edit's and an import's diff). */
export function changesBetween(before: LocationValues, after: LocationValues): Changes | null {
  let changes: Changes | null = null;
  for (const field of LOCATION_FIELDS) {
    if (sameValue(field, before[field], after[field])) continue;
    changes ??= {};
    changes[field] = { from: before[field], to: after[field] };
  }
  return changes;
}
