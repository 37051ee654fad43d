import { FormatRegistry, Type, type Static, type StringOptions } from '@sinclair/typebox';
import { controlCharacterWords } from './control-characters.js';

/** Shapes every feature shares. Each is the single source of truth for validation, serialization and the OpenAPI document. */

/** A time of day as the API writes it: HH:MM on the 24-hour clock (an interval's ends). */
export const TIME_OF_DAY_PATTERN = '^\\d{2}:\\d{2}$';
/** A country as its two-letter ISO code, in capitals. */
export const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$';

/** RFC 9562 UUIDs (versions 1-8), any case: the one definition of the 'uuid' format. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
// TypeBox's checker knows no formats: these are the only ones the schemas use (http/validation.ts checks them).
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID_PATTERN.test(value));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', isDateTime);
// The e-mail rule the API has always applied (ajv-formats' "full" mode, before TypeBox checked it alone).
const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (value) => EMAIL_PATTERN.test(value));
/**
 * A name or a short text a person types (a client's name, a token's, a mapping's): no control character,
 * refused in the words of a location's fields (http/validation.ts words the error by the same rule).
 */
export const PLAIN_TEXT = 'plain-text';
if (!FormatRegistry.Has(PLAIN_TEXT))
  FormatRegistry.Set(PLAIN_TEXT, (value) => controlCharacterWords(value) === undefined);
export const PlainText = (options: StringOptions = {}) => Type.String({ ...options, format: PLAIN_TEXT });
type Six = [number, number, number, number, number, number];

/** RFC 3339 date-time, a real day and time of it (what ajv-formats' "full" mode checked): not 2026-02-30. */
function isDateTime(value: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i.exec(value);
  if (parts === null) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as Six;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetValid = parts[9] === undefined || (Number(parts[9]) < 24 && Number(parts[10]) < 60);
  const dayValid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
  return dayValid && hour < 24 && minute < 60 && second <= 60 && offsetValid;
}
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp ending in Z' });

const [FIRST_INSTANT, LAST_INSTANT] = [Date.parse('0000-01-01T00:00:00Z'), Date.parse('9999-12-31T23:59:59.999Z')];

/**
 * A valid date-time (any offset, `t` and `z` in any case, a leap second) as the API writes its own: UTC,
 * milliseconds, ending in Z, within years 0000 to 9999. Stored timestamps compare as text, which is time
 * order only in that form.
 */
export function utcTimestamp(value: string): string {
  const instant = Date.parse(value.toUpperCase().replace(/(T\d{2}:\d{2}:)60(\.\d+)?/, '$159.999'));
  return new Date(Math.min(Math.max(instant, FIRST_INSTANT), LAST_INSTANT)).toISOString();
}
export const Role = Type.Union([Type.Literal('admin'), Type.Literal('viewer'), Type.Literal('client_viewer')], {
  description: 'admin (Admin), viewer (Viewer) or client_viewer (Client Viewer)',
});
export type Role = Static<typeof Role>;

export const ErrorDetail = Type.Object({
  path: Type.String({ description: 'JSON pointer to the wrong value, e.g. /rows/3/name' }),
  message: Type.String(),
  row: Type.Optional(Type.Integer({ description: 'Import row index' })),
  field: Type.Optional(Type.String({ description: 'Import row field' })),
  line: Type.Optional(Type.Integer({ description: "The row's line in the caller's sheet, when the row said it" })),
});

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(ErrorDetail)),
  },
  { description: 'Every error the API sends' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const Success = Type.Object({ success: Type.Literal(true) });

/** The largest page a list serves (an import's most rows); without `limit`, a list is served whole. */
export const MAX_PAGE_SIZE = 100_000;
// The largest integer a JSON number (a double) holds exactly: beyond, "rows to skip" means nothing, and
// SQLite refuses an OFFSET past 2^63 - 1 (a 500 before this maximum).
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export const Page = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Page size; all rows when absent' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: 'Rows to skip (at most 2^53 - 1)' }),
  ),
});

/** The error statuses a route can answer with, for its response schema. */
export function errors(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}
