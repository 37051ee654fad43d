import { authorizeWrite } from '../auth/authorize.js';
import type { Db } from '../db/open.js';
import { Conflict, Invalid, NotFound, type ErrorDetail } from '../http/errors.js';
import { NEEDS, type Principal } from '../http/guards.js';
import { LOCATION_FIELDS, type LocationField, type LocationValues } from './fields.js';
import { deleteLocations, storedLocations, updateLocation, type StoredLocation } from './queries.js';
import { derived, sameValue } from './record.js';
import { readFields, schemaErrors, type RowInput } from './rows.js';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { BulkEditBody, LocationPatch, type Changes } from './schemas.js';

/**
 * Changes to locations one by one or many at once (issue 9 §2): the same field rules as the import,
 * health recomputed, every change one transaction; an id that is not the caller's to change fails the
 * whole request and nothing is written.
 */

const patchChecker = TypeCompiler.Compile(LocationPatch);
const setChecker = TypeCompiler.Compile(BulkEditBody.properties.set);

/**
 * A PATCH body (or a bulk edit's `set`) read by the fields' rules: what it sets and clears, or a 400
 * naming every wrong field. Its schema has been checked; the rules need the location's country for a
 * national phone number, so a body without one is read against `country`.
 */
export function readPatch(body: Record<string, unknown>, country: string | null, part = 'body'): RowInput {
  const checker: TypeCheck<TSchema> = part === 'body' ? patchChecker : setChecker;
  const detail = (field: string, message: string): ErrorDetail => ({ path: `/${part}/${field}`, message });
  if (!checker.Check(body)) throw invalid(schemaErrors(checker.Errors(body), detail));
  const errors: ErrorDetail[] = [];
  const withCountry = body.country === undefined && body.phone !== undefined ? { ...body, country } : body;
  const { input } = readFields(withCountry, (field, message) => errors.push(detail(field, message)), false);
  if (body.country === undefined) delete input.country;
  if (input.name === null) errors.push(detail('name', 'cannot be blank'));
  if (errors.length > 0) throw invalid(errors);
  return input;
}

function invalid(details: ErrorDetail[]) {
  const [first] = details;
  return Invalid(
    first === undefined ? 'Invalid request' : `${first.path.replace(/^\/(body|set)\//, '')} ${first.message}`,
    details,
  );
}

/** The location's values with the patch applied: a null clears a field (status goes back to open). */
export function patched(location: LocationValues, input: RowInput): LocationValues {
  const values = { ...location } as Record<LocationField, unknown>;
  for (const field of LOCATION_FIELDS) {
    const value = input[field];
    if (value !== undefined) values[field] = value ?? (field === 'status' ? 'open' : null);
  }
  return values as unknown as LocationValues;
}

export function changesOf(before: LocationValues, after: LocationValues): Changes {
  const changes: Changes = {};
  for (const field of LOCATION_FIELDS) {
    if (!sameValue(before[field], after[field])) changes[field] = { from: before[field], to: after[field] };
  }
  return changes;
}

/** Writes a location's new values, health recomputed; a store code already used in its client is a 409. */
export function saveLocation(db: Db, location: StoredLocation, values: LocationValues, now: number): void {
  try {
    updateLocation(db, location.id, derived(values), now);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw Conflict(`Another location of this client already has the store code "${values.store_code}"`);
    }
    throw error;
  }
}

/**
 * The organization's locations of these ids, each in a client the caller may change, read inside the
 * write's transaction; 404 when any id is not one of them (nothing is changed then).
 */
function locationsToChange(db: Db, principal: Principal, ids: string[], now: number): StoredLocation[] {
  const found = storedLocations(db, principal.organizationId, JSON.stringify(ids));
  if (found.length !== ids.length) {
    const missing = ids.length - found.length;
    throw NotFound(
      `${missing} of the ${ids.length} ids ${missing === 1 ? 'is not a location' : 'are not locations'} of your organization; nothing was changed`,
    );
  }
  for (const clientId of new Set(found.map((location) => location.client_id))) {
    authorizeWrite(db, principal, { ...NEEDS.import, clientId }, now);
  }
  return found;
}

export function deleteLocationsOf(
  db: Db,
  { principal, ids, now }: { principal: Principal; ids: string[]; now: number },
): { count: number } {
  return db
    .transaction(() => {
      locationsToChange(db, principal, ids, now);
      deleteLocations(db, JSON.stringify(ids));
      return { count: ids.length };
    })
    .immediate();
}

/** A bulk edit: the same values on many; returns how many locations it changed. */
export function editLocationsOf(
  db: Db,
  request: { principal: Principal; ids: string[]; set: Record<string, unknown>; now: number },
): { count: number } {
  const input = readPatch(request.set, null, 'set');
  return db
    .transaction(() => {
      let count = 0;
      for (const location of locationsToChange(db, request.principal, request.ids, request.now)) {
        const values = patched(location, input);
        if (Object.keys(changesOf(location, values)).length === 0) continue;
        saveLocation(db, location, values, request.now);
        count++;
      }
      return { count };
    })
    .immediate();
}
