import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ErrorDetail } from '../http/errors.js';
import { textOrNull } from '../http/body.js';
import { countryCode } from './country.js';
import { healthScore, statusOf, type HealthInput } from './health.js';
import { ROW_FIELDS, UploadRow, type DuplicateOf, type HealthStatus, type RowField } from './schemas.js';

/** A row after trimming and normalization: what would be stored. */
export interface NormalizedRow extends HealthInput {
  name: string;
}

export interface PlannedRow extends NormalizedRow {
  index: number;
  health_score: number;
  health_status: HealthStatus;
  duplicateOf: DuplicateOf | null;
}

/** An existing location of the client, for duplicate detection. */
export interface ExistingLocation {
  id: string;
  name: string;
  address: string | null;
  google_place_id: string | null;
}

const rowChecker = TypeCompiler.Compile(UploadRow);

function rowError(index: number, field: string, message: string): ErrorDetail {
  return { path: field === '' ? `/rows/${index}` : `/rows/${index}/${field}`, row: index, field, message };
}

/** One plain message per wrong field, for a row the schema refused. */
function rowFieldErrors(raw: Record<string, unknown>, index: number): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  if (raw.name === undefined) errors.push(rowError(index, 'name', 'is required'));
  for (const [field, value] of Object.entries(raw)) {
    if (!isRowField(field)) {
      errors.push(rowError(index, field, `"${field}" is not a field of a location`));
    } else if (typeof value === 'string') {
      if (value.length > ROW_FIELDS[field]) {
        errors.push(rowError(index, field, `is longer than ${ROW_FIELDS[field]} characters`));
      }
    } else if (value !== null || field === 'name') {
      errors.push(rowError(index, field, field === 'name' ? 'must be text' : 'must be text or null'));
    }
  }
  return errors.length > 0 ? errors : [rowError(index, '', 'is not a valid location')];
}

/** Validates and normalizes one row, scoring its health; returns the row or its errors (README: "Import rules"). */
export function normalizeRow(raw: unknown, index: number): PlannedRow | ErrorDetail[] {
  if (!rowChecker.Check(raw)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return [rowError(index, '', 'must be an object with at least a name')];
    }
    return rowFieldErrors(raw as Record<string, unknown>, index);
  }
  const name = textOrNull(raw.name);
  const country = textOrNull(raw.country);
  const code = country === null ? null : countryCode(country);
  if (name === null || (country !== null && code === null)) {
    const errors: ErrorDetail[] = [];
    if (name === null) errors.push(rowError(index, 'name', 'is required'));
    if (country !== null && code === null) {
      errors.push(rowError(index, 'country', `"${country}" is not a country name or ISO code`));
    }
    return errors;
  }
  // One object a row, built whole: an import holds 100,000 of them.
  const row: PlannedRow = {
    name,
    address: textOrNull(raw.address),
    city: textOrNull(raw.city),
    state: textOrNull(raw.state),
    zip: textOrNull(raw.zip),
    country: code,
    google_place_id: textOrNull(raw.google_place_id),
    index,
    health_score: 0,
    health_status: 'red',
    duplicateOf: null,
  };
  row.health_score = healthScore(row);
  row.health_status = statusOf(row.health_score);
  return row;
}

/**
 * A 32-bit FNV-1a hash of the text as the duplicate rule compares it: lower case, runs of white space
 * as one space. Computed in one pass without building the folded string: the import's hot path.
 */
function foldedHash(hash: number, value: string): number {
  let space = false;
  for (let i = 0; i < value.length; i++) {
    let code = value.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13) || code === 160) {
      space = true;
      continue;
    }
    if (space) {
      hash = Math.imul(hash ^ 32, 16777619);
      space = false;
    }
    if (code > 127) {
      const lower = value[i]!.toLowerCase();
      if (/\s/.test(lower)) {
        space = true;
        continue;
      }
      for (let j = 0; j < lower.length; j++) hash = Math.imul(hash ^ lower.charCodeAt(j), 16777619);
      continue;
    }
    if (code >= 65 && code <= 90) code += 32;
    hash = Math.imul(hash ^ code, 16777619);
  }
  return hash;
}

function folded(value: string): string {
  return value.toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Rows seen so far, by the hash of their folded name and address; a hash match is confirmed in full.
 * Entries live in parallel arrays chained by hash (no object a row): 100,000 of them cost the garbage
 * collector nothing to keep.
 */
class NameAddressIndex {
  private readonly firstByHash = new Map<number, number>();
  private readonly names: string[] = [];
  private readonly addresses: string[] = [];
  private readonly seen: Seen[] = [];
  /** The entry with the same hash before this one, or -1. */
  private readonly previous: number[] = [];

  static hash(name: string, address: string): number {
    return foldedHash(foldedHash(2166136261, name) ^ 0xff, address);
  }

  find(hash: number, name: string, address: string): Seen | undefined {
    let entry = this.firstByHash.get(hash);
    if (entry === undefined) return undefined;
    const key = `${folded(name)}\u0000${folded(address)}`;
    for (; entry !== -1; entry = this.previous[entry]!) {
      if (`${folded(this.names[entry]!)}\u0000${folded(this.addresses[entry]!)}` === key) return this.seen[entry];
    }
    return undefined;
  }

  add(hash: number, name: string, address: string, seen: Seen): void {
    const entry = this.names.length;
    this.names.push(name);
    this.addresses.push(address);
    this.seen.push(seen);
    this.previous.push(this.firstByHash.get(hash) ?? -1);
    this.firstByHash.set(hash, entry);
  }
}

/** A row index of this request, or the id of an existing location. */
type Seen = number | string;

function duplicateOf(reason: DuplicateOf['reason'], seen: Seen): DuplicateOf {
  return typeof seen === 'number' ? { reason, row: seen } : { reason, location_id: seen };
}

/**
 * Duplicates are rows with the same google_place_id, or the same name and address compared without
 * case and extra spaces, as an earlier row of the request or an existing location of the client.
 */
export class DuplicateIndex {
  private readonly byPlace = new Map<string, Seen>();
  private readonly byNameAddress = new NameAddressIndex();

  constructor(existing: Iterable<ExistingLocation>) {
    for (const location of existing) {
      if (location.google_place_id !== null) this.byPlace.set(location.google_place_id, location.id);
      if (location.address !== null) {
        this.byNameAddress.add(
          NameAddressIndex.hash(location.name, location.address),
          location.name,
          location.address,
          location.id,
        );
      }
    }
  }

  /** What the row repeats, or null, in which case the row is remembered for the rows after it. */
  check(row: PlannedRow): DuplicateOf | null {
    const place = row.google_place_id === null ? undefined : this.byPlace.get(row.google_place_id);
    if (place !== undefined) return duplicateOf('google_place_id', place);
    // A name alone is no evidence of a duplicate: two "Main Street Cafe" rows may be two places.
    const hash = row.address === null ? 0 : NameAddressIndex.hash(row.name, row.address);
    if (row.address !== null) {
      const sameNameAddress = this.byNameAddress.find(hash, row.name, row.address);
      if (sameNameAddress !== undefined) return duplicateOf('name_and_address', sameNameAddress);
    }
    if (row.google_place_id !== null) this.byPlace.set(row.google_place_id, row.index);
    if (row.address !== null) this.byNameAddress.add(hash, row.name, row.address, row.index);
    return null;
  }
}

/**
 * Each row in turn, normalized, scored and checked for duplicates of the rows before it and of the
 * existing locations; or, for an invalid row, its errors. The import and the dry run both read this.
 */
export function* planRows(
  rawRows: Iterable<unknown>,
  existing: Iterable<ExistingLocation>,
): Generator<PlannedRow | ErrorDetail[], void, undefined> {
  const duplicates = new DuplicateIndex(existing);
  let index = 0;
  for (const raw of rawRows) {
    const row = normalizeRow(raw, index++);
    if (!Array.isArray(row)) row.duplicateOf = duplicates.check(row);
    yield row;
  }
}

export function isRowField(field: string): field is RowField {
  return field in UploadRow.properties;
}
