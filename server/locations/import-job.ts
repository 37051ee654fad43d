import { FormatRegistry, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { SortedUuids } from '../db/uuid.js';
import type { Stream, WriterOutcome } from '../db/writer-jobs.js';
import { errorBody, type ErrorDetail } from '../http/errors.js';
import { UUID_PATTERN } from '../http/schemas.js';
import { healthOf } from './health.js';
import { BodyNotJson, BodyTooComplex, splitImportBody, type SplitBody } from './import-body.js';
import { DuplicateIndex, planRows, type PlannedRow } from './import-plan.js';
import { MAX_IMPORT_ROWS, UploadBody, type DuplicatePolicy, type PreviewRow, type UploadResponse } from './schemas.js';

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

const notJson = (message: string) => failed(400, `The body is not valid JSON: ${message}`);

/**
 * Plain JSON.parse, without secure-json-parse's two scans of up to 32 MiB: JSON.parse only ever makes
 * `__proto__` an own property (it never sets a prototype), and the envelope and row checks below refuse
 * every key but the known ones, so a poisoning body is a 400 before any of it is used.
 */
function parseWhole(body: Uint8Array): { ok: true; value: unknown } | { ok: false; outcome: WriterOutcome } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch (error) {
    return { ok: false, outcome: notJson((error as Error).message) };
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

/** Rows parsed a batch at a time (import-body.ts) or already parsed: read once, in order. */
export interface Rows extends Iterable<unknown> {
  readonly length: number;
}

/** A parsed array's rows, each let go once read: 100,000 rows never sit in memory twice. */
function draining(rows: unknown[]): Rows {
  return {
    length: rows.length,
    *[Symbol.iterator]() {
      for (let index = 0; index < rows.length; index++) {
        const row = rows[index];
        rows[index] = undefined;
        yield row;
      }
    },
  };
}

/** Rows parsed at a time: they live only while they are checked (npm run bench, peak memory). */
const BATCH_ROWS = 500;

/** A well-formed import: its client (lower case: UUIDs are case-insensitive on input, RFC 9562) and rows. */
export interface ParsedImport {
  clientId: string;
  rows: Rows;
}

/**
 * The parser thread's first step: the body read and its envelope checked. The rows of a body of the
 * usual shape are parsed later, a batch at a time, as they are checked (import-body.ts); a row batch that
 * turns out not to be JSON then ends the import with the same 400 as a body parsed whole.
 */
export function parseImport(body: Uint8Array): ParsedImport | WriterOutcome {
  let split: SplitBody | 'too complex' | undefined;
  try {
    split = splitImportBody(body, BATCH_ROWS);
  } catch (error) {
    if (error instanceof BodyNotJson) return notJson(error.message);
    if (error instanceof BodyTooComplex) return tooComplex();
    throw error;
  }
  if (split === 'too complex') return tooComplex();
  if (split === undefined) return parseWholeImport(body);
  if (!envelope.Check(split.envelope))
    return failed(400, 'The import body is not valid', envelopeErrors(split.envelope));
  if (split.rowCount > MAX_IMPORT_ROWS) {
    // A body that is not JSON is a 400 before it is a 413: its rows are read through, a batch at a time.
    const notJsonRows = readingRows(() => {
      for (const row of split.rows()) void row;
    });
    return notJsonRows ?? tooManyRows(split.rowCount);
  }
  const rows = split.rows.bind(split);
  return { clientId: split.envelope.clientId.toLowerCase(), rows: { length: split.rowCount, [Symbol.iterator]: rows } };
}

const tooComplex = () =>
  failed(
    413,
    'The body holds more values than an import can: a row is an object of at most 7 text fields, ' +
      'and an import is {"clientId": ..., "rows": [...]}',
  );

const tooManyRows = (count: number) =>
  failed(413, `An import takes at most ${MAX_IMPORT_ROWS} rows; this one has ${count}. Send it in parts.`);

function parseWholeImport(body: Uint8Array): ParsedImport | WriterOutcome {
  const parsed = parseWhole(body);
  if (!parsed.ok) return parsed.outcome;
  if (!envelope.Check(parsed.value)) return failed(400, 'The import body is not valid', envelopeErrors(parsed.value));
  const { rows } = parsed.value;
  if (rows.length > MAX_IMPORT_ROWS) return tooManyRows(rows.length);
  return { clientId: parsed.value.clientId.toLowerCase(), rows: draining(rows) };
}

/** Runs a step over the rows; a batch of them that is not JSON ends it with the body's 400. */
function readingRows<T>(step: () => T): T | WriterOutcome {
  try {
    return step();
  } catch (error) {
    if (error instanceof BodyNotJson) return notJson(error.message);
    throw error;
  }
}

/** `step`, reading its rows as readingRows does. */
function readingRowsOf<A extends unknown[], T>(step: (...args: A) => T): (...args: A) => T | WriterOutcome {
  return (...args) => readingRows(() => step(...args));
}

/**
 * Adds a piece of the client's existing locations, as the writer thread sends them
 * (import-write.ts, openImport), to the duplicate index.
 */
export function addExisting(duplicates: DuplicateIndex, json: string): void {
  const rows = JSON.parse(json) as [string, string, string | null, string | null][];
  for (const [id, name, address, google_place_id] of rows)
    duplicates.addExisting({ id, name, address, google_place_id });
}

/** Entries of the JSON arrays of an answer, sent as UTF-8 as they are written (db/writer-jobs.ts, 'piece'). */
export type SendPiece = (stream: Stream, json: Uint8Array) => void;

const PIECE_BYTES = 64 * 1024;
const utf8 = new TextEncoder();

/**
 * One JSON array of an answer (its entries, without the brackets), written as it goes and sent to the
 * server thread in pieces of about 64 KB: a 100,000-row answer never sits in this thread's heap, and is
 * never one big allocation anywhere.
 */
class ArrayPieces {
  private text: string[] = [];
  private length = 0;
  private empty = true;
  /** Pieces sent so far. */
  sent = 0;

  constructor(
    private readonly stream: Stream,
    private readonly send: SendPiece,
  ) {}

  /** Adds an entry, or several already joined by commas. */
  add(json: string): void {
    this.text.push(this.empty ? json : `,${json}`);
    this.empty = false;
    this.length += json.length + 1;
    if (this.length >= PIECE_BYTES) this.flush();
  }

  flush(): void {
    if (this.length === 0) return;
    this.send(this.stream, utf8.encode(this.text.join('')));
    this.sent++;
    this.text = [];
    this.length = 0;
  }
}

/** The 400 of an import with invalid rows, its details sent in pieces as they were found. */
function invalidRows(errors: ArrayPieces, badRows: number, rowCount: number): WriterOutcome {
  errors.flush();
  const head = errorBody(400, `${badRows} of ${rowCount} rows are not valid; nothing was imported`);
  return {
    statusCode: 400,
    payload: [`${JSON.stringify(head).slice(0, -1)},"details":[`, { stream: 'errors' }, ']}'],
  };
}

/** Adds a row's errors to the details. */
function listErrors(errors: ArrayPieces, details: ErrorDetail[]): void {
  for (const detail of details) errors.add(JSON.stringify(detail));
}

/** The dry run: every row normalized, scored and checked, nothing written; the answer sent in pieces. */
export const previewImport = readingRowsOf(function preview(
  rows: Rows,
  duplicates: DuplicateIndex,
  policy: DuplicatePolicy,
  send: SendPiece,
): WriterOutcome {
  const previews = new ArrayPieces('rows', send);
  const errors = new ArrayPieces('errors', send);
  let valid = 0;
  let repeated = 0;
  let invalid = false;
  for (const row of planRows(rows, duplicates)) {
    if (Array.isArray(row)) {
      listErrors(errors, row);
      invalid = true;
      continue;
    }
    valid++;
    if (row.duplicateOf !== null) repeated++;
    previews.add(JSON.stringify(previewRow(row)));
  }
  previews.flush();
  errors.flush();
  const count = invalid ? 0 : policy === 'skip' ? valid - repeated : valid;
  // DryRunResponse, in its order.
  const head = `{"dry_run":true,"valid":${!invalid},"count":${count},"duplicates":${repeated},"rows":[`;
  return { statusCode: 200, payload: [head, { stream: 'rows' }, '],"errors":[', { stream: 'errors' }, ']}'] };
});

/**
 * Rows a piece sent to the writer: enough that SQLite's per-statement cost vanishes, few enough that the
 * writer starts soon and that a piece's JSON (about 200 KB) is never one of the big allocations that
 * inflate the process's memory (npm run bench).
 */
export const PIECE_ROWS = 1_000;

/** Where the rows go: the writer; false when the import has ended meanwhile. */
export type SendRows = (json: string) => boolean;

/** What the parser says of an import whose rows it has all sent. */
export interface Checked {
  /** The rows sent to the writer. */
  count: number;
  /** The pieces of the answer sent to the server thread. */
  pieces: number;
}

/**
 * The import's rows, each normalized, scored and checked for duplicates in turn and its parsed object let
 * go, handed to `sendRows` as JSON pieces of PIECE_ROWS rows for the writer to insert meanwhile
 * (import-write.ts, insertRows), and the answer's entries to `send`. Returns what was sent, the 400 of
 * invalid rows, or undefined when `sendRows` says the import has ended. The first invalid row stops the
 * rows; the checks go on to list every error, and the writer rolls back what it was sent. The ids are
 * random v4 UUIDs handed out in sorted order: the id index then grows at nearby pages instead of random
 * ones, which keeps later imports into a big database from slowing down (npm run bench).
 */
export const checkImport = readingRowsOf(function checkRows(
  rows: Rows,
  duplicates: DuplicateIndex,
  policy: DuplicatePolicy,
  sendRows: SendRows,
  send: SendPiece,
): Checked | WriterOutcome | undefined {
  const ids = new SortedUuids(rows.length);
  let pieceIds: string[] = [];
  let used = 0;
  const answer = new ArrayPieces('answer', send);
  const errors = new ArrayPieces('errors', send);
  let badRows = 0;
  let piece: unknown[][] = [];
  let imported: UploadResponse['locations'] = [];
  let count = 0;
  /** Sends the piece; false when the import has ended meanwhile. */
  const flush = (): boolean => {
    if (piece.length === 0) return true;
    if (!sendRows(JSON.stringify(piece))) return false;
    answer.add(JSON.stringify(imported).slice(1, -1));
    piece = [];
    imported = [];
    return true;
  };
  for (const row of planRows(rows, duplicates)) {
    if (Array.isArray(row)) {
      listErrors(errors, row);
      badRows++;
      continue;
    }
    if (badRows > 0 || (row.duplicateOf !== null && policy === 'skip')) continue;
    if (used === pieceIds.length) {
      pieceIds = ids.take(PIECE_ROWS);
      used = 0;
    }
    const id = pieceIds[used++]!;
    count++;
    const { name, address, city, state, zip, country, google_place_id } = row;
    piece.push([id, name, address, city, state, zip, country, google_place_id, row.health_score, row.health_status]);
    imported.push({ id, name, city, state });
    if (piece.length === PIECE_ROWS && !flush()) return undefined;
  }
  if (badRows > 0) return invalidRows(errors, badRows, rows.length);
  if (!flush()) return undefined;
  answer.flush();
  return { count, pieces: answer.sent };
});
