import { actorOf, dropOperation, recordEntry, startOperation } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { clientName } from '../clients/queries.js';
import { inIdOrder, piecesOf } from './pieces.js';
import { deleteKeeping, rememberUpdated } from './snapshots.js';
import type { Db } from '../db/open.js';
import { Conflict, HttpError, Invalid, NotFound, type ErrorDetail } from '../http/errors.js';
import { NEEDS, type Principal } from '../http/guards.js';
import {
  fieldValue,
  FieldError,
  halfCoordinate,
  labelsToChange,
  LOCATION_FIELDS,
  MAX_LABELS,
  type LocationField,
  type LocationValues,
} from './fields.js';
import { labelsAfter, tooManyLabelsWords, type LabelChange } from './label-changes.js';
import {
  idsNotOfOrganization,
  locationName,
  locationsByKey,
  locationsPerClient,
  setLabelsOrder,
  storedLocations,
  updateLocation,
  type LocationToUpdate,
  type StoredLocation,
} from './queries.js';
import { changesBetween, derived } from './record.js';
import { readFields, schemaErrors, type RowInput } from './rows.js';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { BulkEditBody, LocationPatch, type BulkEdit, type Changes } from './schemas.js';

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
  /**
   * The location a PATCH changes: what the change leaves it with is judged too (a half pair of coordinates),
   * said with the fields' own problems (the editor showed it one Save later: a walk).
   */
  before?: LocationValues,
): RowInput {
  const checker: TypeCheck<TSchema> = of === 'patch' ? patchChecker : setChecker;
  // Paths as the schema's own errors write them: /body/phone, /body/set/phone.
  const where = of === 'patch' ? '/body' : '/body/set';
  const detail = (field: string, message: string): ErrorDetail => ({ path: `${where}/${field}`, message });
  if (!checker.Check(body)) throw invalid(schemaErrors(checker.Errors(body), detail));
  const withCountry = body.country === undefined && body.phone !== undefined ? { ...body, country } : body;
  const { input, problems } = readFields(withCountry, false);
  const errors: ErrorDetail[] = problems.map(({ field, message }) => detail(field, message));
  if (body.country === undefined) delete input.country;
  if (input.name === null) {
    // readFields words a blank name as an import row's ("is required"); an edit gave one, blank: one error.
    const others = errors.filter((error) => error.path !== `${where}/name`);
    errors.splice(0, errors.length, detail('name', 'cannot be blank'), ...others);
  }
  // A coordinate refused on its own (out of range) is not also "missing" (a walk read both of 95).
  const refusedCoordinate = errors.some((error) => /\/(latitude|longitude)$/.test(error.path));
  if (before !== undefined && !refusedCoordinate) errors.push(...coordinatesOf(input, patched(before, input)));
  if (errors.length > 0) throw invalid(errors);
  return input;
}

/**
 * A PATCH that leaves the location one coordinate: said on both fields, the one given ("has no longitude")
 * and the one missing, so that the editor shows it as the person leaves the field they typed in (a walk saw
 * it only at Save, on a field not yet visited).
 */
function coordinatesOf(input: RowInput, after: LocationValues): ErrorDetail[] {
  const half = halfCoordinate(input, after);
  if (half === null) return [];
  const given = half.field === 'latitude' ? 'longitude' : 'latitude';
  // One coordinate cleared alone: said first on the field sent (a probe's {"latitude": null} was told
  // "longitude has no latitude", of a field it had not sent).
  if (input[half.field] === null && input[given] === undefined) {
    return [
      {
        path: `/body/${half.field}`,
        message: `cannot be cleared alone: the ${given} stays, and a place on a map needs both, or neither (clear the ${given} too)`,
      },
      {
        path: `/body/${given}`,
        message: `stays while the ${half.field} is cleared: a place on a map needs both, or neither`,
      },
    ];
  }
  return [
    { path: `/body/${given}`, message: `has no ${half.field}: a place on a map needs both, or neither` },
    { path: `/body/${half.field}`, message: half.message },
  ];
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

/** Which location has the code, by name (found by a walk: the person had to look for it). */
function codeTakenWords(db: Db, taken: string | undefined, code: string): string {
  const name = taken === undefined ? '' : locationName(db, taken);
  const which = name === '' ? 'Another location of this client' : `Another location of this client, "${name}",`;
  return `${which} already has the store code "${code}"`;
}

/** Writes a location's new values, health recomputed; a store code already used in its client is a 409. */
export function saveLocation(db: Db, location: StoredLocation, values: LocationValues, now: number): void {
  try {
    updateLocation(db, location.id, derived(values, location.client_id), now, location);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      const code = values.store_code!;
      const taken = locationsByKey(db, location.client_id, 'store_code', [code]).get(code);
      throw Conflict(codeTakenWords(db, taken, code));
    }
    throw error;
  }
}

/**
 * Checks that every id is a location of the organization in a client the caller may change, counting
 * them in SQL (a bulk change of 100,000 locations read them all at once here, past the writer thread's
 * heap: a 500); 404 when any is not (nothing is changed then). Returns their clients.
 */
function clientsToChange(db: Db, principal: Principal, ids: string[], now: number): string[] {
  const idsJson = JSON.stringify(ids);
  const perClient = locationsPerClient(db, principal.organizationId, idsJson);
  const found = [...perClient.values()].reduce((sum, n) => sum + n, 0);
  if (found !== ids.length) throw notLocations(db, principal.organizationId, idsJson, ids.length - found, ids.length);
  for (const clientId of perClient.keys()) authorizeWrite(db, principal, { ...NEEDS.import, clientId }, now);
  return [...perClient.keys()];
}

/** Ids a refusal names, in its message and in its details: enough to find them in a list of 100,000. */
const NAMED_IDS = 10;
const DETAILED_IDS = 100;

/** The 404 of ids not the organization's: how many, and which (a probe could not tell which of its ids). */
function notLocations(db: Db, organizationId: string, idsJson: string, missing: number, total: number) {
  // One id: said in the singular, with the detail a list of several carries too (a walk's script read details).
  if (total === 1) {
    const [id] = JSON.parse(idsJson) as [string];
    return new HttpError(
      404,
      'This id is not a location of your organization (deleted already?); nothing was changed',
      [notLocationDetail(0, id)],
    );
  }
  const wrong = idsNotOfOrganization(db, organizationId, idsJson, DETAILED_IDS);
  const named = wrong.slice(0, NAMED_IDS).map(({ id }) => id);
  const more = missing > named.length ? ` and ${missing - named.length} more` : '';
  return new HttpError(
    404,
    `${missing} of the ${total} ids ${missing === 1 ? 'is not a location' : 'are not locations'} of your organization (deleted already?): ${named.join(', ')}${more}; nothing was changed`,
    wrong.map(({ at, id }) => notLocationDetail(at, id)),
  );
}

/** The detail of an id that is not a location of the organization, at its place in the list. */
function notLocationDetail(at: number, id: string): ErrorDetail {
  return { path: `/body/ids/${at}`, message: `${id} is not a location of your organization` };
}

/** The locations of these ids, a piece at a time: a piece is let go before the next is read. */
function* locationPieces(db: Db, organizationId: string, ids: readonly string[]): Generator<LocationToUpdate[]> {
  for (const piece of piecesOf(ids)) yield storedLocations(db, organizationId, piece);
}

interface ManyRequest {
  principal: Principal;
  ids: string[];
  now: number;
}

/** The one client of these locations, or null when they are of several. */
function clientOfAll(clients: string[]): string | null {
  return clients.length === 1 ? clients[0]! : null;
}

/**
 * Deletes many in one transaction: one operation of the audit trail, which an undo puts back. A dry run
 * checks the ids and the rights as the deletion does (the same 404s and 403s) and counts, writing nothing.
 */
export function deleteLocationsOf(
  db: Db,
  { principal, ids, now, dryRun = false }: ManyRequest & { dryRun?: boolean },
): { count: number; operation_id: string | null } {
  if (dryRun) {
    return db.transaction(() => {
      clientsToChange(db, principal, ids, now);
      return { count: ids.length, operation_id: null };
    })();
  }
  return db
    .transaction(() => {
      const clientId = clientOfAll(clientsToChange(db, principal, ids, now));
      const operationId = startOperation(
        db,
        { organizationId: principal.organizationId, clientId, kind: 'bulk_delete' },
        now,
      );
      // The first few deleted are named (their ids were checked as the organization's above): one as the
      // entry's target, several in its summary, so the history says which ("Pike Place, Mission…").
      const names = ids.slice(0, NAMED).map((id) => locationName(db, id));
      const one = ids.length === 1 ? { id: ids[0]!, name: names[0]! } : undefined;
      deleteKeeping(db, operationId, ids);
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
          summary: one ? { count: ids.length } : { count: ids.length, names },
          operationId,
        },
        now,
      );
      return { count: ids.length, operation_id: operationId };
    })
    .immediate();
}

/** What a bulk edit does to each location: the fields it sets, and the labels it adds and removes. */
export interface BulkChange {
  input: RowInput;
  labels: LabelChange | null;
}

/**
 * A bulk edit's body without its ids, read by the fields' rules (its schema has been checked): a 400
 * when it changes nothing, or replaces the labels (set.labels) beside adding or removing some.
 */
export function readBulkEdit({ set, add_labels: add, remove_labels: remove }: BulkEdit): BulkChange {
  if (set?.labels !== undefined && (add !== undefined || remove !== undefined)) {
    const field = add !== undefined ? 'add_labels' : 'remove_labels';
    const message = `cannot go with ${field}: set.labels replaces every label, ${field} changes each location's own; send one or the other`;
    throw Invalid(`set.labels ${message}`, [{ path: '/body/set/labels', message }]);
  }
  const input = set === undefined ? {} : readPatch(set, null, 'set');
  const labels = add === undefined && remove === undefined ? null : readLabelChange(add, remove);
  if (set === undefined && (labels === null || labels.add.length + labels.remove.length === 0)) {
    const message = 'The edit changes nothing: give set, or add_labels or remove_labels with a label';
    throw Invalid(message, [{ path: '/body', message: 'must have set, add_labels or remove_labels' }]);
  }
  return { input, labels };
}

/** add_labels and remove_labels by the labels rule; a label in both is a 400 (it would be added, then removed). */
function readLabelChange(add: string[] | undefined, remove: string[] | undefined): LabelChange {
  const errors: ErrorDetail[] = [];
  const read = (list: string[] | undefined, change: 'add' | 'remove'): string[] => {
    if (list === undefined) return [];
    try {
      // Blanks are left out, as in a sheet's cell ("summer, " typed in the dashboard; the rule's null); a
      // list of blanks alone is refused at the list, where the edit would say it changes nothing.
      const labels = labelsToChange(list, change);
      if (labels === null && list.length > 0)
        errors.push({ path: `/body/${change}_labels`, message: 'names no label: each one given is blank' });
      return labels ?? [];
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      errors.push({ path: `/body/${change}_labels`, message: error.message });
      return [];
    }
  };
  const change = { add: read(add, 'add'), remove: read(remove, 'remove') };
  const both = change.add.find((label) => change.remove.includes(label));
  if (both !== undefined)
    errors.push({ path: '/body/remove_labels', message: `"${both}" is in add_labels too: add it or remove it` });
  if (errors.length > 0) throw invalid(errors);
  return change;
}

/** A location's values after the edit, and its fields that change; null when none does. */
function editOf(location: StoredLocation, change: BulkChange): { values: LocationValues; changes: Changes } | null {
  const values = patched(location, change.input);
  if (change.labels !== null) values.labels = labelsAfter(values.labels, change.labels);
  const changes = changesOf(location, values);
  return Object.keys(changes).length === 0 ? null : { values, changes };
}

/**
 * A 400 when labels added would leave any location with more than 10 (Google's limit): checked over
 * every location before the first is written, keeping no location's values meanwhile (the writer's heap
 * holds 100,000 locations already).
 */
function refuseOverfull(db: Db, request: EditRequest, change: BulkChange): void {
  if (change.labels === null || change.labels.add.length === 0) return;
  const overfull: { name: string; labels: number }[] = [];
  for (const found of locationPieces(db, request.principal.organizationId, request.ids)) {
    for (const location of found) {
      const labels = labelsAfter(location.labels, change.labels)?.length ?? 0;
      if (labels > MAX_LABELS) overfull.push({ name: location.name, labels });
    }
  }
  if (overfull.length === 0) return;
  const message = tooManyLabelsWords(overfull);
  throw Invalid(message, [{ path: '/body/add_labels', message }]);
}

type EditRequest = ManyRequest & { edit: BulkEdit; dryRun: boolean };

/** How many of the locations a bulk change or delete touched its entry names: the history says which. */
const NAMED = 3;

/**
 * What the audit entry says was done: the values set as stored (a walk's entry said "the country to
 * Germany" and "the hours to Mon-Fri 9-5" where DE and the hours read were set), the labels added and
 * removed as read, and the names of the first locations changed.
 */
function editSummary(
  request: EditRequest,
  change: BulkChange,
  count: number,
  names: string[],
): Record<string, unknown> {
  const summary: Record<string, unknown> = { count, of: request.ids.length, names };
  if (request.edit.set !== undefined) summary.set = change.input;
  if (change.labels?.add.length) summary.add_labels = change.labels.add;
  if (change.labels?.remove.length) summary.remove_labels = change.labels.remove;
  return summary;
}

/** Writes the edit as one operation of the trail, with its entry; returns how many locations changed. */
function writeEdits(db: Db, request: EditRequest, change: BulkChange, clients: string[]) {
  const { principal, now } = request;
  const clientId = clientOfAll(clients);
  const operationId = startOperation(
    db,
    { organizationId: principal.organizationId, clientId, kind: 'bulk_edit' },
    now,
  );
  let count = 0;
  const names: string[] = [];
  // In id order: operation_rows' key (operation, location) grows at its end.
  for (const found of locationPieces(db, principal.organizationId, inIdOrder(request.ids))) {
    for (const location of found) {
      const edit = editOf(location, change);
      if (edit === null) continue;
      if (names.length < NAMED) names.push(location.name);
      // Saved once below. Only the fields it changes are kept, as an import keeps them.
      rememberUpdated(db, operationId, location, Object.keys(edit.changes));
      saveLocation(db, location, edit.values, now);
      count++;
    }
  }
  if (count === 0) dropOperation(db, operationId);
  const kept = count === 0 ? null : operationId;
  recordEntry(
    db,
    {
      organizationId: principal.organizationId,
      actor: actorOf(db, principal),
      action: 'locations.edited',
      target: { type: 'client', id: clientId, name: clientId && clientName(db, clientId) },
      clientId,
      summary: editSummary(request, change, count, names),
      operationId: kept,
    },
    now,
  );
  return { count, operation_id: kept };
}

/**
 * A bulk edit: the same values on many, labels added and removed; returns how many locations it changed
 * (or with dryRun would change, writing nothing). One operation of the trail.
 */
export function editLocationsOf(db: Db, request: EditRequest): { count: number; operation_id: string | null } {
  const change = readBulkEdit(request.edit);
  const run = () => {
    const clients = clientsToChange(db, request.principal, request.ids, request.now);
    refuseOverfull(db, request, change);
    if (!request.dryRun) return writeEdits(db, request, change, clients);
    let count = 0;
    for (const found of locationPieces(db, request.principal.organizationId, request.ids))
      count += found.filter((location) => editOf(location, change) !== null).length;
    return { count, operation_id: null };
  };
  return request.dryRun ? db.transaction(run)() : db.transaction(run).immediate();
}

/** PATCH of one location: saved, and its entry with each field {from, to}, in one transaction. */
/**
 * readPatch, and when it refuses the patch, a store code another location of the client holds refused with
 * the rest: a walk fixed a blank name and a latitude, saved, and only then heard of the code (the unique
 * index says it at the write, which a refused patch never reaches).
 */
function readPatchOrClash(db: Db, location: StoredLocation, body: Record<string, unknown>): RowInput {
  try {
    return readPatch(body, location.country, 'patch', location);
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode !== 400 || error.details === undefined) throw error;
    const clash = storeCodeClash(db, location, body.store_code);
    if (clash !== null && !error.details.some((detail) => detail.path === '/body/store_code'))
      error.details.push({ path: '/body/store_code', message: clash });
    throw error;
  }
}

/** Why a store code cannot be this location's: another of its client's has it (null when none, or unreadable). */
function storeCodeClash(db: Db, location: StoredLocation, raw: unknown): string | null {
  // Only a text can be a code: the schema let anything else through to readPatch's own refusal.
  if (typeof raw !== 'string') return null;
  let code: unknown;
  try {
    code = fieldValue('store_code', raw, location.country);
  } catch (error) {
    if (error instanceof FieldError) return null;
    throw error;
  }
  if (typeof code !== 'string' || code === location.store_code) return null;
  const taken = locationsByKey(db, location.client_id, 'store_code', [code]).get(code);
  if (taken === undefined || taken === location.id) return null;
  // The 409's own words: the editor shows either under the field.
  return codeTakenWords(db, taken, code);
}

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
  const values = patched(location, readPatchOrClash(db, location, body));
  const changes = changesOf(location, values);
  if (Object.keys(changes).length === 0) {
    // Labels in another order are kept as sent, though no change: not a new revision, nor an entry.
    if (values.labels !== null && JSON.stringify(values.labels) !== JSON.stringify(location.labels))
      setLabelsOrder(db, id, values.labels);
    return;
  }
  saveLocation(db, location, values, now);
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
