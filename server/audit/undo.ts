import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import { authorizeWrite } from '../auth/authorize.js';
import { Conflict, Forbidden, NotFound } from '../http/errors.js';
import { NEEDS, type Principal } from '../http/guards.js';
import { fieldInWords } from '../locations/field-words.js';
import { LOCATION_FIELDS, type LocationField, type LocationValues } from '../locations/fields.js';
import {
  addToLocationsCount,
  clientOrganization,
  fromColumns,
  locationName,
  locationsByKey,
  locationsToUpdate,
  setDerived,
  setStoreCode,
  storedLocations,
  updateLocation,
  type StoredColumns,
} from '../locations/queries.js';
import { inIdOrder, piecesOf } from '../locations/pieces.js';
import { derived } from '../locations/record.js';
import { rulesChangedSince } from '../locations/rescore.js';
import {
  createdAndRemoved,
  createdBy,
  deleteKeeping,
  keptBefore,
  plannedRows,
  keepNow,
  reinsertKept,
  rememberRow,
  rememberUpdated,
  removalsSince,
  removedName,
  writeBack,
  type UndoIds,
  type Current,
  type PlannedRow,
} from '../locations/snapshots.js';
import { actorOf, recordEntry, startOperation } from './queries.js';
import type { UndoResponse } from './schemas.js';

interface Operation {
  id: string;
  client_id: string | null;
  kind: string;
  undone_by: string | null;
}

/**
 * One step of an undo: what it does to one location, or why it leaves it. A step holds no snapshot: SQLite
 * reads the values an undo writes back from operation_rows as it writes them, and copies there what the
 * undo keeps of a location now (keepNow, writeBack, reinsertKept, rememberDeleted), so that undoing 100,000 rich
 * locations holds a few names and ids of each in this thread, not two copies of every row.
 */
type Step =
  | { kind: 'remove'; id: string }
  // merge: the location changed since, but in other fields only: the operation's fields (these) alone are put back.
  // keptColumns: the columns the operation kept (comma-separated), which the restore writes back.
  // leftRevision: where the restore leaves it (the kept revision, else one up); a merge moves it one up.
  | {
      kind: 'restore';
      id: string;
      clientId: string;
      name: string;
      code: StoreCode;
      keptColumns: string;
      leftRevision: number;
      merge?: LocationField[];
    }
  | { kind: 'recreate'; id: string; clientId: string; name: string; code: StoreCode }
  | { kind: 'conflict'; location_id: string; name: string; reason: string; held_by?: string };

/** The store code a step writes back; undefined when it leaves the code as it is. */
type StoreCode = string | null | undefined;

/** Where an undo's plan stands in the trail: its operation's entry, and the removals after it (lazily read). */
class Since {
  private removals: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly organizationId: string,
    /** The operation's client: only its removals (and those over several clients) can hold its locations. */
    private readonly clientId: string | null,
    readonly seq: number,
  ) {}

  /** The operations that removed locations after it, as removalsSince gives them. */
  removed(): string {
    return (this.removals ??= removalsSince(this.db, this.organizationId, this.clientId, this.seq));
  }
}

/** What undoing the operation would do, read inside the transaction, the operation's rows a piece at a time. */
function planUndo(db: Db, operation: Operation, since: Since): Step[] {
  const steps: Step[] = operation.kind === 'import' ? importedSteps(db, operation, since) : [];
  for (const piece of plannedRows(db, operation.id))
    for (const row of piece) steps.push(stepOf(db, operation.id, row, since));
  return withCodeClashes(db, steps);
}

/**
 * The locations an import created (created_by; an import is of one client): removed when unchanged, else
 * conflicts, and so are those removed since (a probe found their undo silently did nothing, again and again).
 */
function importedSteps(db: Db, operation: Operation, since: Since): Step[] {
  if (operation.client_id === null) return [];
  const clientId = operation.client_id;
  if (clientOrganization(db, clientId) === undefined)
    throw Conflict('The client of this import was deleted since, with its locations: nothing of it is left to undo');
  const steps: Step[] = createdBy(db, clientId, operation.id).map((now) =>
    now.revision === 0
      ? { kind: 'remove', id: now.id }
      : {
          kind: 'conflict',
          location_id: now.id,
          name: now.name,
          reason: changedSince(editsSince(db, now.id, since.seq), 'changed since it was imported'),
        },
  );
  for (const gone of createdAndRemoved(db, since.removed(), operation.id))
    steps.push({ kind: 'conflict', location_id: gone.id, name: gone.name, reason: 'deleted since' });
  return steps;
}

/** The step for one of the operation's rows. */
function stepOf(db: Db, operationId: string, row: PlannedRow, since: Since): Step {
  const id = row.location_id;
  // A location gone since, whose kept values lack its name (an update keeps the fields it changed): the
  // removal kept it whole (a probe found such conflicts named "").
  const name = row.name ?? row.before_name ?? removedName(db, since.removed(), id) ?? '';
  const code = row.gives_code ? row.code : undefined;
  if (row.action === 'deleted') {
    if (row.client_id !== null) return { kind: 'conflict', location_id: id, name, reason: 'exists again' };
    if (row.client_gone) return { kind: 'conflict', location_id: id, name, reason: 'its client was deleted since' };
    return { kind: 'recreate', id, clientId: row.before_client!, name, code };
  }
  if (row.client_id === null) return { kind: 'conflict', location_id: id, name, reason: 'deleted since' };
  const now: Current = { id, client_id: row.client_id, revision: row.revision!, name };
  const leftRevision = row.before_revision ?? now.revision + 1;
  const restore = { id, clientId: now.client_id, name, code, keptColumns: row.kept_columns ?? '', leftRevision };
  if (now.revision !== row.left_revision) return changedStep(db, { operationId, row, now, since: since.seq }, restore);
  if (row.action === 'created') return { kind: 'remove', id };
  return { kind: 'restore', ...restore };
}

/**
 * The step for a location changed since the operation: its fields put back when the changes since left
 * them alone (mergeable), else a conflict naming the change.
 */
function changedStep(
  db: Db,
  at: { operationId: string; row: PlannedRow; now: Current; since: number },
  restore: Omit<Extract<Step, { kind: 'restore' }>, 'kind' | 'merge'>,
): Step {
  const { operationId, row, now, since } = at;
  // The location's own edits since, read once: what a merge must know, and what the conflict names.
  const edits = editsSince(db, now.id, since);
  const mine = row.action === 'updated' ? keptFields(db, operationId, now.id) : null;
  const merge = mine === null ? null : mergeable(db, { row, now, since }, mine, edits);
  if (merge !== null) return { kind: 'restore', ...restore, merge };
  return { kind: 'conflict', location_id: now.id, name: now.name, reason: changedSince(edits, 'changed since', mine) };
}

/** The fields an operation kept of a location it updated (those it changed); null when it kept none. */
function keptFields(db: Db, operationId: string, locationId: string): LocationField[] | null {
  const before = keptBefore(db, operationId, locationId);
  return before === null ? null : fieldsOf(JSON.parse(before) as Record<string, unknown>);
}

/** The location fields a snapshot of an operation's row holds: the fields that operation changed. */
function fieldsOf(before: Record<string, unknown>): LocationField[] {
  return LOCATION_FIELDS.filter((field) => field in before);
}

/**
 * The fields of a location changed since an operation left it, and the revisions those changes account
 * for: each edit of it alone (its entry names the fields) and each later operation of its client that
 * changed it (its row keeps the fields it wrote and the revisions before and after). Null when a row
 * cannot say. Every change since is known only when the revisions add up to the location's (changedElsewhere):
 * a change over several clients, or one that kept no revision, leaves them short.
 */
function fieldsChangedSince(db: Db, edits: Edit[], at: { locationId: string; clientId: string; since: number }) {
  const fields = new Set<string>();
  let revisions = 0;
  for (const { changes } of edits) {
    if (changes === null) return null;
    for (const field of Object.keys(JSON.parse(changes) as object)) fields.add(field);
    revisions++;
  }
  for (const { before, left_revision } of laterOperationRows(db, at.locationId, at.clientId, at.since)) {
    const snapshot = before === null ? null : (JSON.parse(before) as Record<string, unknown>);
    if (snapshot === null || left_revision === null || typeof snapshot.revision !== 'number') return null;
    for (const field of fieldsOf(snapshot)) fields.add(field);
    revisions += left_revision - snapshot.revision;
  }
  return { fields, revisions };
}

/**
 * The operation's fields, when an updated location changed since the operation only in fields the
 * operation left alone: then the undo puts those fields back and keeps the later change (a bulk status
 * change undone after some of its locations got new labels), where it would otherwise leave the location
 * as a conflict. Null when it cannot.
 */
function mergeable(
  db: Db,
  { row, now, since }: { row: PlannedRow; now: Current; since: number },
  mine: LocationField[],
  edits: Edit[],
): LocationField[] | null {
  if (row.left_revision === null) return null;
  const later = fieldsChangedSince(db, edits, { locationId: row.location_id, clientId: now.client_id, since });
  if (later === null || later.revisions !== now.revision - row.left_revision) return null;
  return mine.length > 0 && mine.every((field) => !later.fields.has(field)) ? mine : null;
}

/** An edit of a location alone, in the trail: who, and its fields {from, to}. */
interface Edit {
  actor_name: string | null;
  actor_email: string | null;
  changes: string | null;
}

/** The location's own edits after the trail's place `since`, oldest first. */
function editsSince(db: Db, locationId: string, since: number): Edit[] {
  return statement<[string, number], Edit>(
    db,
    `SELECT actor_name, actor_email, changes FROM audit_entries
     WHERE location_id = ? AND action = 'location.updated' AND seq > ? ORDER BY seq`,
  ).all(locationId, since);
}

/** What the client's operations after the trail's place `since` kept of this location: by their rows' key. */
function laterOperationRows(db: Db, locationId: string, clientId: string, since: number) {
  return statement<[string, string, number], { before: string | null; left_revision: number | null }>(
    db,
    `SELECT before, left_revision FROM operation_rows
     WHERE location_id = ? AND operation_id IN (
       SELECT operation_id FROM audit_entries WHERE client_id = ? AND seq > ? AND operation_id IS NOT NULL)`,
  ).all(locationId, clientId, since);
}

/** The place in the trail of an operation's own entry (0 when it has none): later entries are in its order. */
function entrySeq(db: Db, operationId: string): number {
  return statement<[string], number>(db, 'SELECT coalesce(max(seq), 0) FROM audit_entries WHERE operation_id = ?')
    .pluck()
    .get(operationId)!;
}

/**
 * "changed since", with who changed what when the change was an edit of that location alone (its entry
 * names the fields): "changed since: maria@agency.example edited its phone and primary category". With the
 * operation's own fields (`mine`, an update's), the last edit that changed one of them is named: a later
 * edit of other fields is no conflict (a walk's undo of a phone's import named the coordinates
 * edited after the phone). A later import or bulk change keeps its values per operation, not per location:
 * the words stay plain then.
 */
function changedSince(edits: Edit[], words: string, mine: readonly string[] | null = null): string {
  const fieldsOfEdit = (edit: Edit) => (edit.changes === null ? [] : Object.keys(JSON.parse(edit.changes) as object));
  // With the operation's fields known and no edit of them (a later import changed them): the plain words.
  const edit =
    mine === null
      ? edits.at(-1)
      : edits.findLast((candidate) => fieldsOfEdit(candidate).some((field) => mine.includes(field)));
  if (edit === undefined || edit.changes === null) return words;
  const fields = fieldsOfEdit(edit).map(fieldInWords);
  if (fields.length === 0) return words;
  const who = edit.actor_email ?? edit.actor_name ?? 'someone';
  const list = fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)!}`;
  return `${words}: ${who} edited its ${list}`;
}

/** A location's store code after the undo, as a restore or a recreation writes it. */
interface CodeAfter {
  id: string;
  clientId: string;
  name: string;
  code: string | null;
}

/** The store code a step writes: undefined when the step leaves the code as it is. */
function codeAfter(step: Step): CodeAfter | undefined {
  if ((step.kind !== 'restore' && step.kind !== 'recreate') || step.code === undefined) return undefined;
  return { id: step.id, clientId: step.clientId, name: step.name, code: step.code };
}

/** Who holds each of these codes now, read once per client: client → code → location id. */
function holdersOf(db: Db, codes: CodeAfter[]): Map<string, Map<string, string>> {
  const byClient = new Map<string, string[]>();
  for (const { clientId, code } of codes) {
    if (code === null) continue;
    const wanted = byClient.get(clientId);
    if (wanted === undefined) byClient.set(clientId, [code]);
    else wanted.push(code);
  }
  const holders = new Map<string, Map<string, string>>();
  for (const [clientId, wanted] of byClient) holders.set(clientId, locationsByKey(db, clientId, 'store_code', wanted));
  return holders;
}

/**
 * A restore or recreation that would give a location a store code another location holds now, which the
 * undo neither removes nor gives another code, is a conflict: codes are unique within a client. (A swap
 * the operation made is undone whole: both codes move back.) A location left as a conflict keeps its code,
 * which may in turn be the one another step meant to give back: so again, until no step changes.
 */
function withCodeClashes(db: Db, steps: Step[]): Step[] {
  const codes = steps.map(codeAfter);
  const known = codes.filter((code) => code !== undefined);
  const removed = new Set(steps.flatMap((step) => (step.kind === 'remove' ? [step.id] : [])));
  const holders = holdersOf(db, known);
  let planned = steps;
  for (;;) {
    const after = new Map(
      planned.flatMap((step, at) => {
        const code = codes[at];
        return step.kind === 'conflict' || code === undefined ? [] : [[code.id, code.code] as const];
      }),
    );
    let changed = false;
    planned = planned.map((step, at) => {
      const code = codes[at];
      if (step.kind === 'conflict' || code === undefined || code.code === null) return step;
      const holder = holders.get(code.clientId)?.get(code.code);
      if (holder === undefined || holder === code.id || removed.has(holder)) return step;
      const holderCode = after.get(holder);
      if (holderCode !== undefined && holderCode !== code.code) return step;
      changed = true;
      // The holder's id goes in held_by, for a script and a link: the words name it as a person would.
      const reason = `its store code "${code.code}" is now used by ${locationName(db, holder)}`;
      return { kind: 'conflict', location_id: code.id, name: code.name, reason, held_by: holder };
    });
    if (!changed) return planned;
  }
}

/** Carries out the steps as the undo's own operation (`undoId`), so that the undo can be undone in turn. */
function applyUndo(
  db: Db,
  ids: UndoIds,
  steps: Step[],
  { now, rulesChanged }: { now: number; rulesChanged: boolean },
): void {
  const kinds = <K extends Step['kind']>(kind: K) =>
    steps.filter((step): step is Extract<Step, { kind: K }> => step.kind === kind);
  // Removals first, a piece at a time, each location kept whole as a delete keeps it (and counted off).
  deleteKeeping(
    db,
    ids.undoId,
    kinds('remove').map((step) => step.id),
  );
  // What each restored location is now is kept for the undo's own undo before anything is written back:
  // the codes let go below would otherwise be kept as none.
  const restores = kinds('restore');
  for (const step of restores) {
    if (step.merge) keepBeforeMerge(db, ids, step, step.merge);
    else keepNow(db, ids, step, rulesChanged);
  }
  // Then every store code being given back is let go before any is written, since the unique index
  // checks each write and an operation may have swapped two locations' codes.
  for (const code of restores.map(codeAfter)) if (code !== undefined) setStoreCode(db, code.id, null);
  const at = nowIso(now);
  for (const step of restores) {
    if (step.merge) applyMerge(db, ids.operationId, step, step.merge, now);
    else writeBack(db, ids.operationId, step, at);
  }
  const recreated = new Map<string, number>();
  for (const step of kinds('recreate')) {
    // The revision it comes back at (its kept one): the undo's own undo removes it only at that.
    rememberRow(db, ids.undoId, step.id, 'created', null, reinsertKept(db, ids.operationId, step.id, at));
    recreated.set(step.clientId, (recreated.get(step.clientId) ?? 0) + 1);
  }
  for (const [clientId, added] of recreated) addToLocationsCount(db, clientId, added);
}

/**
 * After an upgrade changed the rules (a rescore in the trail since the operation), what a restore or a
 * re-insert put back was derived under the older ones: the health and the match key are worked out again
 * from the fields put back. (A merge works them out anyway.)
 */
function deriveAgain(db: Db, organizationId: string, steps: Step[]): void {
  const ids = steps.flatMap((step) =>
    (step.kind === 'restore' && !step.merge) || step.kind === 'recreate' ? [step.id] : [],
  );
  for (const piece of piecesOf(inIdOrder(ids)))
    for (const location of storedLocations(db, organizationId, piece))
      setDerived(db, location.id, derived(location, location.client_id));
}

/**
 * A merge's first half, before any store code is let go: keeps the location's values now in the
 * operation's fields (its own columns, not its snapshot's JSON, in which SQLite writes a double with 15
 * digits), so that the merge can be undone in turn, by a merge too.
 */
function keepBeforeMerge(db: Db, ids: UndoIds, step: Extract<Step, { kind: 'restore' }>, fields: LocationField[]) {
  const [current] = locationsToUpdate(db, step.clientId, JSON.stringify([step.id]));
  rememberUpdated(db, ids.undoId, current!, fields);
}

/**
 * A merge: the operation's fields put back on the location as it is now, its other fields and their later
 * changes kept, health and match key worked out again, the revision one up (it moves on, unlike a restore's).
 */
function applyMerge(
  db: Db,
  operationId: string,
  step: { id: string; clientId: string },
  fields: LocationField[],
  now: number,
) {
  const before = JSON.parse(keptBefore(db, operationId, step.id)!) as Record<string, unknown>;
  // The merge writes every field back: read from the columns, a coordinate of 17 digits stays exact.
  const [current] = locationsToUpdate(db, step.clientId, JSON.stringify([step.id]));
  const back = fromColumns(
    Object.fromEntries(fields.map((field) => [field, before[field]])) as unknown as StoredColumns,
  );
  updateLocation(db, step.id, derived({ ...current!, ...back } as LocationValues, step.clientId), now);
}

/**
 * Reverts an operation (an import, a bulk edit or delete, an undo) in one transaction (issue 11 §2):
 * the locations it created are removed, those it changed get their values back, those it deleted come
 * back with their ids. A location changed again since is left as it is and listed as a conflict. The
 * undo is an operation of its own, in the trail, and can be undone.
 */
export function undoOperation(
  db: Db,
  request: { principal: Principal; operationId: string; dryRun: boolean; now: number },
): UndoResponse {
  const { principal, now } = request;
  const run = () => {
    const operation = statement<[string, string], Operation>(
      db,
      'SELECT id, client_id, kind, undone_by FROM operations WHERE id = ? AND organization_id = ?',
    ).get(request.operationId, principal.organizationId);
    if (operation === undefined) throw NotFound('No operation with this id');
    // A dry run lists the client's locations it would touch: a caller limited to another client is refused it too.
    authorizeWrite(
      db,
      principal,
      { ...NEEDS.import, ...(operation.client_id ? { clientId: operation.client_id } : {}) },
      now,
    );
    // A change over several clients (a bulk edit or delete of locations of more than one) names none: a caller
    // limited to one client may not undo it, since its undo would write to the others.
    if (operation.client_id === null && principal.clientId !== null) {
      throw Forbidden(
        'This change was made to locations of several clients: only a caller not limited to one client can undo it; nothing was changed',
      );
    }
    if (operation.undone_by !== null) throw Conflict(`This operation was undone already (by ${operation.undone_by})`);
    // The trail's place of the operation's own entry, read once: edits after it are "changed since" (changedSince).
    const since = new Since(db, principal.organizationId, operation.client_id, entrySeq(db, operation.id));
    const steps = planUndo(db, operation, since);
    const count = (kind: Step['kind']) => steps.filter((step) => step.kind === kind).length;
    const conflicts = steps.flatMap((step) => (step.kind === 'conflict' ? [step] : []));
    const answer = (id: string | null): UndoResponse => ({
      dry_run: request.dryRun,
      operation_id: id,
      removed: count('remove'),
      restored: count('restore'),
      recreated: count('recreate'),
      conflicts: conflicts.map(({ location_id, name, reason, held_by }) =>
        held_by === undefined ? { location_id, name, reason } : { location_id, name, reason, held_by },
      ),
    });
    // An undo that would change nothing writes nothing, not even its entry: marked undone, the operation
    // could never be undone once its conflicts are gone (the location that took a deleted one's code removed).
    if (request.dryRun || steps.length === conflicts.length) return answer(null);
    const undoId = startOperation(
      db,
      { organizationId: principal.organizationId, clientId: operation.client_id, kind: 'undo', undoes: operation.id },
      now,
    );
    const scope = { organizationId: principal.organizationId, clientId: operation.client_id };
    const rulesChanged = rulesChangedSince(db, scope, since.seq);
    applyUndo(db, { operationId: operation.id, undoId }, steps, { now, rulesChanged });
    if (rulesChanged) deriveAgain(db, principal.organizationId, steps);
    statement(db, 'UPDATE operations SET undone_by = ? WHERE id = ?').run(undoId, operation.id);
    const result = answer(undoId);
    const { removed, restored, recreated } = result;
    recordEntry(
      db,
      {
        organizationId: principal.organizationId,
        actor: actorOf(db, principal),
        action: 'operation.undone',
        target: { type: 'operation', id: operation.id, name: operation.kind },
        clientId: operation.client_id,
        summary: { removed, restored, recreated, conflicts: conflicts.length },
        operationId: undoId,
      },
      now,
    );
    return result;
  };
  return request.dryRun ? db.transaction(run)() : db.transaction(run).immediate();
}
