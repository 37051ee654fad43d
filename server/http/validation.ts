import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext the plugin is its `default`.
const addFormats = formats.default;
import type { FastifyRouteSchemaDef, FastifySchemaCompiler } from 'fastify/types/schema.js';
import type { ErrorDetail } from './errors.js';
import { UUID_PATTERN } from './schemas.js';

function ajv(coerceTypes: boolean): Ajv {
  const instance = new Ajv({
    coerceTypes,
    // Never drop or fill anything silently: an unknown property is a 400, not a surprise.
    removeAdditional: false,
    useDefaults: false,
    allErrors: true,
    strict: false,
  });
  addFormats(instance, ['email', 'date-time']);
  instance.addFormat('uuid', UUID_PATTERN);
  return instance;
}

// Bodies are JSON and must carry the types the schema says: "5" is not 5 and 5 is not "5".
const strict = ajv(false);
// Query strings and path parameters are text by nature: "limit=10" may become 10.
const coercing = ajv(true);

type JsonSchema = { format?: string; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };

function isUuid(schema: JsonSchema): boolean {
  return schema.format === 'uuid' || (schema.anyOf?.some(isUuid) ?? false);
}

function isBoolean(schema: JsonSchema & { type?: unknown }): boolean {
  return schema.type === 'boolean' || (schema.anyOf?.some(isBoolean) ?? false);
}

const BOOLEAN_TEXT = /^(true|false|1|0)$/i;

/** The names of a schema's properties that pass the test. */
function fieldsWhere(schema: JsonSchema, test: (property: JsonSchema) => boolean): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => test(property))
    .map(([name]) => name);
}

/**
 * Validates, then writes UUIDs in lower case: ids are stored that way, and RFC 9562 says UUIDs are
 * case-insensitive on input, so `A553502C-...` names the same client as `a553502c-...`. A boolean in a
 * query string may be written true/false/1/0 in any case (Python's requests sends `True`).
 */
export const compileValidator: FastifySchemaCompiler<unknown> = ({
  schema,
  httpPart,
}: FastifyRouteSchemaDef<unknown>) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema as object);
  const uuidFields = fieldsWhere(schema as JsonSchema, isUuid);
  const booleanFields = httpPart === 'querystring' ? fieldsWhere(schema as JsonSchema, isBoolean) : [];
  if (uuidFields.length === 0 && booleanFields.length === 0) return validate;
  const validateAndNormalize = (data: unknown) => {
    const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    for (const field of booleanFields) {
      const value = record[field];
      if (typeof value === 'string' && BOOLEAN_TEXT.test(value)) record[field] = /^(true|1)$/i.test(value);
    }
    const valid = validate(data);
    validateAndNormalize.errors = validate.errors;
    if (valid) {
      for (const field of uuidFields) {
        const value = record[field];
        if (typeof value === 'string') record[field] = value.toLowerCase();
      }
    }
    return valid;
  };
  validateAndNormalize.errors = validate.errors;
  return validateAndNormalize;
};

const checks = new WeakMap<object, ValidateFunction>();

/** Checks a value against a body schema outside HTTP (the CLI, the environment): the API's details. */
export function bodyErrors(schema: object, value: unknown): ErrorDetail[] {
  let check = checks.get(schema);
  if (check === undefined) {
    check = strict.compile(schema);
    checks.set(schema, check);
  }
  return check(value) ? [] : validationDetails(check.errors ?? [], 'body');
}

/** Details as one sentence for a person at a terminal: "email must match format "email"; password ...". */
export function detailsInWords(details: readonly ErrorDetail[]): string {
  return details.map((detail) => `${detail.path.replace(/^\/body\//, '')} ${detail.message}`).join('; ');
}

/** Ajv's errors as the API's details: one JSON pointer and one plain sentence each. */
export function validationDetails(errors: readonly ErrorObject[], part: string): ErrorDetail[] {
  return errors.map((error) => {
    const missing =
      error.keyword === 'required' ? `/${(error.params as { missingProperty: string }).missingProperty}` : '';
    const extra =
      error.keyword === 'additionalProperties'
        ? `/${(error.params as { additionalProperty: string }).additionalProperty}`
        : '';
    const path = `${error.instancePath}${missing}${extra}`;
    const message =
      error.keyword === 'required'
        ? 'is required'
        : error.keyword === 'additionalProperties'
          ? 'is not a known field'
          : (error.message ?? 'is not valid');
    return { path: `/${part}${path}`, message };
  });
}
