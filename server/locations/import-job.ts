import { FormatRegistry, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Db } from '../db/open.js';
import type { WriterOutcome } from '../db/writer-jobs.js';
import { errorBody, type ErrorDetail } from '../http/errors.js';
import { UUID_PATTERN } from '../http/schemas.js';
import { healthOf } from './health.js';
import { DuplicateIndex, normalizeRow, planImport, type PlannedRow } from './import-plan.js';
import { addToLocationsCount, clientOrganization, existingLocations, locationInserter } from './queries.js';
import {
  MAX_IMPORT_ROWS,
  UploadBody,
  type DryRunResponse,
  type DuplicatePolicy,
  type PreviewRow,
  type UploadResponse,
} from './schemas.js';

export interface ImportJob {
  organizationId: string;
  /** The raw request body: parsed here, off the event loop. */
  body: Uint8Array;
  dryRun: boolean;
  duplicates: DuplicatePolicy;
  now: number;
}

if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID_PATTERN.test(value));

// The body's envelope, from the route's schema; rows are checked one by one for per-row messages.
const envelope = TypeCompiler.Compile(
  Type.Object(
    { clientId: UploadBody.properties.clientId, rows: Type.Array(Type.Unknown()) },
    { additionalProperties: false },
  ),
);

const failed = (statusCode: number, message: string, details?: ErrorDetail[]): WriterOutcome => ({
  statusCode,
  payload: JSON.stringify(errorBody(statusCode, message, details)),
});

/**
 * Plain JSON.parse, without secure-json-parse's two scans of up to 32 MiB: JSON.parse only ever makes
 * `__proto__` an own property (it never sets a prototype), and the envelope and row checks below refuse
 * every key but the known ones, so a poisoning body is a 400 before any of it is used.
 */
function parseBody(body: Uint8Array): { ok: true; value: unknown } | { ok: false; outcome: WriterOutcome } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch (error) {
    return { ok: false, outcome: failed(400, `The body is not valid JSON: ${(error as Error).message}`) };
  }
}

function envelopeErrors(value: unknown): ErrorDetail[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: '', message: 'must be an object with clientId and rows' }];
  }
  const body = value as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  if (typeof body.clientId !== 'string') details.push({ path: '/clientId', message: 'is required, as a string' });
  else if (!UUID_PATTERN.test(body.clientId)) details.push({ path: '/clientId', message: 'must be a UUID' });
  if (!Array.isArray(body.rows)) details.push({ path: '/rows', message: 'is required, as an array of locations' });
  for (const key of Object.keys(body)) {
    if (key !== 'clientId' && key !== 'rows')
      details.push({ path: `/${key}`, message: `"${key}" is not a field of an import` });
  }
  return details;
}

function previewRow(row: PlannedRow): PreviewRow {
  const health = healthOf(row);
  return {
    index: row.index,
    name: row.name,
    address: row.address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    google_place_id: row.google_place_id,
    health_score: health.score,
    health_status: health.status,
    health_issues: health.issues,
    duplicate_of: row.duplicateOf,
  };
}

/** Thrown inside the import's transaction to roll it back with this answer. */
class RolledBack extends Error {
  constructor(readonly outcome: WriterOutcome) {
    super('rolled back');
  }
}

function invalidRows(errors: ErrorDetail[], rowCount: number): WriterOutcome {
  const badRows = new Set(errors.map((error) => error.row)).size;
  return failed(400, `${badRows} of ${rowCount} rows are not valid; nothing was imported`, errors);
}

/** The dry run: every row normalized, scored and checked, nothing written. */
function preview(db: Db, clientId: string, rows: unknown[], policy: DuplicatePolicy): WriterOutcome {
  const plan = planImport(rows, existingLocations(db, clientId));
  const duplicates = plan.rows.filter((row) => row.duplicateOf !== null).length;
  const answer: DryRunResponse = {
    dry_run: true,
    valid: plan.errors.length === 0,
    count: plan.errors.length === 0 ? (policy === 'skip' ? plan.rows.length - duplicates : plan.rows.length) : 0,
    duplicates,
    rows: plan.rows.map(previewRow),
    errors: plan.errors,
  };
  return { statusCode: 200, payload: JSON.stringify(answer) };
}

/**
 * The import: each row is normalized, checked and inserted in turn, and its parsed object let go, so
 * that 100,000 rows never sit in memory twice. The first invalid row stops the inserts; the checks go on
 * to list every error, and the transaction is rolled back.
 */
function importRows(db: Db, clientId: string, rows: unknown[], policy: DuplicatePolicy, now: number): WriterOutcome {
  const duplicates = new DuplicateIndex(existingLocations(db, clientId));
  const insert = locationInserter(db, clientId, rows.length, now);
  const locations: UploadResponse['locations'] = [];
  const errors: ErrorDetail[] = [];
  for (let index = 0; index < rows.length; index++) {
    const row = normalizeRow(rows[index], index);
    rows[index] = undefined;
    if (Array.isArray(row)) {
      for (const error of row) errors.push(error);
      continue;
    }
    const duplicate = duplicates.check(row);
    if (errors.length === 0 && (duplicate === null || policy === 'keep')) locations.push(insert(row));
  }
  if (errors.length > 0) throw new RolledBack(invalidRows(errors, rows.length));
  addToLocationsCount(db, clientId, locations.length);
  const response: UploadResponse = { success: true, count: locations.length, locations };
  return { statusCode: 201, payload: JSON.stringify(response) };
}

/**
 * One import, start to finish, on the writer worker's own connection: parse, check and write in a single
 * IMMEDIATE transaction, so that either every row is written or none is (README: "Import rules").
 */
export function runImportJob(db: Db, job: ImportJob): WriterOutcome {
  const parsed = parseBody(job.body);
  // The bytes are text now: let them go before the rows are read (a 32 MiB body is worth freeing).
  job.body = new Uint8Array(0);
  if (!parsed.ok) return parsed.outcome;
  if (!envelope.Check(parsed.value)) return failed(400, 'The import body is not valid', envelopeErrors(parsed.value));
  const { rows } = parsed.value;
  // UUIDs are case-insensitive on input (RFC 9562); ids are stored in lower case.
  const clientId = parsed.value.clientId.toLowerCase();
  if (rows.length > MAX_IMPORT_ROWS) {
    return failed(
      413,
      `An import takes at most ${MAX_IMPORT_ROWS} rows; this one has ${rows.length}. Send it in parts.`,
    );
  }
  const transaction = db.transaction((): WriterOutcome => {
    if (clientOrganization(db, clientId) !== job.organizationId) return failed(404, 'No client with this id');
    return job.dryRun
      ? preview(db, clientId, rows, job.duplicates)
      : importRows(db, clientId, rows, job.duplicates, job.now);
  });
  try {
    // A dry run only reads; an import takes the write lock up front so that its checks cannot go stale.
    return job.dryRun ? transaction.deferred() : transaction.immediate();
  } catch (error) {
    if (error instanceof RolledBack) return error.outcome;
    throw error;
  }
}
