import { actorOf, recordEntry, startOperation } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { clientName } from '../clients/queries.js';
import { rememberRow, snapshotOfFields, snapshotsOf } from './snapshots.js';
import type { Db } from '../db/open.js';
import { Conflict, Invalid, NotFound, type ErrorDetail } from '../http/errors.js';
import { NEEDS, type Principal } from '../http/guards.js';
import { LOCATION_FIELDS, type LocationField, type LocationValues } from './fields.js';
import { deleteLocations, storedLocations, updateLocation, type StoredLocation } from './queries.js';
import { changesBetween, derived } from './record.js';
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
export function readPatch(
  body: Record<string, unknown>,
  country: string | null,
  of: 'patch' | 'set' = 'patch',
): RowInput {
  const checker: TypeCheck<TSchema> = of === 'patch' ? patchChecker : setChecker;
  // Paths as the schema's own errors write them: /body/phone, /body/set/phone.
  const where = of === 'patch' ? '/body' : '/body/set';
  const detail = (field: string, message: string): ErrorDetail => ({ path: `${where}/${field}`, message });
  if (!checker.Check(body)) throw invalid(schemaErrors(checker.Errors(body), detail));
  const errors: ErrorDetail[] = [];
  const withCountry = body.country === undefined && body.phone !== undefined ? { ...body, country } : body;
  const { input } = readFields(withCountry, (field, message) => errors.push(detail(field, message)), false);
  if (body.country === undefined) delete input.country;
  if (input.name === null) {
    // readFields words a blank name as an import row's ("is required"); an edit gave one, blank: one error.
    const others = errors.filter((error) => error.path !== `${where}/name`);
    errors.splice(0, errors.length, detail('name', 'cannot be blank'), ...others);
  }
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
  return changesBetween(before, after) ?? {};
}

/** Writes a location's new values, health recomputed; a store code already used in its client is a 409. */
export function saveLocation(db: Db, location: StoredLocation, values: LocationValues, now: number): void {
  try {
    updateLocation(db, location.id, derived(values), now, location);
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

interface ManyRequest {
  principal: Principal;
  ids: string[];
  now: number;
}

/** The one client of these locations, or null when they are of several. */
function clientOfAll(locations: StoredLocation[]): string | null {
  const clients = new Set(locations.map((location) => location.client_id));
  return clients.size === 1 ? [...clients][0]! : null;
}

/** Deletes many in one transaction: one operation of the audit trail, which an undo puts back. */
export function deleteLocationsOf(
  db: Db,
  { principal, ids, now }: ManyRequest,
): { count: number; operation_id: string } {
  return db
    .transaction(() => {
      const found = locationsToChange(db, principal, ids, now);
      const clientId = clientOfAll(found);
      const operationId = startOperation(
        db,
        { organizationId: principal.organizationId, clientId, kind: 'bulk_delete' },
        now,
      );
      for (const before of snapshotsOf(db, JSON.stringify(ids)))
        rememberRow(db, operationId, before.id, 'deleted', before.json, null);
      deleteLocations(db, JSON.stringify(ids));
      const one = found.length === 1 ? found[0]! : undefined;
      recordEntry(
        db,
        {
          organizationId: principal.organizationId,
          actor: actorOf(db, principal),
          action: one ? 'location.deleted' : 'locations.deleted',
          target: one
            ? { type: 'location', id: one.id, name: one.name }
            : { type: 'client', id: clientId, name: clientId && clientName(db, clientId) },
          clientId,
          locationId: one?.id ?? null,
          summary: { count: ids.length },
          operationId,
        },
        now,
      );
      return { count: ids.length, operation_id: operationId };
    })
    .immediate();
}

/** A bulk edit: the same values on many; returns how many locations it changed. One operation of the trail. */
export function editLocationsOf(
  db: Db,
  request: ManyRequest & { set: Record<string, unknown> },
): { count: number; operation_id: string } {
  const input = readPatch(request.set, null, 'set');
  const { principal, now } = request;
  return db
    .transaction(() => {
      const found = locationsToChange(db, principal, request.ids, now);
      const clientId = clientOfAll(found);
      const operationId = startOperation(
        db,
        { organizationId: principal.organizationId, clientId, kind: 'bulk_edit' },
        now,
      );
      const before = new Map(snapshotsOf(db, JSON.stringify(request.ids)).map((snapshot) => [snapshot.id, snapshot]));
      let count = 0;
      for (const location of found) {
        const values = patched(location, input);
        const changes = changesOf(location, values);
        if (Object.keys(changes).length === 0) continue;
        // Saved once below: its revision goes one up. Only the fields it changes are kept: an undo puts
        // back those alone, and a later undo of another change sees which fields this one touched.
        const snapshot = before.get(location.id)!;
        const kept = snapshotOfFields(snapshot.json, Object.keys(changes));
        rememberRow(db, operationId, location.id, 'updated', kept, snapshot.revision + 1);
        saveLocation(db, location, values, now);
        count++;
      }
      recordEntry(
        db,
        {
          organizationId: principal.organizationId,
          actor: actorOf(db, principal),
          action: 'locations.edited',
          target: { type: 'client', id: clientId, name: clientId && clientName(db, clientId) },
          clientId,
          summary: { count, of: request.ids.length, set: request.set },
          operationId,
        },
        now,
      );
      return { count, operation_id: operationId };
    })
    .immediate();
}

/** PATCH of one location: saved, and its entry with each field {from, to}, in one transaction. */
export function patchLocation(
  db: Db,
  principal: Principal,
  id: string,
  body: Record<string, unknown>,
  now: number,
): void {
  const [location] = storedLocations(db, principal.organizationId, JSON.stringify([id]));
  if (location === undefined) throw NotFound('No location with this id');
  authorizeWrite(db, principal, { ...NEEDS.import, clientId: location.client_id }, now);
  const values = patched(location, readPatch(body, location.country));
  const changes = changesOf(location, values);
  // Saved even when no field changed: labels in another order are kept as sent, though no change.
  saveLocation(db, location, values, now);
  if (Object.keys(changes).length === 0) return;
  recordEntry(
    db,
    {
      organizationId: principal.organizationId,
      actor: actorOf(db, principal),
      action: 'location.updated',
      target: { type: 'location', id, name: values.name },
      clientId: location.client_id,
      locationId: id,
      changes,
    },
    now,
  );
}
