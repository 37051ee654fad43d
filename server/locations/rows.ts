import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { ErrorDetail } from '../http/errors.js';
import { UUID_PATTERN } from '../http/schemas.js';
import { errorInWords, innermostTelling, pointerToken } from '../http/validation.js';
import {
  PhoneReadings,
  fieldValue,
  FieldError,
  LOCATION_FIELDS,
  halfCoordinate,
  phoneExtension,
  phoneProblemInAnyCountry,
  NOT_CLOSED_FOR_GOOD,
  statusWithClosed,
  zipWithZeros,
  type LocationField,
  type LocationValues,
} from './fields.js';
import { UploadRow } from './schemas.js';
import { EXPORT_TIME_WORDS, exportTime, type ExportTime } from './export-time.js';
import { isPlaceholder } from '../imports/placeholders.js';

/**
 * What a row (or a PATCH body) says of each field: undefined when it leaves the field out, null when
 * its cell is blank, else the value as it would be stored.
 */
export type RowInput = { [F in LocationField]?: LocationValues[F] | null };

/** A key an import matches a row on (import.ts): a location id, store code, place id, or folded name and address. */
export interface RowKey {
  kind: 'id' | 'store_code' | 'google_place_id' | 'name_and_address';
  value: string;
}

/** A normalized row of an import, with its index and, when its phone waits for the stored country, its text. */
export interface NormalizedRow {
  /** Its keys, once the import has worked them out (import.ts). */
  keys?: RowKey[];
  index: number;
  /** The location id the row names (lower case), as an export writes it. */
  id: string | null;
  /** The row's line in the caller's sheet, when it said so. */
  line: number | undefined;
  input: RowInput;
  /** A national phone number on a row without a country: read with the matched location's country. */
  phoneText: string | null;
  /** The extension its phone carried ("3" of "ext. 3"): E.164 has none, so it is not kept (a dry run says so). */
  phoneExtension: string | null;
  /** Closed said no, Status nothing: a location closed for good opens, any other keeps its status (fields.ts). */
  notClosedForGood: boolean;
  /** When the row's location was last changed, as its export said (updated_at): not stored. */
  seen: ExportTime | null;
}

const rowChecker = TypeCompiler.Compile(UploadRow);

export function rowError(index: number, field: string, message: string, line?: number): ErrorDetail {
  const detail: ErrorDetail = {
    path: field === '' ? `/rows/${index}` : `/rows/${index}/${field}`,
    row: index,
    field,
    message,
  };
  if (line !== undefined) detail.line = line;
  return detail;
}

/**
 * The first row problem in words, after the count: a script that prints the message learns what is
 * wrong, as every other 400 words its first detail (a walk's read "1 of 1 rows is not valid" and no more).
 */
export function firstRowProblem(detail: ErrorDetail): string {
  const where = detail.line === undefined ? `row ${detail.row}` : `line ${detail.line}`;
  return `The first: ${where}${detail.field ? `, ${detail.field}` : ''}: ${detail.message}`;
}

const TYPE_WORDS: Partial<Record<string, string>> = {
  latitude: 'must be a number, or text holding one',
  longitude: 'must be a number, or text holding one',
  labels: 'must be text separated by commas, or a list of texts',
  hours: 'must be text such as "Mon-Fri 9:00-17:00", or an object of days (mon ... sun)',
  id: "must be a location's id (a UUID, as the export writes it), or blank; a column of your own numbering is the store code (name its header Store code, or choose Store code for it in the column step)",
  closed: 'must be yes or no: text such as "Yes" or "No", true or false, or blank',
};

function maxLengthOf(schema: TSchema, value: unknown): number | undefined {
  const members = (schema.anyOf as TSchema[] | undefined) ?? [schema];
  if (typeof value !== 'string') return undefined;
  return members.find((member) => member.type === 'string')?.maxLength as number | undefined;
}

/** The keys of an error's path, as sent: the row's field, then the keys inside it. */
function pathKeys(error: ValueError): [field: string, ...inside: string[]] {
  const [, field = '', ...inside] = error.path.split('/').map(pointerToken);
  return [field, ...inside];
}

/** ': did you mean "country"?' for a key that is a field but for its case ("Country"), else ''. */
function knownAs(key: string, schema: TSchema): string {
  const lower = key.toLowerCase();
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const field = Object.keys(properties).find((name) => name.toLowerCase() === lower);
  return field === undefined ? '' : `: did you mean "${field}"?`;
}

/** A field refused, in words: by the schema (wordedError) or by the field's rule (readFields). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** One of TypeBox's errors in a person's words, for the field it is about. */
export function wordedError(error: ValueError): FieldProblem {
  const [field, ...inside] = pathKeys(error);
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      // Inside a field, the key that is not known is the last one: hours' "xyz", not hours.
      if (inside.length > 0) return { field, message: `holds "${inside.at(-1)}", which ${field} does not take` };
      return { field, message: `"${field}" is not a field of a location${knownAs(field, error.schema)}` };
    case ValueErrorType.ObjectRequiredProperty:
      return { field, message: 'is required' };
    case ValueErrorType.ObjectMinProperties:
      return { field, message: 'must name at least one field' };
    case ValueErrorType.Object:
      return { field, message: field === '' ? 'must be an object with at least a name' : 'must be an object' };
    case ValueErrorType.StringMaxLength:
      return { field, message: `is longer than ${error.schema.maxLength as number} characters` };
    case ValueErrorType.String:
      return { field, message: 'must be text' };
    case ValueErrorType.ArrayMaxItems:
      return { field, message: `has more than ${error.schema.maxItems as number} items` };
    case ValueErrorType.Union:
      return unionWorded(error, field);
    default:
      return { field, message: inside.length > 0 ? `${inside.join('/')} ${errorInWords(error)}` : errorInWords(error) };
  }
}

/** A value none of a field's types takes. */
function unionWorded(error: ValueError, field: string): FieldProblem {
  // What is wrong inside the value, where it is: hours' mon/0/0 time, not "must be text such as ...".
  const inner = innermostTelling(error);
  if (inner.path.length > error.path.length) return wordedError(inner);
  const max = maxLengthOf(error.schema, error.value);
  if (max !== undefined && (error.value as string).length > max)
    return { field, message: `is longer than ${max} characters` };
  // JSON's 1e999 reads as Infinity: worded by errorInWords, as every other route words it (a walk was told it "must be a number").
  if (typeof error.value === 'number' && !Number.isFinite(error.value)) return { field, message: errorInWords(error) };
  return { field, message: TYPE_WORDS[field] ?? 'must be text or null' };
}

/** One message per wrong field, worded from the schema's errors. */
export function schemaErrors(errors: Iterable<ValueError>, detail: (field: string, message: string) => ErrorDetail) {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const { field, message } = wordedError(error);
    // A type error on a required field follows its "is required": one message a field.
    if (seen.has(field)) continue;
    seen.add(field);
    details.push(detail(field, message));
  }
  return details;
}

const NO_PROBLEMS: readonly FieldProblem[] = Object.freeze([]);

/** What readFields read of a row: the values, the phone that waits, and the fields it refused. */
export interface FieldsRead {
  input: RowInput;
  phoneText: string | null;
  notClosedForGood: boolean;
  /** The refused fields: the country, then LOCATION_FIELDS' order, a Closed that disagrees, a blank name. */
  problems: readonly FieldProblem[];
}

/**
 * Reads each field of a checked row or body by its rule (locations/fields.ts). `deferPhone`: a national
 * phone number on a row without a country is kept as text for the matched location's country.
 * `placeholders`: the words read as blank (the default list unless given). `fallbackCountry`: the
 * import's ?country=, what a phone of a row without a country is read by when it does not wait.
 *
 * No function is made inside it (nor in normalizeRow for a row without errors): an import calls it for
 * each of 100,000 rows, and V8 allocates a context for every call of a function whose variables an inner
 * function captures, and the inner function besides (some 60 MB of an import's garbage, by V8's sampling
 * heap profiler).
 */
export function readFields(
  raw: Record<string, unknown>,
  deferPhone: boolean,
  placeholders?: ReadonlySet<string>,
  fallbackCountry: string | null = null,
): FieldsRead {
  const input: Record<string, unknown> = {};
  const read = new FieldReading(input, deferPhone, placeholders);
  read.field('country', raw.country, null);
  const country = (input.country as string | null | undefined) ?? null;
  const waiting = deferPhone && country === null ? nationalPhone(raw.phone) : null;
  for (const field of LOCATION_FIELDS) {
    if (field === 'country' || (field === 'phone' && waiting !== null)) continue;
    read.field(field, raw[field], country ?? fallbackCountry);
  }
  const notClosedForGood = raw.closed !== undefined && readClosed(raw, read);
  if (input.name === null) read.refused('name', 'is required');
  return {
    input: input as RowInput,
    phoneText: waiting ?? read.ambiguousPhone,
    notClosedForGood,
    problems: read.problems ?? NO_PROBLEMS,
  };
}

/** One row's reading: its values, a phone that may be read two ways, and what was refused (made once a row). */
class FieldReading {
  /** A phone that may be read two ways waits, in upsert and update, for the matched location's (PhoneReadings). */
  ambiguousPhone: string | null = null;
  problems: FieldProblem[] | null = null;

  constructor(
    readonly input: Record<string, unknown>,
    private readonly deferPhone: boolean,
    readonly placeholders: ReadonlySet<string> | undefined,
  ) {}

  field(field: LocationField, value: unknown, country: string | null): void {
    try {
      const stored = fieldValue(field, value as never, country, this.placeholders);
      if (stored !== undefined) this.input[field] = stored;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      if (this.deferPhone && error instanceof PhoneReadings) this.ambiguousPhone = (value as string).trim();
      else this.refused(field, error.message);
    }
  }

  refused(field: string, message: string): void {
    (this.problems ??= []).push({ field, message });
  }
}

/**
 * An import row's Closed (Yext's `closed`) read into its status, by fields.ts's rule; its problems are the
 * status's. A Status refused on its own says so already.
 */
function readClosed(raw: Record<string, unknown>, read: FieldReading): boolean {
  const { input, placeholders } = read;
  if (raw.status !== undefined && input.status === undefined) return false;
  try {
    const status = input.status as RowInput['status'];
    const closed = statusWithClosed(status, raw.status, raw.closed as string | boolean | null, placeholders);
    // Not closed for good: the status stays as the row left it; the import opens a location closed for good.
    if (closed === NOT_CLOSED_FOR_GOOD) return true;
    input.status = closed;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    read.refused('status', error.message);
  }
  return false;
}

/** A phone number written without its country code ("(415) 555-0100"), or null. */
function nationalPhone(value: unknown): string | null {
  if (typeof value !== 'string' || /^\s*(\+|00)/.test(value) || value.trim() === '') return null;
  return value.trim();
}

/** The line a row says it came from, when it says one that can be a line. */
function lineOf(raw: unknown): number | undefined {
  const line = (raw as { line?: unknown } | null)?.line;
  return Number.isInteger(line) && (line as number) >= 1 ? (line as number) : undefined;
}

/** Checks and normalizes one import row (README: "Import rules"); returns it or its errors. */
export function normalizeRow(
  raw: unknown,
  index: number,
  deferPhone: boolean,
  placeholders?: ReadonlySet<string>,
  fallbackCountry: string | null = null,
): NormalizedRow | ErrorDetail[] {
  const line = lineOf(raw);
  if (!rowChecker.Check(raw)) return schemaErrors(rowChecker.Errors(raw), rowDetail(index, line));
  const read = readFields(raw, deferPhone, placeholders, fallbackCountry);
  const { input, phoneText, notClosedForGood } = read;
  const seen = raw.updated_at == null ? null : seenTime(raw.updated_at, placeholders);
  const problems =
    seen === undefined ? [...read.problems, { field: 'updated_at', message: EXPORT_TIME_WORDS }] : read.problems;
  if (problems.length > 0) {
    const detail = rowDetail(index, line);
    const errors = problems.map(({ field, message }) => detail(field, message));
    return refusedRowProblems(errors, { input, phoneText, deferPhone }, detail);
  }
  // In upsert and update the country may be the matched location's: the import puts the zeros back then.
  withExcelZeros(input, deferPhone ? null : fallbackCountry);
  const extension = input.phone == null ? null : phoneExtension(raw.phone, input.country ?? fallbackCountry);
  const id = typeof raw.id === 'string' ? raw.id.toLowerCase() : null;
  return { index, id, line, input, phoneText, phoneExtension: extension, notClosedForGood, seen: seen ?? null };
}

/** A row's updated_at: null when blank or a placeholder, undefined when it is no time an export writes. */
function seenTime(text: string, placeholders?: ReadonlySet<string>): ExportTime | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || isPlaceholder(trimmed, 'updated_at', placeholders)) return null;
  return exportTime(trimmed) ?? undefined;
}

/** A row's error of one field, made only for a row that has one. */
function rowDetail(index: number, line: number | undefined): (field: string, message: string) => ErrorDetail {
  return (field, message) => rowError(index, field, message, line);
}

/**
 * A refused row is never matched nor decided, so what the import judges then is said with its other
 * errors where the row alone can tell: a national phone that waited for the matched location's country,
 * for what is wrong with it in any country; and in create mode (no stored location to give the other), a
 * coordinate without the other (a walk's row said only its Closed was wrong).
 */
function refusedRowProblems(
  errors: ErrorDetail[],
  row: { input: RowInput; phoneText: string | null; deferPhone: boolean },
  detail: (field: string, message: string) => ErrorDetail,
): ErrorDetail[] {
  const more: ErrorDetail[] = [];
  const phone = row.phoneText === null ? undefined : phoneProblemInAnyCountry(row.phoneText);
  if (phone !== undefined) more.push(detail('phone', phone));
  const coordinateRefused = errors.some((error) => error.field === 'latitude' || error.field === 'longitude');
  const { latitude = null, longitude = null } = row.input;
  const half = row.deferPhone || coordinateRefused ? null : halfCoordinate(row.input, { latitude, longitude });
  if (half !== null) more.push(detail(half.field, half.message));
  return more.length === 0 ? errors : [...errors, ...more];
}

/**
 * The store code and the location id a row normalizeRow refused for other fields gives (each null when
 * its own cell is none), and the row's line: a repeat of either is an error of both rows whatever else is
 * wrong (import.ts).
 */
export function refusedRowCode(
  raw: unknown,
  placeholders?: ReadonlySet<string>,
): { code: string | null; id: string | null; line: number | undefined } {
  const { store_code: cell, id } = (raw ?? {}) as { store_code?: unknown; id?: unknown };
  const line = lineOf(raw);
  // The id as normalizeRow takes it: a UUID, in lower case (the schema refused any other).
  const uuid = typeof id === 'string' && UUID_PATTERN.test(id) ? id.toLowerCase() : null;
  if (typeof cell !== 'string' && typeof cell !== 'number') return { code: null, id: uuid, line };
  try {
    const code = fieldValue('store_code', cell as never, null, placeholders);
    return { code: typeof code === 'string' ? code : null, id: uuid, line };
  } catch (error) {
    if (error instanceof FieldError) return { code: null, id: uuid, line };
    throw error;
  }
}

/**
 * The fields that can be read of a row normalizeRow refused for others, for a dry run to show; undefined
 * when it is not a row of the schema at all. Read again, and only for refused rows of a dry run.
 */
export function readableInput(
  raw: unknown,
  deferPhone: boolean,
  placeholders?: ReadonlySet<string>,
): RowInput | undefined {
  const row = rowChecker.Check(raw) ? raw : withoutRefusedFields(raw);
  if (row === undefined) return undefined;
  const { input } = readFields(row, deferPhone, placeholders);
  return withExcelZeros(input);
}

/**
 * A row the schema refused, less the fields it refused (a city too long, a number for a name), so that the
 * rest still shows in the dry run; undefined when what is left is still no row (not an object at all).
 */
function withoutRefusedFields(raw: unknown): UploadRow | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const refused = new Set<string>();
  for (const error of rowChecker.Errors(raw)) refused.add(pathKeys(error)[0]);
  const kept = Object.fromEntries(Object.entries(raw).filter(([field]) => !refused.has(field)));
  // The name is required: a refused one shows as blank.
  if (refused.has('name')) kept.name = '';
  return rowChecker.Check(kept) ? kept : undefined;
}

/** An imported row's postal code with the leading zeros a spreadsheet dropped (fields.ts, zipWithZeros). */
function withExcelZeros(input: RowInput, fallbackCountry: string | null = null): RowInput {
  const country = input.country ?? fallbackCountry;
  if (typeof input.zip === 'string' && typeof country === 'string')
    input.zip = zipWithZeros(input.zip, country, input.state);
  return input;
}
