import secureJson from 'secure-json-parse';
import { HttpError } from './errors.js';

/**
 * Parses a JSON body. A `__proto__` or `constructor.prototype` key is refused (prototype poisoning),
 * never honoured or silently dropped.
 */
export function parseJson(text: string): unknown {
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const message = (error as Error).message;
    throw new HttpError(
      400,
      /prototype/i.test(message) ? 'The body contains a forbidden property' : `The body is not valid JSON: ${message}`,
    );
  }
}

/** Trimmed text, or null when absent or blank: how every optional text field is stored. */
export function textOrNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
