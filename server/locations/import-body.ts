import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import type { ErrorDetail } from '../http/errors.js';
import { readTableBody, type TableFormat } from '../imports/table-body.js';
import { rowError, schemaErrors } from './rows.js';
import { MAX_IMPORT_ROWS, UploadBody } from './schemas.js';

/** An import's body, refused: the status and the words of the answer. */
export interface Refusal {
  statusCode: number;
  message: string;
  details?: ErrorDetail[];
}

// The body's envelope, from the route's schema; rows are checked one by one for per-row messages.
const envelope = TypeCompiler.Compile(
  Type.Object(
    { clientId: UploadBody.properties.clientId, rows: Type.Array(Type.Unknown()) },
    { additionalProperties: false },
  ),
);

/**
 * Values a body may hold: 40 a row of 100,000 rows is more than any real import (16 fields, 10 labels,
 * 7 days of hours). A body of millions of tiny values (16 million numbers fit in 32 MiB) would build
 * hundreds of megabytes of objects: it is refused after one scan of its bytes, before it is parsed.
 */
const MAX_VALUES = MAX_IMPORT_ROWS * 40;
/** Arrays and objects cost the most to build: a row, its labels, its hours and their intervals. */
const MAX_CONTAINERS = MAX_IMPORT_ROWS * 12;

/**
 * No field of a location takes a text longer than this (the longest take 1,000 characters, 6 bytes each
 * when escaped): a longer string in a body is refused from the scan of its bytes, before JSON.parse
 * would make two copies of it (the text, then the value).
 */
export const MAX_STRING_BYTES = 64 * 1024;

/** What the scan of a body's bytes refuses: too many values, or a string no field takes (its row and key). */
type ScanFinding = 'too many values' | { row: number; key: string; bytes: number };

/**
 * One pass over the bytes, no allocation: whether the text holds more JSON values than MAX_VALUES (its
 * commas, colons and brackets outside strings) or more arrays and objects than MAX_CONTAINERS, or a
 * string longer than MAX_STRING_BYTES, with the row (the objects two levels down) and the key it is under.
 */
function scanBody(bytes: Uint8Array): ScanFinding | null {
  let values = 0;
  let containers = 0;
  let depth = 0;
  let row = -1;
  let last = [-1, -1];
  let key = last;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const kind = KINDS[byte];
    if (kind === OTHER) continue;
    if (kind === STRING) {
      const end = stringEnd(bytes, i + 1);
      if (end - i - 1 > MAX_STRING_BYTES) return { row, key: keyText(bytes, key), bytes: end - i - 1 };
      last = [i + 1, end];
      i = end;
    } else if (kind === OPEN) {
      // The rows are the objects two levels down: {"rows": [{...}, ...]}.
      if (depth++ === 2 && byte === 0x7b) row++;
      if (++containers > MAX_CONTAINERS || ++values > MAX_VALUES) return 'too many values';
    } else if (kind === CLOSE) {
      depth--;
    } else {
      if (byte === 0x3a) key = last;
      if (++values > MAX_VALUES) return 'too many values';
    }
  }
  return null;
}

const QUOTE = 0x22;
const [OTHER, STRING, OPEN, CLOSE, SEPARATOR] = [0, 1, 2, 3, 4];
/** What each byte is to the scan outside strings: a quote, [ {, ] }, a comma or colon, or nothing. */
const KINDS = new Uint8Array(256);
KINDS[QUOTE] = STRING;
KINDS[0x5b] = KINDS[0x7b] = OPEN;
KINDS[0x5d] = KINDS[0x7d] = CLOSE;
KINDS[0x2c] = KINDS[0x3a] = SEPARATOR;

/** The index of the quote that ends the string starting at `from` (escapes skipped), or the length. */
function stringEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x5c) i++;
    else if (byte === QUOTE) return i;
  }
  return bytes.length;
}

/** The key a string was under, as JSON reads it ("" when there is none, or it is not a short string). */
function keyText(bytes: Uint8Array, [start, end]: number[]): string {
  if (start! < 0 || end! - start! > 200) return '';
  try {
    return JSON.parse(`"${Buffer.from(bytes.subarray(start, end)).toString('utf8')}"`) as string;
  } catch {
    return '';
  }
}

const tooComplex: Refusal = {
  statusCode: 413,
  message:
    'The body holds more values than an import can: a row is an object of a location\'s fields, and an import is {"clientId": ..., "rows": [...]}',
};

/**
 * The body parsed and its envelope checked: the client and the rows, or why not. JSON.parse only ever
 * makes `__proto__` an own property (it never sets a prototype), and the checks refuse every key but the
 * known ones, so a poisoning body is a 400 before any of it is used.
 */
export function parseImportBody(
  body: Uint8Array,
  format?: TableFormat,
): { clientId: string; rows: unknown[]; answerMembers?: string } | Refusal {
  if (format !== undefined) return readTableBody(body, format);
  const finding = scanBody(body);
  if (finding === 'too many values') return tooComplex;
  if (finding !== null) return tooLong(finding);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (error) {
    return { statusCode: 400, message: `The body is not valid JSON: ${(error as Error).message}` };
  }
  if (!envelope.Check(value)) {
    const details = schemaErrors(envelope.Errors(value), (field, message) => ({
      path: `/${field}`,
      message:
        field === 'clientId' && message === 'must be text or null' ? 'must be a UUID' : envelopeWords(field, message),
    }));
    return { statusCode: 400, message: 'The import body is not valid', details };
  }
  if (value.rows.length > MAX_IMPORT_ROWS) {
    return {
      statusCode: 413,
      message: `An import takes at most ${MAX_IMPORT_ROWS} rows; this one has ${value.rows.length}. Send it in parts.`,
    };
  }
  // UUIDs are case-insensitive on input (RFC 9562); ids are stored in lower case.
  return { clientId: value.clientId.toLowerCase(), rows: value.rows };
}

function tooLong({ row, key, bytes }: { row: number; key: string; bytes: number }): Refusal {
  const message = `is ${bytes.toLocaleString('en')} bytes long: no field of a location takes more than 1,000 characters`;
  return {
    statusCode: 400,
    message: row < 0 ? `A value of the body ${message}` : `1 row is not valid; nothing was imported`,
    ...(row < 0 ? {} : { details: [rowError(row, key, message)] }),
  };
}

function envelopeWords(field: string, message: string): string {
  if (field === '') return 'must be an object with clientId and rows';
  if (message.includes('not a field of a location')) return `"${field}" is not a field of an import`;
  if (field === 'rows' && message !== 'is required') return 'must be an array of locations';
  if (field === 'clientId' && message !== 'is required') return 'must be a UUID';
  return message;
}
