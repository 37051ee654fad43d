import { randomUUID } from 'node:crypto';
import type { Actor } from '../audit/queries.js';
import type { Db } from '../db/open.js';
import { clientName } from '../clients/queries.js';
import { DERIVED_COLUMNS, partialSnapshot } from './snapshots.js';
import { applyImportWrites, ImportWriteLog, NO_WRITES, type ImportWriteSink } from './import-writes.js';
import { codeKeptWords, StoreCodeMoves, type CodeChange } from './code-moves.js';
import { CodesWithoutZeros, lostItsZeros } from './codes-without-zeros.js';
import { FileKeys } from './file-keys.js';
import { SortedUuids } from '../db/uuid.js';
import type { ErrorDetail } from '../http/errors.js';
import {
  PhoneReadings,
  halfCoordinate,
  fieldValue,
  FieldError,
  LOCATION_FIELDS,
  phoneExtension,
  zipWithZeros,
  type LocationField,
  type LocationValues,
} from './fields.js';
import { healthOf } from './health.js';
import { HoursError, hoursByDay, refuseOverlaps } from './hours.js';
import { JsonBytes } from './json-bytes.js';
import type { TableFormat } from '../imports/table-body.js';
import { parseImportBody, type ImportBody, type Refusal, type RowSource } from './import-body.js';
import {
  clientOrganization,
  locationsCount,
  insertColumns,
  locationUpdate,
  locationsByKey,
  locationsToUpdate,
  mixedCaseCodes,
  type KeyKind,
  type LocationToUpdate,
} from './queries.js';
import { changesBetween, derived, emptyValues, matchKey, type LocationRow } from './record.js';
import { changedAfter } from './export-time.js';
import {
  firstRowProblem,
  normalizeRow,
  readableInput,
  refusedRowCode,
  rowError,
  type NormalizedRow,
  type RowInput,
  type RowKey,
} from './rows.js';
import { savedMappingToUse } from '../mappings/apply.js';
import { NO_PLACEHOLDERS } from '../imports/placeholders.js';
import {
  MAX_IMPORT_ROWS,
  type BlankCells,
  type Changes,
  type DroppedExtension,
  type DuplicateOf,
  type DuplicatePolicy,
  type ImportMode,
  type PreviewRow,
  type RowAction,
} from './schemas.js';

/** An import as the writer thread runs it: one request, one synchronous transaction, one answer. */
export interface ImportRequest {
  organizationId: string;
  /**
   * The raw body, whole or in the pieces it came in (read as one without being joined: body-bytes.ts):
   * parsed off the server's event loop.
   */
  body: Uint8Array | readonly Uint8Array[];
  dryRun: boolean;
  duplicates: DuplicatePolicy;
  mode: ImportMode;
  blanks: BlankCells;
  now: number;
  /** Called first inside the write transaction: throws when the caller lost the right meanwhile. */
  authorize?: (db: Db, clientId: string) => void;
  /** Who imports, for the audit trail (read inside the transaction); none writes no entry (tests of the rules). */
  actor?: (db: Db) => Actor;
  /** The file's name, when the dashboard sends it, for the trail. */
  fileName?: string | null;
  /** The body is a CSV or .xlsx file, not JSON rows (server/imports/table-body.ts). */
  format?: TableFormat;
  /** Set to 1 by the route when its client goes away: checked between pieces, it rolls the import back. */
  cancel?: Int32Array;
  /** 'none': the caller blanked the placeholders by its own list; the fields read none (README: "Location fields"). */
  placeholders?: 'default' | 'none';
  /** The saved mapping the rows were read with (?mapping=): checked for the client, marked used, in the transaction. */
  mappingId?: string;
  /** A JSON import's ?clientId=, when the URL gave one too: it must be the body's. */
  queryClientId?: string;
  /**
   * ?country= as an ISO code: the country of a location the import leaves without one (a sheet with no
   * Country column); its phones and postal codes are read by it (README: "Import modes").
   */
  country?: string;
}

/**
 * The import's answer (UploadResponse, or DryRunResponse) as UTF-8 JSON, in pieces for the route to send
 * one after the other; or the refusal.
 */
export type ImportOutcome = { statusCode: 200 | 201; bytes: Uint8Array[] } | Refusal;

/** The answer to an import whose client went away: nobody reads it, nothing was written. */
const GONE: Refusal = {
  statusCode: 400,
  message: 'The request was cancelled: its connection closed. Nothing was written.',
};

/**
 * The refusal of an import whose client went away (its connection closed: routes.ts cancelOnClose), or
 * null. The plan asks between pieces; the writer asks once more just before its COMMIT, since the last
 * pieces' writes come after the plan has ended.
 */
export function wentAway(request: { cancel?: Int32Array }): Refusal | null {
  return request.cancel !== undefined && Atomics.load(request.cancel, 0) === 1 ? GONE : null;
}

/** Thrown inside the transaction to roll it back with this answer. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** Rows decided a piece at a time: enough that SQLite's per-statement cost vanishes. */
const PIECE_ROWS = 1_000;
/** The first piece is smaller: the writer, which waits for it, starts sooner. */
const FIRST_PIECE_ROWS = 200;

type Key = RowKey;

/** What the import does with one valid row. */
/** A piece of rows being applied: the ids its new locations take, their columns and answer entries. */
interface AppliedPiece {
  newIds: string[];
  created: unknown[][];
  answered: string[];
}

interface Decision {
  row: NormalizedRow;
  action: RowAction;
  location: LocationToUpdate | undefined;
  result: LocationRow | undefined;
  changes: Changes | null;
  duplicateOf: DuplicateOf | null;
  skipReason: string | null;
  /** Set when the row carries a location id that is not the client's (README: "Import modes"). */
  note?: string;
  /** A dry run's stored location with the row's name and address, when its own key matched none (notePlacesTaken). */
  samePlaceAs?: string;
  /** A dry run's stored location that has the place id an update gives the row's location (notePlaceIdsTaken). */
  placeIdOf?: string;
  /** A dry run's stored location whose store code is the unmatched row's in other capitals (noteCodesInOtherCase). */
  codeCaseOf?: string;
  /** The row's store code, when it is the stored one but for the leading zeros Excel drops (lostItsZeros). */
  codeGiven?: string;
  /** A create-mode dry run's duplicate of a stored location: what updating that location would change. */
  wouldChange?: Changes | null;
  /** A created row whose store code is a location's that an earlier row gives another one (codeMovedAway). */
  freedFrom?: { holder: string; code: string };
  /** An update to a location changed after the row's updated_at (its export's time): when it was changed. */
  changedSince?: string;
}

/** The kinds of key, in the order a row is matched on them. */
const KEY_ORDER: readonly Key['kind'][] = ['id', 'store_code', 'google_place_id', 'name_and_address'];

/** The key kinds matched in SQL (locationsByKey), besides the id. */
const KEY_KINDS = KEY_ORDER.filter((kind): kind is KeyKind => kind !== 'id');
type KeyColumn = KeyKind;

/** How a key is named in a row's error, and the field the error is on. */
const KEY_WORDS: Record<KeyColumn, { words: string; field: string }> = {
  store_code: { words: 'store code', field: 'store_code' },
  google_place_id: { words: 'place id', field: 'google_place_id' },
  name_and_address: { words: 'name and address', field: 'name' },
};

/** A dry run's word on a row whose id names none of the client's locations (upsert and update). */
function foreignIdNote(id: string): string {
  return (
    `its id ${id} is not one of this client's locations (is the file another client's export?): ` +
    'the row was matched by its store code, place id or name and address instead'
  );
}

/**
 * Reads an import's body (JSON rows, or a CSV or .xlsx file): its client and its rows, or the refusal. No
 * database is read: the planner thread does it before the writer begins the import's transaction.
 */
export function readImport(request: ImportRequest): ImportBody | Refusal {
  const parsed = parseImportBody(request.body, request.format);
  if ('statusCode' in parsed) return parsed;
  if (request.queryClientId !== undefined && request.queryClientId !== parsed.clientId) {
    return {
      statusCode: 400,
      message: `The URL's ?clientId=${request.queryClientId} is not the body's clientId ${parsed.clientId}: name one client, in the body (or in both alike). Nothing was imported.`,
    };
  }
  return parsed;
}

/**
 * An import's plan (README: "Import rules"), all or nothing: rows are checked and normalized, matched
 * against the client's locations in SQL on indexed keys (store code, place id, folded name and address)
 * and against the file's earlier rows, then decided a piece at a time; each piece's writes go to
 * `writes` (import-writes.ts). Any invalid row makes the answer a 400 with every error, and its writes
 * are then never made (or rolled back). It only reads `db`, which the caller holds in one transaction:
 * the database as it was when the import began, whatever its writes (a dry run decides as the import).
 */
export function planImport(db: Db, request: ImportRequest, body: ImportBody, writes: ImportWriteSink): ImportOutcome {
  return importPlan(db, request, body, writes).run();
}

/**
 * The plan made, nothing read yet (its ids drawn, its tables sized): what the planner thread does while
 * the writer begins the import's transaction; run() reads and decides (planImport).
 */
export function importPlan(
  db: Db,
  request: ImportRequest,
  body: ImportBody,
  writes: ImportWriteSink,
): { run(): ImportOutcome } {
  const plan = new ImportPlan(db, request, body, writes);
  return {
    run() {
      try {
        return plan.run();
      } catch (error) {
        if (error instanceof Refused) return error.refusal;
        throw error;
      }
    },
  };
}

/**
 * The import on one connection, in one transaction: the plan, then its writes (kept until the plan is
 * done: the plan must not read them). The server runs its plan on a thread of its own beside the writer
 * (store/planned-import.ts); this is the same plan and the same writes, for a caller with one connection.
 */
export function importLocations(db: Db, request: ImportRequest): ImportOutcome {
  const body = readImport(request);
  if ('statusCode' in body) return body;
  const log = new ImportWriteLog();
  const run = () => {
    const outcome = planImport(db, request, body, request.dryRun ? NO_WRITES : log);
    if ('bytes' in outcome) applyImportWrites(db, log.writes);
    return outcome;
  };
  return request.dryRun ? db.transaction(run)() : db.transaction(run).immediate();
}

const UTF8 = new TextEncoder();

class ImportPlan {
  private readonly ids: SortedUuids;
  /** The file's earlier rows by each kind of key: each key's first row. */
  private readonly inFile: Record<Key['kind'], FileKeys> = {
    id: new FileKeys(),
    store_code: new FileKeys(),
    google_place_id: new FileKeys(),
    name_and_address: new FileKeys(),
  };
  /**
   * Every valid row's store code, with its row, whatever the import does with the row: two rows of one
   * file with one code are an error even when both would be skipped (the file is wrong either way), and
   * each message names the other row (its line from lineAt).
   */
  private readonly codeRows = new FileKeys();
  /**
   * Each row's line in the sheet (0: none said), by index: a row that repeats an earlier row's store code
   * (codeRows) or location id (inFile.id) names that row's line (4 bytes a row, no object a row).
   */
  private readonly lineAt: Int32Array;
  /**
   * Existing locations already matched by a row, with that row and the key it matched by: a second row
   * matching one is a duplicate of the first, or, naming it by its id after a row matched it otherwise, an
   * error of both (oneLocationTwoRows).
   */
  private readonly matched = new FileKeys();
  /**
   * The store code each matched location's row gives it (null: cleared), when the row gives one: a
   * later row may take the code the location had (codeMovedAway).
   */
  private readonly codesGiven = new Map<string, string | null>();
  /** Each location the file updates, with the store code its row leaves it: what a freed code is judged by. */
  private readonly finalCodes = new Map<string, string | null>();
  private readonly zeros = new CodesWithoutZeros();
  /** Locations a row matched by its store code without zeros, with that row: no other row takes them. */
  private readonly matchedWithoutZeros = new Map<string, number>();
  private readonly errors: ErrorDetail[] = [];
  /** Rows found invalid after they were decided: the first of two rows with one store code. */
  private readonly lateErrors = new Set<number>();
  /**
   * The rows found invalid (refused by normalizeRow, a repeat, a phone of two readings …): each is counted
   * once in badRows, however many errors name it (a review's file said "4 of 3 rows are not valid").
   */
  private readonly invalidRows = new Set<number>();
  /** Store codes the file moves from one location to another (a swap, a renumbering). */
  private readonly codeMoves = new StoreCodeMoves();
  private badRows = 0;
  /** The rows read: known once the last piece is (a sheet's lines are more). */
  private rowCount = 0;
  private hasExisting = false;
  private readonly totals = { created: 0, updated: 0, unchanged: 0, skipped: 0, duplicates: 0 };
  /** The import's operation in the audit trail: what its undo reads (null for a dry run). */
  private operationId: string | null = null;
  /** The created locations, as the answer's array entries in JSON (an import). */
  private readonly created = new JsonBytes();
  /** The answer's phone_extensions: the rows kept whose phone lost its extension, as JSON entries. */
  private readonly droppedExtensions: string[] = [];
  /** A dry run's rows, as the answer's array entries in JSON. */
  private readonly entries: string[] = [];
  /** A dry run's rows come in row order: the index of each entry. */
  private readonly entryRows: number[] = [];
  /** The piece's locations found by the ids its rows carry, read whole once (existingMatches). */
  private readonly readById = new Map<string, LocationToUpdate>();
  /** A dry run's stored codes in mixed capitals, by the code in small letters (noteCodesInOtherCase). */
  private mixedCodes: Map<string, string> | undefined;
  /** The words the fields read as blank: none for a file's rows, which its reader blanked by its list. */
  private readonly placeholders: ReadonlySet<string> | undefined;

  private readonly clientId: string;

  constructor(
    private readonly db: Db,
    private readonly request: ImportRequest,
    private readonly body: ImportBody,
    private readonly writes: ImportWriteSink,
  ) {
    this.clientId = body.clientId;
    // A sheet's lines may be more than its rows, which are at most MAX_IMPORT_ROWS (its reader counts them).
    const rows = Math.min(body.rows.length, MAX_IMPORT_ROWS);
    this.ids = new SortedUuids(Math.max(rows, 1), request.now);
    this.lineAt = new Int32Array(rows);
    const blanked = request.format !== undefined || request.placeholders === 'none';
    this.placeholders = blanked ? NO_PLACEHOLDERS : undefined;
  }

  run(): ImportOutcome {
    const { db, request, clientId } = this;
    const { rows } = this.body;
    if (clientOrganization(db, clientId) !== request.organizationId) {
      throw new Refused({ statusCode: 404, message: 'No client with this id' });
    }
    // A dry run reads the client's locations: a caller limited to another client is refused it too.
    request.authorize?.(db, clientId);
    // An import of no rows changes nothing and leaves nothing in the trail: no operation to undo either.
    if (!request.dryRun && rows.length > 0) {
      this.operationId = randomUUID();
      const operation = { organizationId: request.organizationId, clientId, kind: 'import' } as const;
      this.writes.write(['startOperation', operation, request.now, this.operationId]);
    }
    const mappingId = savedMappingToUse(db, request, clientId);
    if (mappingId !== undefined) this.writes.write(['markMappingUsed', mappingId, request.now]);
    this.hasExisting = locationsCount(db, clientId) > 0;
    this.rowCount = this.readPieces(rows);
    const refusal = rows.finish?.() ?? null;
    if (refusal !== null) throw new Refused(refusal);
    return this.answer();
  }

  /**
   * Reads, checks and decides the rows a piece at a time; answers how many there were. They are numbered
   * as they come: a sheet's piece of lines may hold fewer rows (an empty line, a note left out).
   */
  private readPieces(rows: RowSource): number {
    const { request } = this;
    let index = 0;
    for (let start = 0, end = 0; start < rows.length; start = end) {
      const gone = wentAway(request);
      if (gone !== null) throw new Refused(gone);
      end = Math.min(start + (start === 0 ? FIRST_PIECE_ROWS : PIECE_ROWS), rows.length);
      // Each piece of raw rows is let go once read: 100,000 rows never sit in memory at once.
      const raw = rows.piece(start, end);
      if (!Array.isArray(raw)) throw new Refused(raw);
      if (raw.length === 0) continue;
      const piece: NormalizedRow[] = [];
      for (const item of raw) {
        const row = normalizeRow(item, index, request.mode !== 'create', this.placeholders, request.country ?? null);
        if (Array.isArray(row)) this.refused(index, row, item);
        else piece.push(row);
        index++;
      }
      this.decidePiece(piece);
    }
    return index;
  }

  /** A row normalizeRow refused: a dry run shows it with the fields it could read, the others blank. */
  private refused(index: number, details: ErrorDetail[], raw: unknown): void {
    const readable = this.request.dryRun
      ? readableInput(raw, this.request.mode !== 'create', this.placeholders)
      : undefined;
    // Its name may be what was refused (blank): the preview's name stays text, as the schema has it.
    const values = readable && inputValues({ input: { ...readable, name: readable.name ?? undefined } });
    this.invalid(index, [...details, ...this.refusedRepeats(index, raw, details)], values);
  }

  /**
   * A refused row's store code counts for repeats as a valid row's does (a walk fixed the phone and the
   * hours the preview showed on two rows of one code, both then "Ready", and the import refused them): a
   * later row of the code is an error naming this one; an earlier one is named in this row's error.
   */
  private refusedRepeats(index: number, raw: unknown, details: ErrorDetail[]): ErrorDetail[] {
    const given = refusedRowCode(raw, this.placeholders);
    this.lineAt[index] = given.line ?? 0;
    const refusedIn = (field: string) => details.some((detail) => detail.field === field);
    const repeats: ErrorDetail[] = [];
    const repeat = (field: 'store_code' | 'id', value: string | null, rows: FileKeys, rule: string) => {
      if (value === null || refusedIn(field)) return;
      const earlier = rows.get(value);
      if (earlier === undefined) {
        rows.set(value, index);
        return;
      }
      repeats.push(this.repeatOf({ index, line: given.line }, field, value, earlier, rule));
    };
    repeat('store_code', given.code, this.codeRows, 'store codes are unique within a client');
    // In create mode an id is no key (a copied row is a duplicate, not an error).
    if (this.request.mode !== 'create') repeat('id', given.id, this.inFile.id, ID_RULE);
    return repeats;
  }

  /** A row that cannot be imported; a dry run shows it with the values it read, when it read them. */
  private invalid(index: number, details: ErrorDetail[], values = emptyValues('')): void {
    this.errors.push(...details);
    if (!this.invalidRows.has(index) && !this.lateErrors.has(index)) this.badRows++;
    this.invalidRows.add(index);
    if (this.request.dryRun) this.previewed(index, errorPreview(index, values));
  }

  private decidePiece(piece: NormalizedRow[]): void {
    const existing = this.existingMatches(piece);
    // The codes the piece's rows give the locations their ids name, known before any row is decided: a
    // row above the one that renumbers a location may take its old code (codeMovedAway). Create mode
    // updates nothing.
    if (this.request.mode !== 'create')
      for (const row of piece) if (row.id !== null && existing.id.has(row.id)) this.noteCodeGiven(row.id, row);
    const decisions: Decision[] = [];
    for (const row of piece) {
      const decision = this.decide(row, existing);
      if (decision === undefined) continue;
      if (this.request.mode !== 'create' && row.id !== null && !existing.id.has(row.id))
        decision.note = foreignIdNote(row.id);
      decisions.push(decision);
    }
    this.completeUpdates(decisions);
    this.settleFreedCodes(decisions);
    if (this.request.dryRun && this.hasExisting) this.noteForPreview(decisions);
    this.codeMoves.note(this.db, this.clientId, codeChanges(decisions));
    this.apply(decisions);
    this.writes.endPiece();
  }

  /**
   * The keys a row is matched on, in order. In create mode every key finds duplicates. In upsert and
   * update: the location id an export wrote, when it names a location of the client, then the row's
   * key: its store code, else its place id, else its name and address (README: "Import modes").
   */
  private keysOf(row: NormalizedRow): Key[] {
    const keys = rowKeys(row);
    if (this.request.mode === 'create') return keys;
    return row.id === null ? keys.slice(0, 1) : keys.slice(0, 2);
  }

  /** The client's existing locations this piece's keys name, found in SQL on the indexed columns. */
  private existingMatches(piece: NormalizedRow[]): Record<Key['kind'], Map<string, string>> {
    const found = { id: new Map(), store_code: new Map(), google_place_id: new Map(), name_and_address: new Map() };
    if (!this.hasExisting) return found;
    const ids = piece.flatMap((row) => (row.id === null ? [] : [row.id]));
    this.readById.clear();
    if (ids.length > 0) {
      for (const location of locationsToUpdate(this.db, this.clientId, JSON.stringify(ids))) {
        this.readById.set(location.id, location);
        found.id.set(location.id, location.id);
      }
    }
    // A row whose id names a location is decided by it (the id is its first key): its other keys are
    // not looked up.
    const wanted: Record<Key['kind'], string[]> = { id: [], store_code: [], google_place_id: [], name_and_address: [] };
    for (const row of piece) {
      if (row.id !== null && found.id.has(row.id)) continue;
      for (const key of this.keysOf(row)) if (key.kind !== 'id') wanted[key.kind].push(key.value);
    }
    for (const kind of KEY_KINDS) {
      if (wanted[kind].length > 0) found[kind] = locationsByKey(this.db, this.clientId, kind, wanted[kind]);
    }
    // A store code of digits that names no location may be one Excel stripped of its leading zeros.
    this.zeros.lookUp(this.db, this.clientId, wanted.store_code, found.store_code, this.operationId);
    return found;
  }

  /**
   * In upsert and update a row is matched by its store code, else its place id, else its name and
   * address. A row whose first key matched nothing may still have the place id or the name and address
   * of a stored location (its code changed in the sheet or in the app): a dry run names that location,
   * as upsert would add a second one there (a new user's walk did so unawares). A query a key kind.
   */
  private notePlacesTaken(unmatched: Decision[]): void {
    const wanted = new Map<Decision, Key[]>();
    for (const decision of unmatched) {
      const [, ...others] = rowKeys(decision.row).filter((key) => key.kind !== 'id');
      if (others.length > 0) wanted.set(decision, others);
    }
    const found: Partial<Record<Key['kind'], Map<string, string>>> = {};
    // A store code is always a row's first key: only the place id and the name and address come after it.
    for (const kind of ['google_place_id', 'name_and_address'] as const) {
      const values = [...wanted.values()].flatMap((keys) => keys.filter((key) => key.kind === kind));
      if (values.length === 0) continue;
      found[kind] = locationsByKey(this.db, this.clientId, kind, [...new Set(values.map((key) => key.value))]);
    }
    for (const [decision, keys] of wanted) {
      decision.samePlaceAs = keys.map((key) => found[key.kind]?.get(key.value)).find((id) => id !== undefined);
    }
  }

  /**
   * A row whose store code matched nothing while a stored location has it in other capitals ("sea-001"
   * for SEA-001: a new user's walk made a second shop so). Store codes match exactly, as Google's do; the
   * dry run names the location, found by the code all in capitals or all in small letters on its index,
   * else among the client's codes in mixed capitals (Sea-003 for SEA-003), read once.
   */
  private noteCodesInOtherCase(decisions: Decision[]): void {
    const variants = (code: string) => [code.toUpperCase(), code.toLowerCase()].filter((each) => each !== code);
    const coded = decisions.filter((decision) => decision.row.input.store_code != null);
    const wanted = [...new Set(coded.flatMap((decision) => variants(decision.row.input.store_code!)))];
    if (wanted.length === 0) return;
    const holders = locationsByKey(this.db, this.clientId, 'store_code', wanted);
    // A stored code in mixed capitals (Sea-003 for the row's SEA-003): from the few the client has.
    const mixed = (this.mixedCodes ??= mixedCaseCodes(this.db, this.clientId));
    for (const decision of coded) {
      const code = decision.row.input.store_code!;
      const holder = variants(code)
        .map((each) => holders.get(each))
        .find((id) => id !== undefined);
      decision.codeCaseOf = holder ?? mixed.get(code.toLowerCase());
    }
  }

  /**
   * An update that gives its location the place id another stored location has (a probe's row, matched by
   * its store code, took a second shop's place id without a word; create mode would call it a duplicate):
   * the dry run names that location, and the preview warns that the two would share one Google place.
   */
  private notePlaceIdsTaken(decisions: Decision[]): void {
    const giving = decisions.filter((decision) => typeof decision.changes?.google_place_id?.to === 'string');
    if (giving.length === 0) return;
    const placeOf = (decision: Decision) => decision.changes!.google_place_id!.to as string;
    const holders = locationsByKey(this.db, this.clientId, 'google_place_id', [...new Set(giving.map(placeOf))]);
    for (const decision of giving) {
      const holder = holders.get(placeOf(decision));
      if (holder !== undefined && holder !== decision.location?.id) decision.placeIdOf = holder;
    }
  }

  /** What to do with a valid row; undefined when it is an error after all (a repeated store code). */
  private decide(row: NormalizedRow, existing: Record<Key['kind'], Map<string, string>>): Decision | undefined {
    const keys = this.keysOf(row);
    this.lineAt[row.index] = row.line ?? 0;
    if (this.repeatedCode(row)) return;
    let freed: Decision['freedFrom'];
    for (const key of keys) {
      const seen = this.inFile[key.kind].get(key.value);
      // A row copied to add a location, its id kept, would be taken for the first and skipped (found by
      // a probe): in upsert and update, one id on two rows is an error of both.
      if (seen !== undefined && key.kind === 'id' && this.request.mode !== 'create') {
        this.repeated(row, 'id', key.value, seen, ID_RULE);
        return;
      }
      if (seen !== undefined) return this.duplicate(row, { reason: key.kind, row: seen });
      const ambiguity = key.kind === 'store_code' ? this.zeros.ambiguity(key.value) : undefined;
      if (ambiguity !== undefined) {
        this.invalid(row.index, [rowError(row.index, 'store_code', ambiguity, row.line)], inputValues(row));
        return;
      }
      const id = existing[key.kind].get(key.value);
      if (id === undefined) continue;
      if (!this.codeMovedAway(key, id)) return this.matchedExisting(row, key, id);
      freed = { holder: id, code: key.value };
    }
    return this.unmatched(row, freed);
  }

  /** A row that matches no location of the client: created, or skipped in update mode. */
  private unmatched(row: NormalizedRow, freed: Decision['freedFrom']): Decision {
    this.remember(row, rowKeys(row));
    if (this.request.mode === 'update') return this.skip(row, null, 'No location of the client matches its key');
    return {
      row,
      action: 'created',
      location: undefined,
      result: undefined,
      changes: null,
      duplicateOf: null,
      skipReason: null,
      ...(freed && { freedFrom: freed }),
    };
  }

  /**
   * The code a row gives the location its id names, as the import will write it: a blank cell clears it
   * only under blanks=clear (else the location keeps its code, and no row may take it).
   */
  private noteCodeGiven(id: string, row: NormalizedRow): void {
    const given = row.input.store_code;
    if (given === undefined || (given === null && this.request.blanks !== 'clear')) return;
    this.codesGiven.set(id, given);
  }

  /**
   * After a piece's updates are worked out: each created row that took a code an earlier row's location
   * was to give up is checked against the code that location is really left with. One left with it (its
   * row a duplicate after all, or the code kept) makes the row an error, where SQLite's unique index would
   * have refused the insert (the review's find: a 500). A code read without Excel's zeros is taken as stored.
   */
  private settleFreedCodes(decisions: Decision[]): void {
    // Kept for the locations whose code the file changes (the database's says the rest, in both runs) and
    // for those whose code a row may take (codesGiven): not 100,000 entries for an upsert that changes no code.
    for (const { action, location, result } of decisions) {
      if (location === undefined || result === undefined || (action !== 'updated' && action !== 'unchanged')) continue;
      if (result.store_code === location.store_code && !this.codesGiven.has(location.id)) continue;
      this.finalCodes.set(location.id, result.store_code);
      this.zeros.noteFileCode(location.id, result.store_code);
    }
    for (const decision of decisions) {
      if (decision.action !== 'created' || decision.freedFrom === undefined) continue;
      const { holder, code } = decision.freedFrom;
      const stored = this.zeros.storedCode(code) ?? code;
      const final = this.finalCodes.get(holder);
      if (final !== undefined && final !== stored) {
        decision.result!.store_code = stored;
        continue;
      }
      decision.action = 'error';
      const message = codeKeptWords(this.db, code, holder);
      this.invalid(
        decision.row.index,
        [rowError(decision.row.index, 'store_code', message, decision.row.line)],
        inputValues(decision.row),
      );
    }
  }

  /**
   * Whether the row repeats an earlier row's store code (remembered otherwise, whatever becomes of the row).
   */
  private repeatedCode(row: NormalizedRow): boolean {
    const code = row.input.store_code;
    if (code == null) return false;
    const earlier = this.codeRows.get(code);
    if (earlier === undefined) {
      this.codeRows.set(code, row.index);
      return false;
    }
    this.repeated(row, 'store_code', code, earlier, 'store codes are unique within a client');
    return true;
  }

  /** Both rows are errors, each naming the other; the earlier one late (it was decided already). */
  private repeated(row: NormalizedRow, field: 'store_code' | 'id', value: string, earlier: number, rule: string): void {
    this.invalid(row.index, [this.repeatOf(row, field, value, earlier, rule)], inputValues(row));
  }

  /**
   * A row's store code or id repeating the earlier row's: the earlier row's error, late (it was decided
   * already), and this row's error, returned; each names the other's line.
   */
  private repeatOf(
    row: { index: number; line: number | undefined },
    field: 'store_code' | 'id',
    value: string,
    earlier: number,
    rule: string,
  ): ErrorDetail {
    const line = this.lineAt[earlier] || undefined;
    const words = (where: string) =>
      `the ${field === 'id' ? 'location id' : 'store code'} "${value}" is also on ${where}; ${rule}`;
    this.lateError(earlier, line, words(rowWords(row.index, row.line)), field);
    return rowError(row.index, field, words(rowWords(earlier, line)), row.line);
  }

  /**
   * A store code's or an id's error of a row decided already: it counts as invalid once, and a dry run
   * shows it so (showLateErrors).
   */
  private lateError(index: number, line: number | undefined, message: string, field = 'store_code'): void {
    this.errors.push(rowError(index, field, message, line));
    // A row invalid already is counted once, and shown as the error it is.
    if (this.lateErrors.has(index) || this.invalidRows.has(index)) return;
    this.lateErrors.add(index);
    this.badRows++;
  }

  /** The row's folded name and address (null without an address), from its keys. */
  private matchKeyOf(row: NormalizedRow): string | null {
    // A loop, not find() with an arrow: asked once for each created row, and an arrow is made at each ask.
    for (const key of rowKeys(row)) if (key.kind === 'name_and_address') return key.value;
    return null;
  }

  private remember(row: NormalizedRow, keys: Key[]): void {
    for (const key of keys) this.inFile[key.kind].add(key.value, row.index);
  }

  /** In create mode a row matching a location is its duplicate; a store code kept is an error (mode=upsert updates). */
  private duplicateOfExisting(row: NormalizedRow, key: Key, id: string): Decision | undefined {
    if (key.kind === 'store_code' && this.request.duplicates === 'keep') {
      const used = this.zeros.matched(key.value, id)
        ? `is location ${id}'s ${this.zeros.storedCode(key.value)} without its zeros (Excel drops them)`
        : `is already used by location ${id}`;
      const message = `the store code "${key.value}" ${used}: import with mode=upsert to update it`;
      this.invalid(row.index, [rowError(row.index, 'store_code', message, row.line)], inputValues(row));
      return undefined;
    }
    return this.duplicate(row, { reason: key.kind, location_id: id });
  }

  /** The row that matched the location already, and the kind of key it matched by. */
  private matchedRow(id: string): { row?: number; kind?: Key['kind'] } {
    const found = this.matched.get(id);
    if (found === undefined) return {};
    return { row: Math.floor(found / KEY_ORDER.length), kind: KEY_ORDER[found % KEY_ORDER.length] };
  }

  private matchedExisting(row: NormalizedRow, key: Key, id: string): Decision | undefined {
    if (this.request.mode === 'create') return this.duplicateOfExisting(row, key, id);
    const withoutZeros = key.kind === 'store_code' && this.zeros.matched(key.value, id);
    const { row: earlier, kind: earlierKind } = this.matchedRow(id);
    if (earlier !== undefined && (withoutZeros || this.matchedWithoutZeros.has(id))) {
      // 123 read as the stored 0123, and a row of 0123 itself: which row is the location's is not known.
      const rule =
        'a code of digits without its zeros is read as the stored one (Excel drops them): give each row its code as stored';
      this.repeated(row, 'store_code', this.zeros.storedCode(key.value) ?? key.value, earlier, rule);
      return undefined;
    }
    if (earlier !== undefined && key.kind === 'id' && earlierKind !== 'id') {
      this.oneLocationTwoRows(row, earlier, id, earlierKind!);
      return undefined;
    }
    if (earlier !== undefined) return this.duplicate(row, { reason: key.kind, row: earlier });
    if (withoutZeros) this.matchedWithoutZeros.set(id, row.index);
    // A number, not an object, for each: an upsert matches 100,000 (its row, and its key kind's place).
    this.matched.set(id, row.index * KEY_ORDER.length + KEY_ORDER.indexOf(key.kind));
    this.noteCodeGiven(id, row);
    this.remember(row, rowKeys(row));
    // The stored location is read for the piece at once (completeUpdates).
    return {
      row,
      action: 'updated',
      location: { id } as LocationToUpdate,
      result: undefined,
      changes: null,
      duplicateOf: null,
      skipReason: null,
    };
  }

  /**
   * Whether an earlier row of the file, matched to the location holding this store code, gives that
   * location another code (or clears it): the code is then free in the file's end state, and names no
   * location (a probe found such a row skipped as a duplicate of the earlier one).
   */
  private codeMovedAway(key: Key, id: string): boolean {
    const given = this.codesGiven.get(id);
    if (key.kind !== 'store_code' || given === undefined) return false;
    const stored = this.zeros.storedCode(key.value) ?? key.value;
    // 123 for the stored 0123 keeps it (Excel's zeros): the location keeps its code.
    return given !== stored && !lostItsZeros(given, stored);
  }

  /**
   * A row naming a location by its id that an earlier row matched by its store code, place id or name and
   * address: which row is the location's is not known, and the earlier one would be written over it, the
   * other skipped (the review's find, across the 1,000-row pieces). Both rows are errors, each naming the other.
   */
  private oneLocationTwoRows(row: NormalizedRow, earlier: number, id: string, kind: KeyColumn): void {
    const { words, field } = KEY_WORDS[kind];
    const line = this.lineAt[earlier] || undefined;
    this.lateError(
      earlier,
      line,
      `its ${words} names location ${id}, which ${rowWords(row.index, row.line)} names by its id: one location is one row (is one of them a new location?)`,
      field,
    );
    const message = `location ${id} is also the one ${rowWords(earlier, line)} names by its ${words}: one location is one row (is one of them a new location?)`;
    this.invalid(row.index, [rowError(row.index, 'id', message, row.line)], inputValues(row));
  }

  private duplicate(row: NormalizedRow, of: DuplicateOf): Decision {
    this.totals.duplicates++;
    if (this.request.mode === 'create' && this.request.duplicates === 'keep') {
      this.remember(row, rowKeys(row));
      return {
        row,
        action: 'created',
        location: undefined,
        result: undefined,
        changes: null,
        duplicateOf: of,
        skipReason: null,
      };
    }
    return this.skip(row, of, null);
  }

  private skip(row: NormalizedRow, of: DuplicateOf | null, reason: string | null): Decision {
    return {
      row,
      action: 'skipped',
      location: undefined,
      result: undefined,
      changes: null,
      duplicateOf: of,
      skipReason: reason,
    };
  }

  /** What a dry run says of rows beside their action, where the client has locations already. */
  private noteForPreview(decisions: Decision[]): void {
    if (this.request.mode === 'create') return this.noteWouldChange(decisions);
    const unmatched = decisions.filter(isUnmatched);
    this.notePlacesTaken(unmatched);
    this.notePlaceIdsTaken(decisions);
    // A row already named by its place is not named twice.
    this.noteCodesInOtherCase(unmatched.filter((decision) => decision.samePlaceAs === undefined));
  }

  /**
   * A create-mode dry run: what updating the stored location each skipped duplicate repeats would change,
   * so that the preview can say the file differs there ("Add new locations only" left a walk's changed
   * phone behind without a word). One statement reads the piece's locations; the import itself reads none.
   */
  private noteWouldChange(decisions: Decision[]): void {
    const skipped = decisions.filter((decision) => decision.action === 'skipped' && decision.duplicateOf?.location_id);
    if (skipped.length === 0) return;
    const ids = JSON.stringify(skipped.map((decision) => decision.duplicateOf!.location_id));
    const stored = new Map(locationsToUpdate(this.db, this.clientId, ids).map((location) => [location.id, location]));
    for (const decision of skipped) {
      const location = stored.get(decision.duplicateOf!.location_id!);
      if (location !== undefined)
        decision.wouldChange = changesBetween(location, this.mergedValues({ ...decision, location }));
    }
  }

  /** Reads the matched locations of the piece in one statement, and works out each update. */
  private completeUpdates(decisions: Decision[]): void {
    const updates = decisions.filter((decision) => decision.action === 'updated');
    const unread = updates.filter((decision) => !this.readById.has(decision.location!.id));
    if (unread.length > 0) {
      const ids = JSON.stringify(unread.map((decision) => decision.location!.id));
      for (const location of locationsToUpdate(this.db, this.clientId, ids)) this.readById.set(location.id, location);
    }
    for (const decision of updates) decision.location = this.readById.get(decision.location!.id)!;
    for (const decision of decisions) {
      // A skipped row is shown in the dry run as it would have been created.
      if (decision.action === 'skipped' && !this.request.dryRun) continue;
      const values = this.valuesOf(decision);
      if (values === undefined) continue;
      const { location } = decision;
      if (location === undefined) {
        // A new location's name and address are its row's: its match key is the row's, worked out already.
        decision.result = derived(values, this.clientId, this.matchKeyOf(decision.row));
        continue;
      }
      decision.changes = changesBetween(location, values);
      if (decision.changes === null) {
        decision.action = 'unchanged';
        decision.result = withStoredDerived(values, location);
        continue;
      }
      decision.result = derived(values, this.clientId);
      if (decision.row.seen !== null && changedAfter(location.changed_at, decision.row.seen))
        decision.changedSince = location.changed_at;
    }
  }

  /**
   * The values the row leaves the location with; undefined (and an error) when they cannot stand: the week
   * its days and the kept ones make overlaps, its phone cannot be read, or one coordinate of a pair is left.
   * A skipped row's values stand whatever they hold: it is shown, not written.
   */
  private valuesOf(decision: Decision): LocationValues | undefined {
    const { row } = decision;
    const values = this.mergedValues(decision);
    const overlap = overlapOfKeptDays(row.input, values);
    // Its own statement, not inside the `??` below: readPhone also writes values.phone (and the extension).
    const phone = this.readPhone(decision, values);
    const problem = overlap ?? phone ?? halfCoordinate(row.input, values);
    if (!problem || decision.action === 'skipped') return values;
    decision.action = 'error';
    this.invalid(row.index, [rowError(row.index, problem.field, problem.message, row.line)], values);
    return undefined;
  }

  /** Reads the row's phone by the country the location is left with, into values.phone; what is wrong, if anything. */
  private readPhone(decision: Decision, values: LocationValues): RowProblem | undefined {
    const { row, location } = decision;
    if (row.phoneText === null) return undefined;
    try {
      values.phone = fieldValue('phone', row.phoneText, values.country, this.placeholders) as string;
      // Read by the location's country (or ?country=): its extension too, which the dry run names.
      row.phoneExtension ??= phoneExtension(row.phoneText, values.country);
      return undefined;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      // A phone Excel left readable two ways is the one the location has, when it has one of them.
      if (error instanceof PhoneReadings && error.readings.includes(location?.phone ?? '')) return undefined;
      return { field: 'phone', message: error.message };
    }
  }

  /** The row's values over the location's (or a new one's), by the blank-cell rule and ?country=. */
  private mergedValues(decision: Decision): LocationValues {
    const { row, location } = decision;
    const clear = location === undefined || this.request.blanks === 'clear';
    const values = withInput(location === undefined ? emptyValues(row.input.name!) : { ...location }, row.input, clear);
    if (values.country === null && this.request.country !== undefined) values.country = this.request.country;
    // A row without a country: its postal code's dropped zeros by the country the location keeps (a
    // walk's "2116" was padded by ?country=US on a location that stayed in Canada).
    if (row.input.country == null && typeof row.input.zip === 'string' && values.country !== null)
      values.zip = zipWithZeros(row.input.zip, values.country, values.state);
    // Closed no, Status nothing (a Yext export): closed for good opens; a temporary closure stays.
    if (row.notClosedForGood && values.status === 'permanently_closed') values.status = 'open';
    if (location !== undefined) keepWhatExcelChanged(decision, values, location);
    return values;
  }

  /** Writes the piece (unless the import is already refused, or a dry run) and adds it to the answer. */
  private apply(decisions: Decision[]): void {
    const write = !this.request.dryRun && this.badRows === 0;
    const live = decisions.filter((decision) => decision.action !== 'error');
    if (write) this.rememberUpdates(live);
    const newIds = this.ids.take(live.filter((decision) => decision.action === 'created').length);
    // The piece's new rows, and their entries of the answer, written at once (one write a piece, not a row).
    const piece: AppliedPiece = { newIds, created: [], answered: [] };
    for (const decision of live) this.applyDecision(decision, piece, write);
    const { created, answered } = piece;
    if (write && created.length > 0)
      this.writes.write(['insertLocations', this.clientId, created, this.request.now, this.operationId]);
    if (answered.length > 0)
      this.created.write(`${this.totals.created > answered.length ? ',' : ''}${answered.join(',')}`);
  }

  /** Counts one row's decision, and writes or previews it. */
  private applyDecision(decision: Decision, piece: AppliedPiece, write: boolean): void {
    this.totals[decision.action as keyof ImportPlan['totals']]++;
    let id = decision.location?.id ?? null;
    if (decision.action === 'created') {
      id = piece.newIds[piece.created.length]!;
      piece.created.push(insertColumns(id, decision.result!));
      if (!this.request.dryRun) piece.answered.push(createdEntry(id, decision.result!));
    } else if (decision.action === 'updated' && write) {
      this.update(id!, decision);
    }
    // A row the import would create matches no location yet: its id is only made when it is written.
    if (this.request.dryRun)
      this.previewed(decision.row.index, preview(decision, decision.action === 'created' ? null : id));
    else this.noteExtension(decision);
  }

  /** A row kept (created, updated or unchanged) whose phone carried an extension: the 201 names it. */
  private noteExtension({ action, row }: Decision): void {
    if (row.phoneExtension === null || action === 'skipped') return;
    const { index, line, phoneExtension: extension } = row;
    const entry: DroppedExtension = line === undefined ? { row: index, extension } : { row: index, line, extension };
    this.droppedExtensions.push(JSON.stringify(entry));
  }

  /** Writes an update; a store code the file moves from another location is written at the end (code-moves.ts). */
  private update(id: string, decision: Decision): void {
    const row = this.codeMoves.waits(id) ? { ...decision.result!, store_code: null } : decision.result!;
    // The statement is chosen by which key columns change from the stored ones (queries.ts, KEY_GROUPS).
    const [changed, values] = locationUpdate(row, decision.location!);
    this.writes.write(['updateColumns', id, changed, values, this.request.now]);
  }

  /** What an undo needs of the locations this piece updates: their values before. */
  private rememberUpdates(decisions: Decision[]): void {
    for (const { action, location, changes, result } of decisions) {
      if (action !== 'updated') continue;
      // The revision too: an undo puts it back, so that an earlier operation can then be undone.
      const written = [...Object.keys(changes!), 'revision'];
      // The derived columns only when the change moves them: most re-imports change a field or two.
      for (const column of DERIVED_COLUMNS) if (result![column] !== location![column]) written.push(column);
      const before = partialSnapshot(location!.id, location!, written);
      // Each is updated once in this piece: its revision goes one up.
      this.writes.write(['rememberRow', this.operationId!, location!.id, 'updated', before, location!.revision + 1]);
    }
  }

  /**
   * The import's one entry in the audit trail, in its own transaction. An import of no rows changed
   * nothing and read no file worth naming: it leaves no entry (a script syncing an empty list every hour
   * would fill the history with them). An import that created and updated nothing keeps its entry (the
   * file was read) but no operation: there is nothing to undo, and its answer's operation_id is null.
   */
  private recordImport(): void {
    const { request, db, clientId, totals } = this;
    const { created, updated, unchanged, skipped } = totals;
    if (created + updated === 0 && this.operationId !== null) {
      this.writes.write(['dropOperation', this.operationId]);
      this.operationId = null;
    }
    if (request.actor === undefined || this.rowCount === 0) return;
    this.writes.write([
      'recordEntry',
      {
        organizationId: request.organizationId,
        actor: request.actor(db),
        action: 'locations.imported',
        target: { type: 'client', id: clientId, name: clientName(db, clientId) },
        clientId,
        // The mode and blank-cell rule: the dashboard starts the client's next import with them (last-choice.ts).
        summary: {
          mode: request.mode,
          blanks: request.blanks,
          file_name: request.fileName ?? null,
          created,
          updated,
          unchanged,
          skipped,
        },
        operationId: this.operationId,
      },
      request.now,
    ]);
  }

  private previewed(index: number, row: PreviewRow): void {
    this.entries.push(JSON.stringify(row));
    this.entryRows.push(index);
  }

  /** A dry run's rows found invalid after they were decided (lateErrors): shown as errors, out of their totals. */
  private showLateErrors(): void {
    if (this.lateErrors.size === 0) return;
    for (let at = 0; at < this.entries.length; at++) {
      if (!this.lateErrors.has(this.entryRows[at]!)) continue;
      const row = JSON.parse(this.entries[at]!) as PreviewRow;
      if (row.action === 'error') continue;
      this.totals[row.action as keyof ImportPlan['totals']]--;
      if (row.duplicate_of !== null) this.totals.duplicates--;
      const shown = {
        ...row,
        action: 'error',
        location_id: null,
        changes: null,
        duplicate_of: null,
        skip_reason: null,
      };
      this.entries[at] = JSON.stringify(shown);
    }
  }

  /** A dry run's rows in row order (an invalid row is listed as it is read, the others a piece later). */
  private previewJson(): string {
    const order = this.entryRows.map((_, at) => at).sort((a, b) => this.entryRows[a]! - this.entryRows[b]!);
    return order.map((at) => this.entries[at]).join(',');
  }

  /** The answer's last members: a CSV or .xlsx upload's `columns` and `left_out`, then its closing brace. */
  private end(): string {
    return this.body.answerMembers === undefined ? '}' : `,${this.body.answerMembers()}}`;
  }

  private answer(): ImportOutcome {
    for (const move of this.codeMoves.blocked(this.db)) this.lateError(move.index, move.line, move.message);
    if (this.request.dryRun) this.showLateErrors();
    const { created, updated, unchanged, skipped, duplicates } = this.totals;
    if (this.request.dryRun) {
      const totals = { created, updated, unchanged, skipped, errors: this.badRows };
      // DryRunResponse, in its order.
      const head = `{"dry_run":true,"valid":${this.badRows === 0},"count":${this.badRows === 0 ? created : 0},"duplicates":${duplicates},"totals":${JSON.stringify(totals)},"rows":[`;
      const errors = JSON.stringify(this.errors.sort((a, b) => a.row! - b.row!));
      return { statusCode: 200, bytes: [UTF8.encode(`${head}${this.previewJson()}],"errors":${errors}${this.end()}`)] };
    }
    if (this.badRows > 0) {
      const details = this.errors.sort((a, b) => a.row! - b.row!);
      const count = `${this.badRows} of ${this.rowCount} rows ${this.badRows === 1 ? 'is' : 'are'} not valid`;
      throw new Refused({
        statusCode: 400,
        message: `${count}; nothing was imported. ${firstRowProblem(details[0]!)}`,
        details,
      });
    }
    this.codeMoves.write(this.writes);
    if (created !== 0) this.writes.write(['addToLocationsCount', this.clientId, created]);
    this.recordImport();
    // UploadResponse, in its order.
    const head = `{"success":true,"count":${created},"locations":[`;
    const tail = `],"created":${created},"updated":${updated},"unchanged":${unchanged},"skipped":${skipped},"phone_extensions":[${this.droppedExtensions.join(',')}],"operation_id":${JSON.stringify(this.operationId)}${this.end()}`;
    return { statusCode: 201, bytes: [UTF8.encode(head), ...this.created.finish(), UTF8.encode(tail)] };
  }
}

/** In upsert and update: a row that matched no location (created, or skipped by update), and no other row. */
function isUnmatched(decision: Decision): boolean {
  const unmatched = decision.action === 'created' || (decision.action === 'skipped' && decision.skipReason !== null);
  return unmatched && decision.duplicateOf === null;
}

/** A location id's key: it matches only the location of that id, which a created row is not. */
const isIdKey = (key: Key) => key.kind === 'id';

/** The row's keys (keysOfRow), worked out once a row: the import asks for them three times. */
const rowKeys = (row: NormalizedRow): Key[] => (row.keys ??= keysOfRow(row));

/** A row's keys, in the order they are matched on: its location id, store code, place id, name and address. */
function keysOfRow({ id, input }: NormalizedRow): Key[] {
  const keys: Key[] = [];
  if (id !== null) keys.push({ kind: 'id', value: id });
  if (input.store_code != null) keys.push({ kind: 'store_code', value: input.store_code });
  if (input.google_place_id != null) keys.push({ kind: 'google_place_id', value: input.google_place_id });
  const key = input.name != null && input.address != null ? matchKey(input.name, input.address) : null;
  if (key !== null) keys.push({ kind: 'name_and_address', value: key });
  return keys;
}

/** A created location in the answer: {id, name, city, state}, the spec's entry, as JSON (no object made for it). */
function createdEntry(id: string, { name, city, state }: LocationRow): string {
  // JSON.stringify(null) is "null": a missing city or state needs no case of its own.
  return `{"id":"${id}","name":${JSON.stringify(name)},"city":${JSON.stringify(city)},"state":${JSON.stringify(state)}}`;
}

/** The updates of a piece that change their location's store code. */
function codeChanges(decisions: Decision[]): CodeChange[] {
  return decisions.flatMap(({ action, changes, row, location }) =>
    action === 'updated' && changes?.store_code !== undefined
      ? [{ index: row.index, line: row.line, locationId: location!.id, to: changes.store_code.to as string | null }]
      : [],
  );
}

/**
 * A location the row leaves as it is: its values with what the rules derived from them when they were
 * stored (DERIVED_COLUMNS), which the rules would derive again (the server brings every location up to the
 * current rules before it answers anything: rescore.ts). Half of the bench's upsert, 50,000 rows, skips
 * the health and key hashes so.
 */
function withStoredDerived(values: LocationValues, location: LocationToUpdate): LocationRow {
  const row = values as unknown as Record<string, unknown>;
  for (const column of DERIVED_COLUMNS) row[column] = location[column];
  return row as unknown as LocationRow;
}

function preview(decision: Decision, locationId: string | null): PreviewRow {
  const { place_hash: _place, match_hash: _match, health_flags: _flags, health_score, ...fields } = decision.result!;
  const health = healthOf(fields);
  return {
    index: decision.row.index,
    action: decision.action,
    location_id: locationId,
    changes: decision.changes,
    ...fields,
    health_score,
    health_status: fields.status === 'permanently_closed' ? 'closed' : health.status,
    health_issues: health.issues,
    health_hints: health.hints,
    duplicate_of: decision.duplicateOf,
    skip_reason: decision.skipReason,
    note: decision.note ?? null,
    same_place_as: decision.samePlaceAs ?? null,
    no_key: decision.action === 'created' && rowKeys(decision.row).every(isIdKey),
    place_id_of: decision.placeIdOf ?? null,
    store_code_case_of: decision.codeCaseOf ?? null,
    changed_since: decision.changedSince ?? null,
    phone_extension: decision.row.phoneExtension,
    store_code_given: decision.codeGiven ?? null,
    would_change: decision.wouldChange ?? null,
  };
}

/**
 * A stored location's values that a sheet saved again by Excel says otherwise without meaning to (README:
 * "Excel's leading zeros"), kept as stored: a store code or a postal code without its leading zeros (the
 * latter where the row's country did not put them back: 6103 for 06103), and coordinates Excel's General
 * format rounded to 11 characters (-122.4194155 saved as -122.419416: found by a probe, every location of
 * a round trip through Excel was an update).
 */
function keepWhatExcelChanged(decision: Decision, values: LocationValues, location: LocationValues): void {
  const { input } = decision.row;
  if (lostItsZeros(input.zip, location.zip)) values.zip = location.zip;
  if (lostItsZeros(input.store_code, location.store_code)) {
    decision.codeGiven = input.store_code!;
    values.store_code = location.store_code;
  }
  for (const field of ['latitude', 'longitude'] as const) {
    const [given, stored] = [values[field], location[field]];
    if (given !== null && stored !== null && Math.abs(given - stored) < EXCEL_ROUNDING) values[field] = stored;
  }
}

/** A problem of the values a row leaves its location with: the field, and what is wrong. */
interface RowProblem {
  field: string;
  message: string;
}

/**
 * The overlap in the week a row's days and its location's kept ones make (withInput), if any. The row's own
 * week was checked when it was read; a week it keeps no stored day of is that one.
 */
function overlapOfKeptDays(input: RowInput, values: LocationValues): RowProblem | undefined {
  if (input.hours == null || values.hours === input.hours || values.hours === null) return undefined;
  try {
    refuseOverlaps(values.hours);
    return undefined;
  } catch (error) {
    if (!(error instanceof HoursError)) throw error;
    const kept = 'the days this row leaves out keep their stored hours; with blanks=clear its hours are the whole week';
    return { field: 'hours', message: `${error.message} (${kept})` };
  }
}

/** Under a millionth of a degree (11 cm): the most Excel's General format moves a coordinate it rounds. */
const EXCEL_ROUNDING = 1e-6;

const ID_RULE = 'one id is one location: a row copied to add a location needs its id cell blank';

/** "line 5" when the row said its line in the sheet, else "row 3" (its index in the request). */
function rowWords(index: number, line: number | undefined): string {
  return line === undefined ? `row ${index}` : `line ${line}`;
}

/**
 * `values` with what a row says of each field written over them; a blank (null) clears a field only
 * when `clear` (the status back to open), and a field the row leaves out stays: hours too, a day at a
 * time (hoursByDay).
 */
function withInput(values: LocationValues, input: RowInput, clear: boolean): LocationValues {
  const stored = values.hours;
  for (const field of LOCATION_FIELDS) {
    const value = input[field];
    if (value === undefined || (value === null && !clear)) continue;
    (values as unknown as Record<LocationField, unknown>)[field] = value ?? (field === 'status' ? 'open' : null);
  }
  if (!clear && stored !== null && input.hours != null) values.hours = hoursByDay(stored, input.hours);
  return values;
}

/** What a valid row says of each field, as a new location's values (a dry run's refused row shows them). */
const inputValues = ({ input }: { input: RowInput }) => withInput(emptyValues(input.name ?? ''), input, true);

function errorPreview(index: number, values: LocationValues): PreviewRow {
  const health = healthOf(values);
  return {
    index,
    action: 'error',
    location_id: null,
    changes: null,
    ...values,
    health_score: health.score,
    health_status: health.status,
    health_issues: health.issues,
    health_hints: health.hints,
    duplicate_of: null,
    skip_reason: null,
    note: null,
    same_place_as: null,
    no_key: false,
    place_id_of: null,
    store_code_case_of: null,
    changed_since: null,
    phone_extension: null,
    store_code_given: null,
    would_change: null,
  };
}
