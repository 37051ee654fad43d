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

const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FNV_PRIME = 16777619;
/** The multiplier of the second, independent hash of existing locations' fingerprints. */
const OTHER_PRIME = 0x5bd1e995;

/**
 * A 32-bit FNV-1a hash of the text as the duplicate rule compares it: lower case, runs of white space
 * as one space. Computed in one pass without building the folded string: the import's hot path.
 */
function foldedHash(hash: number, value: string, prime = FNV_PRIME): number {
  let space = false;
  for (let i = 0; i < value.length; i++) {
    let code = value.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13) || code === 160) {
      space = true;
      continue;
    }
    if (space) {
      hash = Math.imul(hash ^ 32, prime);
      space = false;
    }
    if (code > 127) {
      const lower = value[i]!.toLowerCase();
      if (/\s/.test(lower)) {
        space = true;
        continue;
      }
      for (let j = 0; j < lower.length; j++) hash = Math.imul(hash ^ lower.charCodeAt(j), prime);
      continue;
    }
    if (code >= 65 && code <= 90) code += 32;
    hash = Math.imul(hash ^ code, prime);
  }
  return hash;
}

/** A 32-bit FNV-1a-style hash of the text as it is (place ids compare exactly). */
function exactHash(hash: number, value: string, prime = FNV_PRIME): number {
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), prime);
  return hash;
}

const nameAddressHash2 = (name: string, address: string) =>
  foldedHash(foldedHash(0x27d4eb2f, name, OTHER_PRIME) ^ 0xa5, address, OTHER_PRIME);
const placeHash = (place: string) => exactHash(2166136261, place);
const placeHash2 = (place: string) => exactHash(0x27d4eb2f, place, OTHER_PRIME);

/**
 * 64-bit fingerprints (two 32-bit hashes) to numbers, in typed arrays with open addressing: about 24
 * bytes an entry, where a Map of the texts takes some 300.
 */
class Fingerprints {
  private first = new Int32Array(1024);
  private second = new Int32Array(1024);
  private values = new Int32Array(1024).fill(-1);
  private size = 0;

  private slotOf(first: number): number {
    return Math.imul(first, 0x9e3779b1) >>> (32 - Math.log2(this.values.length));
  }

  /** The number for this fingerprint; the second hash is computed only when the first matches. */
  get(first: number, second: () => number): number {
    const mask = this.values.length - 1;
    let other: number | undefined;
    for (let slot = this.slotOf(first); this.values[slot] !== -1; slot = (slot + 1) & mask) {
      if (this.first[slot] !== first) continue;
      other ??= second();
      if (this.second[slot] === other) return this.values[slot]!;
    }
    return -1;
  }

  /** Sets the number for this fingerprint; a later one replaces an earlier. */
  set(first: number, second: number, value: number): void {
    if ((this.size + 1) * 2 > this.values.length) this.grow();
    const mask = this.values.length - 1;
    let slot = this.slotOf(first);
    for (; this.values[slot] !== -1; slot = (slot + 1) & mask) {
      if (this.first[slot] === first && this.second[slot] === second) {
        this.values[slot] = value;
        return;
      }
    }
    this.first[slot] = first;
    this.second[slot] = second;
    this.values[slot] = value;
    this.size++;
  }

  private grow(): void {
    const { first, second, values } = this;
    this.first = new Int32Array(values.length * 2);
    this.second = new Int32Array(values.length * 2);
    this.values = new Int32Array(values.length * 2).fill(-1);
    this.size = 0;
    for (let slot = 0; slot < values.length; slot++) {
      if (values[slot] !== -1) this.set(first[slot]!, second[slot]!, values[slot]!);
    }
  }
}

/**
 * The client's existing locations, by the fingerprints of their place id and of their folded name and
 * address, with their ids as 16 bytes each: some 70 bytes a location instead of 300 for their texts,
 * so that a client of several hundred thousand locations fits the parser's memory. A fingerprint match
 * is taken for the same text without comparing them: two different texts share a 64-bit fingerprint
 * about once in 10^19 pairs, so an import of 100,000 rows into a client of 1,000,000 meets a false match
 * about once in 10^8 imports. (The rows of the request itself are compared in full.)
 */
class ExistingLocations {
  private readonly places = new Fingerprints();
  private readonly namesAddresses = new Fingerprints();
  private ids = Buffer.alloc(16 * 1024);
  /** Ids that are not lower-case UUIDs (none the server writes), kept as they are. */
  private readonly otherIds = new Map<number, string>();
  private count = 0;

  add(location: ExistingLocation): void {
    const n = this.count++;
    if (16 * this.count > this.ids.length) {
      const grown = Buffer.alloc(this.ids.length * 2);
      this.ids.copy(grown);
      this.ids = grown;
    }
    if (LOWER_UUID.test(location.id)) this.ids.write(location.id.replace(/-/g, ''), 16 * n, 'hex');
    else this.otherIds.set(n, location.id);
    const place = location.google_place_id;
    if (place !== null) this.places.set(placeHash(place), placeHash2(place), n);
    const { name, address } = location;
    if (address !== null) {
      this.namesAddresses.set(NameAddressIndex.hash(name, address), nameAddressHash2(name, address), n);
    }
  }

  /** The id of the existing location with this place id. */
  withPlace(place: string): string | undefined {
    return this.idOf(this.places.get(placeHash(place), () => placeHash2(place)));
  }

  /** The id of the existing location with this name and address; `hash` is NameAddressIndex.hash of them. */
  withNameAddress(hash: number, name: string, address: string): string | undefined {
    return this.idOf(this.namesAddresses.get(hash, () => nameAddressHash2(name, address)));
  }

  private idOf(n: number): string | undefined {
    if (n < 0) return undefined;
    const other = this.otherIds.get(n);
    if (other !== undefined) return other;
    const hex = this.ids.toString('hex', 16 * n, 16 * n + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
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
  private readonly existing = new ExistingLocations();

  constructor(existing: Iterable<ExistingLocation> = []) {
    for (const location of existing) this.addExisting(location);
  }

  /** An existing location of the client: rows repeating it are duplicates. */
  addExisting(location: ExistingLocation): void {
    this.existing.add(location);
  }

  /** What the row repeats, or null, in which case the row is remembered for the rows after it. */
  check(row: PlannedRow): DuplicateOf | null {
    const { google_place_id: place, name, address } = row;
    if (place !== null) {
      const seen = this.existing.withPlace(place) ?? this.byPlace.get(place);
      if (seen !== undefined) return duplicateOf('google_place_id', seen);
    }
    // A name alone is no evidence of a duplicate: two "Main Street Cafe" rows may be two places.
    const hash = address === null ? 0 : NameAddressIndex.hash(name, address);
    if (address !== null) {
      const seen = this.existing.withNameAddress(hash, name, address) ?? this.byNameAddress.find(hash, name, address);
      if (seen !== undefined) return duplicateOf('name_and_address', seen);
    }
    if (row.google_place_id !== null) this.byPlace.set(row.google_place_id, row.index);
    if (row.address !== null) this.byNameAddress.add(hash, row.name, row.address, row.index);
    return null;
  }
}

/**
 * Each row in turn, normalized, scored and checked for duplicates of the rows before it and of the
 * existing locations already in `duplicates`; or, for an invalid row, its errors. The import and the dry run both read this.
 */
export function* planRows(
  rawRows: Iterable<unknown>,
  duplicates: DuplicateIndex,
): Generator<PlannedRow | ErrorDetail[], void, undefined> {
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
