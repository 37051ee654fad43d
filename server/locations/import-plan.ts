import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ErrorDetail } from '../http/errors.js';
import { countryCode } from './country.js';
import { healthOf, type Health } from './health.js';
import { ROW_FIELDS, UploadRow, type DuplicateOf, type RowField } from './schemas.js';

/** A row after trimming and normalization: what would be stored. */
export interface NormalizedRow {
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  google_place_id: string | null;
}

export interface PlannedRow extends NormalizedRow {
  index: number;
  health: Health;
  duplicateOf: DuplicateOf | null;
}

/** What an import would do: every valid row, normalized and checked for duplicates, and every error. */
export interface ImportPlan {
  rows: PlannedRow[];
  errors: ErrorDetail[];
}

/** An existing location of the client, for duplicate detection. */
export interface ExistingLocation {
  id: string;
  name: string;
  address: string | null;
  google_place_id: string | null;
}

const rowChecker = TypeCompiler.Compile(UploadRow);
const OPTIONAL_FIELDS = ['address', 'city', 'state', 'zip', 'country', 'google_place_id'] as const;

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

function text(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Validates and normalizes one row; returns the row or its errors (README: "Import rules"). */
export function normalizeRow(raw: unknown, index: number): NormalizedRow | ErrorDetail[] {
  if (!rowChecker.Check(raw)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return [rowError(index, '', 'must be an object with at least a name')];
    }
    return rowFieldErrors(raw as Record<string, unknown>, index);
  }
  const name = text(raw.name);
  const errors: ErrorDetail[] = [];
  if (name === null) errors.push(rowError(index, 'name', 'is required'));
  const row = { name: name ?? '' } as NormalizedRow;
  for (const field of OPTIONAL_FIELDS) row[field] = text(raw[field]);
  if (row.country !== null) {
    const code = countryCode(row.country);
    if (code === null) errors.push(rowError(index, 'country', `"${row.country}" is not a country name or ISO code`));
    else row.country = code;
  }
  return errors.length > 0 ? errors : row;
}

function fold(value: string): string {
  return value.toLowerCase().replace(/\s+/g, ' ');
}

function nameAndAddressKey(row: { name: string; address: string | null }): string | null {
  // A name alone is no evidence of a duplicate: two "Main Street Cafe" rows may be two places.
  return row.address === null ? null : `${fold(row.name)}\u0000${fold(row.address)}`;
}

/**
 * Duplicates are rows with the same google_place_id, or the same name and address compared without
 * case and extra spaces, as an earlier row of the request or an existing location of the client.
 */
export function planImport(rawRows: readonly unknown[], existing: Iterable<ExistingLocation>): ImportPlan {
  const byPlace = new Map<string, DuplicateOf>();
  const byNameAddress = new Map<string, DuplicateOf>();
  for (const location of existing) {
    if (location.google_place_id !== null) {
      byPlace.set(location.google_place_id, { reason: 'google_place_id', location_id: location.id });
    }
    const key = nameAndAddressKey(location);
    if (key !== null) byNameAddress.set(key, { reason: 'name_and_address', location_id: location.id });
  }
  const rows: PlannedRow[] = [];
  const errors: ErrorDetail[] = [];
  for (let index = 0; index < rawRows.length; index++) {
    const result = normalizeRow(rawRows[index], index);
    if (Array.isArray(result)) {
      errors.push(...result);
      continue;
    }
    const key = nameAndAddressKey(result);
    const duplicateOf =
      (result.google_place_id !== null ? byPlace.get(result.google_place_id) : undefined) ??
      (key !== null ? byNameAddress.get(key) : undefined) ??
      null;
    if (duplicateOf === null) {
      if (result.google_place_id !== null) byPlace.set(result.google_place_id, { reason: 'google_place_id', row: index });
      if (key !== null) byNameAddress.set(key, { reason: 'name_and_address', row: index });
    }
    rows.push({ ...result, index, health: healthOf(result), duplicateOf });
  }
  return { rows, errors };
}

export function isRowField(field: string): field is RowField {
  return field in UploadRow.properties;
}
