import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { FastifyRouteSchemaDef, FastifySchemaCompiler } from 'fastify/types/schema.js';
import { controlCharacterWords } from './control-characters.js';
import { Invalid, type ErrorDetail } from './errors.js';
// The formats (uuid, date-time, email, plain-text) are registered with TypeBox where the shared schemas are defined.
import { COUNTRY_CODE_PATTERN, PLAIN_TEXT, TIME_OF_DAY_PATTERN } from './schemas.js';

/**
 * The one validator: TypeBox's compiled checker, for HTTP requests, the CLI and the import's rows alike.
 * Bodies are JSON and must carry the types the schema says ("5" is not 5 and 5 is not "5"); query strings
 * and path parameters are text by nature, so "limit=10" becomes 10 before the check (Value.Convert).
 */
const checkers = new WeakMap<object, TypeCheck<TSchema>>();

function checkerOf(schema: TSchema): TypeCheck<TSchema> {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = TypeCompiler.Compile(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

type Part = 'body' | 'querystring' | 'params' | 'headers';

/** A request's 400 lists at most this many problems. */
export const MAX_DETAILS = 100;

function isUuid(schema: TSchema): boolean {
  return schema.format === 'uuid' || ((schema.anyOf as TSchema[] | undefined)?.some(isUuid) ?? false);
}

function isUuidList(schema: TSchema): boolean {
  return schema.type === 'array' && isUuid(schema.items as TSchema);
}

/**
 * The schema as its checker is compiled: a list of ids with `uniqueItems` is checked for repeats here, by a
 * Set of its (lowered) texts, rather than by TypeBox, which hashes every item character by character: 650 ms
 * of the event loop for the 100,000 ids of a bulk edit, against a few here. The schema itself (the OpenAPI
 * document's) still says `uniqueItems`; the 400 names the repeated id and both its places.
 */
function withoutUniqueIds(schema: TSchema, fields: readonly string[]): TSchema {
  if (fields.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, TSchema>) };
  for (const field of fields) {
    const { uniqueItems: _checkedBelow, ...rest } = properties[field]!;
    properties[field] = rest as TSchema;
  }
  return { ...schema, properties };
}

/** The first repeated id of each list (the lists are already checked as arrays of texts): a 400's details. */
function repeatedIds(value: Record<string, unknown>, fields: readonly string[], part: Part): ErrorDetail[] {
  return fields.flatMap((field) => {
    const list = value[field] as string[] | undefined;
    if (list === undefined) return [];
    // Which one, and where (a probe, among 100,000 ids, was told only that one repeats).
    const first = new Map<string, number>();
    for (const [at, id] of list.entries()) {
      const before = first.get(id);
      if (before !== undefined)
        return [{ path: `/${part}/${field}/${at}`, message: `repeats ${id}, given at ${before} already` }];
      first.set(id, at);
    }
    return [];
  });
}

function isBoolean(schema: TSchema): boolean {
  return schema.type === 'boolean' || ((schema.anyOf as TSchema[] | undefined)?.some(isBoolean) ?? false);
}

const BOOLEAN_TEXT = /^(true|false|1|0)$/i;

/** The texts a schema of fixed words takes (a literal, or a union of them), or null. */
function wordsOf(schema: TSchema): string[] | null {
  if (typeof schema.const === 'string') return [schema.const];
  const choices = schema.anyOf as TSchema[] | undefined;
  const words = choices?.map((choice) => choice.const);
  return words?.every((word): word is string => typeof word === 'string') ? words : null;
}

/** A query string's fields of fixed words, with their words: `mode=UPSERT` is `upsert`, as `dryRun=True` is true. */
function wordFields(schema: TSchema): [string, string[]][] {
  return Object.entries((schema.properties ?? {}) as Record<string, TSchema>).flatMap(([name, property]) => {
    const words = wordsOf(property);
    return words === null ? [] : [[name, words] as [string, string[]]];
  });
}

/** The names of a schema's properties that pass the test. */
function fieldsWhere(schema: TSchema, test: (property: TSchema) => boolean): string[] {
  return Object.entries((schema.properties ?? {}) as Record<string, TSchema>)
    .filter(([, property]) => test(property))
    .map(([name]) => name);
}

/**
 * Fastify's validator for every route: checks the part against its TypeBox schema and answers a 400 in
 * the API's words. UUIDs are written in lower case: ids are stored that way, and RFC 9562 says UUIDs are
 * case-insensitive on input, so `A553502C-...` names the same client as `a553502c-...`. A list of ids is
 * lowered before the check, so that `uniqueItems` sees one id written in two cases as a repeat.
 * A boolean in a query string may be written true/false/1/0 in any case (Python's requests sends `True`).
 */
export const compileValidator: FastifySchemaCompiler<unknown> = ({
  schema,
  httpPart,
}: FastifyRouteSchemaDef<unknown>) => {
  const typed = schema as TSchema;
  if (!(Kind in typed)) throw new Error(`The ${httpPart ?? 'request'} schema of a route is not a TypeBox schema`);
  const part = (httpPart ?? 'body') as Part;
  const uuidFields = fieldsWhere(typed, isUuid);
  const uuidListFields = fieldsWhere(typed, isUuidList);
  const uniqueIdFields = uuidListFields.filter(
    (field) => (typed.properties as Record<string, TSchema>)[field]!.uniqueItems,
  );
  const checker = checkerOf(withoutUniqueIds(typed, uniqueIdFields));
  const booleanFields = part === 'querystring' ? fieldsWhere(typed, isBoolean) : [];
  const words = part === 'querystring' ? wordFields(typed) : [];
  return (data: unknown) => {
    const repeated = part === 'querystring' ? repeatedParameters(typed, data) : [];
    if (repeated.length > 0) return { error: Invalid(detailInWords(repeated[0]!), repeated) };
    const value = part === 'body' ? data : converted(typed, data, booleanFields, words);
    for (const field of uuidListFields) {
      const list = (value as Record<string, unknown> | null)?.[field];
      if (Array.isArray(list))
        list.forEach((id: unknown, index) => typeof id === 'string' && (list[index] = id.toLowerCase()));
    }
    if (!checker.Check(value)) {
      const details = errorDetails(checker.Errors(value), part, MAX_DETAILS + 1);
      const first = details[0];
      const message = first ? detailInWords(first) : 'Invalid request';
      // 100,000 bad ids would answer 100,000 details (6.6 MB for a 1.3 MB body: a probe): the first ones say enough.
      if (details.length <= MAX_DETAILS) return { error: Invalid(message, details) };
      const more = `${message} (and more: the first ${MAX_DETAILS} problems are in details)`;
      return { error: Invalid(more, details.slice(0, MAX_DETAILS)) };
    }
    const repeats = repeatedIds(value as Record<string, unknown>, uniqueIdFields, part);
    if (repeats.length > 0) return { error: Invalid(detailInWords(repeats[0]!), repeats) };
    for (const field of uuidFields) {
      const record = value as Record<string, unknown>;
      if (typeof record[field] === 'string') record[field] = record[field].toLowerCase();
    }
    return { value };
  };
};

/**
 * A known query parameter given twice (`?limit=10&limit=20`, Python's `doseq`): said so, where the check
 * of the list the query string makes of it would say "must be an integer". No query parameter is a list.
 */
function repeatedParameters(schema: TSchema, data: unknown): ErrorDetail[] {
  if (typeof data !== 'object' || data === null) return [];
  const known = (schema.properties ?? {}) as Record<string, TSchema>;
  return Object.entries(data)
    .filter(([name, value]) => Array.isArray(value) && Object.hasOwn(known, name) && known[name]!.type !== 'array')
    .map(([name]) => ({ path: `/querystring/${name}`, message: 'is given more than once' }));
}

function isInteger(schema: TSchema): boolean {
  return schema.type === 'integer' || ((schema.anyOf as TSchema[] | undefined)?.some(isInteger) ?? false);
}

/** A number written in decimals ("10", "1e3", "2.0"): not JavaScript's "0x10", "0b1" or "Infinity" (a walk's limit=0x10 was 16). */
const DECIMAL_NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/**
 * A query string's or path's text values as the schema's types. Integers are read here, as numbers
 * ("1e3" is 1000), since Value.Convert cuts "1.5" to 1: a text that is no integer stays text and is refused.
 */
function converted(
  schema: TSchema,
  data: unknown,
  booleanFields: readonly string[],
  words: readonly [string, string[]][] = [],
): unknown {
  if (typeof data !== 'object' || data === null) return Value.Convert(schema, data);
  const record = { ...(data as Record<string, unknown>) };
  for (const field of booleanFields) {
    const text = record[field];
    if (typeof text === 'string' && BOOLEAN_TEXT.test(text)) record[field] = /^(true|1)$/i.test(text);
  }
  // A word in another case is that word (a walk's script sent mode=UPSERT and was refused).
  for (const [field, choices] of words) {
    const text = record[field];
    if (typeof text !== 'string' || choices.includes(text)) continue;
    const word = choices.find((choice) => choice.toLowerCase() === text.toLowerCase());
    if (word !== undefined) record[field] = word;
  }
  for (const field of fieldsWhere(schema, isInteger)) {
    const text = record[field];
    if (typeof text === 'string' && DECIMAL_NUMBER.test(text) && Number.isInteger(Number(text)))
      record[field] = Number(text);
  }
  const integers = fieldsWhere(schema, isInteger).filter((field) => typeof record[field] === 'string');
  const kept = integers.map((field) => record[field]);
  // Value.Convert changes the object it is given (TypeBox 0.34).
  const value = Value.Convert(schema, record) as Record<string, unknown>;
  integers.forEach((field, index) => (value[field] = kept[index]));
  return value;
}

/** Checks a value against a body schema outside HTTP (the CLI, the environment): the API's details. */
export function bodyErrors(schema: TSchema, value: unknown): ErrorDetail[] {
  const checker = checkerOf(schema);
  return checker.Check(value) ? [] : errorDetails(checker.Errors(value), 'body');
}

const PARTS: Record<string, string> = {
  querystring: 'the query parameter ',
  params: 'the path parameter ',
  headers: 'the header ',
};

/**
 * A detail as the words of a 400's message, naming the field as the routes' own messages do ("name must
 * not be blank"): "name must be a string", "rows/3/city must be a string", "the query parameter limit must
 * be >= 1", "the body must be an object".
 */
export function detailInWords({ path, message }: ErrorDetail): string {
  const [, part = '', ...field] = path.split('/');
  if (field.length === 0) return `the ${part === 'querystring' ? 'query string' : part} ${message}`;
  return `${PARTS[part] ?? ''}${field.map(pointerToken).join('/')} ${message}`;
}

/** A JSON pointer's token as the key it names (RFC 6901: ~1 is /, ~0 is ~): "State ~1 province" is "State / province". */
export function pointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Details as one sentence for a person at a terminal: "email must match format "email"; password ...". */
export function detailsInWords(details: readonly ErrorDetail[]): string {
  return details.map(detailInWords).join('; ');
}

/** TypeBox's errors as the API's details: one JSON pointer and one plain sentence for each wrong value. */
export function errorDetails(errors: Iterable<ValueError>, part: string, limit = Infinity): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (details.length === limit) break;
    // A missing field is "is required", not also the wrong type: one message a value.
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    // A union's telling error inside the value names where it is: hours/xyz, not hours; through unions
    // inside unions, the time of hours/mon/0/0, not the day.
    const at = innermostTelling(error).path;
    details.push({ path: `/${part}${at}`, message: errorInWords(error) });
  }
  return details;
}

const TYPE_ERRORS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'a string',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.Integer]: 'an integer',
  [ValueErrorType.Boolean]: 'true or false',
  [ValueErrorType.Null]: 'null',
  [ValueErrorType.Object]: 'an object',
  [ValueErrorType.Array]: 'an array',
};

/** The most fields an unknown field's message lists: a longer list is the API's documentation. */
const FIELDS_LISTED = 12;

/**
 * The fields an object takes, after an unknown one's message: "set/phone is not a known field" alone read
 * as if a location had no phone, where the bulk edit's `set` takes a few fields only (a walk).
 */
function knownFieldsWords(schema: ValueError['schema']): string {
  const names = Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});
  if (names.length === 0 || names.length > FIELDS_LISTED) return '';
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return names.length === 1 ? `; the one field here is ${list}` : `; the fields here are ${list}`;
}

/**
 * One of TypeBox's errors in the API's words (the wording callers already know: "must NOT have fewer
 * than 8 characters", "must match format "email""). The import's rows word a few in a location's terms
 * (locations/rows.ts) and fall back to this.
 */
export function errorInWords(error: ValueError): string {
  const schema = error.schema;
  // JSON's 1e400 reads as Infinity, which no number field takes (a walk read "must be number or string").
  if (typeof error.value === 'number' && !Number.isFinite(error.value)) return 'must be a finite number';
  const type = TYPE_ERRORS[error.type];
  if (type !== undefined) return `must be ${type}`;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      return `is not a known field${knownFieldsWords(schema)}`;
    case ValueErrorType.ObjectMinProperties:
      return schema.minProperties === 1
        ? 'must name at least one field'
        : `must name at least ${String(schema.minProperties)} fields`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union:
      return unionInWords(error);
    default:
      return listInWords(error) ?? textInWords(error) ?? boundInWords(error) ?? error.message;
  }
}

function listInWords(error: ValueError): string | undefined {
  const { schema } = error;
  switch (error.type) {
    case ValueErrorType.ArrayMinItems:
      return schema.minItems === 1 ? 'must not be empty' : `must have at least ${String(schema.minItems)} items`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${String(schema.maxItems)} items`;
    case ValueErrorType.ArrayUniqueItems:
      return 'must NOT have duplicate items';
    // TypeBox's own words were "Expected tuple to have 2 elements" (a walk's hours interval of one time).
    case ValueErrorType.TupleLength:
      return `must be a list of ${String(schema.minItems)} items${schema.description ? ` (${String(schema.description)})` : ''}`;
    default:
      return undefined;
  }
}

/** What the API's patterns ask for, in words, by the pattern. */
const PATTERN_WORDS: Record<string, string> = {
  [TIME_OF_DAY_PATTERN]: 'must be a time as HH:MM on the 24-hour clock, such as "09:00" or "17:30"',
  [COUNTRY_CODE_PATTERN]: 'must be a country\'s two-letter ISO code in capitals, such as "US"',
};

function textInWords(error: ValueError): string | undefined {
  const { schema } = error;
  switch (error.type) {
    case ValueErrorType.StringMinLength:
      return `must NOT have fewer than ${String(schema.minLength)} characters`;
    case ValueErrorType.StringMaxLength:
      return `must NOT have more than ${String(schema.maxLength)} characters`;
    case ValueErrorType.StringPattern:
      // A pattern is no words for a person (a probe's "9:00" read `must match pattern "^\d{2}:\d{2}$"`).
      return PATTERN_WORDS[String(schema.pattern)] ?? `must match pattern "${String(schema.pattern)}"`;
    case ValueErrorType.StringFormat:
      if (schema.format === PLAIN_TEXT) return controlCharacterWords(String(error.value));
      // A time's + typed into a URL arrives as a space (a query string's + is a space): say how to send it.
      if (schema.format === 'date-time' && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)? \d{2}:\d{2}$/i.test(String(error.value)))
        return 'must match format "date-time": a + in a URL is read as a space, so write the offset\'s + as %2B';
      return `must match format "${String(schema.format)}"`;
    case ValueErrorType.StringFormatUnknown:
      return `must match format "${String(schema.format)}"`;
    default:
      return undefined;
  }
}

function boundInWords(error: ValueError): string | undefined {
  const { schema } = error;
  switch (error.type) {
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be >= ${String(schema.minimum)}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be <= ${String(schema.maximum)}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be > ${String(schema.exclusiveMinimum)}`;
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be < ${String(schema.exclusiveMaximum)}`;
    default:
      return undefined;
  }
}

// A union error's members' errors are iterators, read once: what was found is kept for the error.
const tellingFound = new WeakMap<ValueError, ValueError | null>();

/** Of a union's members, the first error that says more than "the wrong type": the one to word. */
function tellingOf(error: ValueError): ValueError | undefined {
  let telling = tellingFound.get(error);
  if (telling === undefined) {
    const inner = error.errors.map((member) => member.First()).filter((first) => first !== undefined);
    telling =
      inner.find((first) => TYPE_ERRORS[first.type] === undefined && first.type !== ValueErrorType.Literal) ?? null;
    tellingFound.set(error, telling);
  }
  return telling ?? undefined;
}

/** The error a union's words come from, through unions inside it: the error itself otherwise. */
export function innermostTelling(error: ValueError): ValueError {
  let inner = error;
  while (inner.type === ValueErrorType.Union) {
    const telling = tellingOf(inner);
    if (telling === undefined) break;
    inner = telling;
  }
  return inner;
}

/** JSON Schema's types as a union's words list them ("must be text or null", as the import's rows say). */
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/**
 * A value that matches no member of a union: the member of the value's own type says what is wrong
 * ("must NOT have more than 200 characters" for a too long text of a text-or-null field); otherwise the
 * allowed values or types are listed.
 */
function unionInWords(error: ValueError): string {
  const telling = tellingOf(error);
  if (telling !== undefined) return errorInWords(telling);
  const members = (error.schema.anyOf as TSchema[] | undefined) ?? [];
  // Allowed values, and maybe null: "must be one of "name", "city", or null".
  const values = members.filter((member) => member.type !== 'null');
  if (values.length > 0 && values.every((member) => 'const' in member)) {
    const listed = values.map((member) => JSON.stringify(member.const)).join(', ');
    return `must be one of ${listed}${values.length < members.length ? ', or null' : ''}`;
  }
  const types = members.map((member) => TYPE_NAMES[member.type as string] ?? 'a value');
  return `must be ${[...new Set(types)].join(' or ')}`;
}
