import { STATUS_CODES } from 'node:http';
import { isBlank } from './control-characters.js';

export interface ErrorDetail {
  /** JSON pointer into the request part that is wrong, e.g. "/rows/3/name". */
  path: string;
  message: string;
  /** For import rows: the row's index in `rows` and the field. */
  row?: number;
  field?: string;
  /** The row's line in the caller's sheet, when the row carried it (`line`). */
  line?: number;
}

/** The one error body the API ever sends (README: "Errors"). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: ErrorDetail[];
}

/** A typed error; the app's single error handler turns it into an ErrorBody. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return errorBody(this.statusCode, this.message, this.details);
  }
}

export function errorBody(statusCode: number, message: string, details?: ErrorDetail[]): ErrorBody {
  const body: ErrorBody = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
  if (details !== undefined) body.details = details;
  return body;
}

export const Invalid = (message: string, details?: ErrorDetail[]) => new HttpError(400, message, details);
export const Unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const Forbidden = (message = 'You do not have permission to do this') => new HttpError(403, message);
export const NotFound = (message: string) => new HttpError(404, message);
export const Conflict = (message: string) => new HttpError(409, message);
export const PayloadTooLarge = (message: string) => new HttpError(413, message);
export const TooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });

/**
 * A name as sent, trimmed, for a route to keep; a 400 naming the body's field when the name shows nothing
 * (isBlank: blanks, direction marks, zero-width spaces). The schema has already refused control characters.
 */
export function nameOrRefusal(text: string, field: string): string {
  const name = text.trim();
  if (isBlank(name))
    throw Invalid(`${field} must not be blank`, [{ path: `/body/${field}`, message: 'must not be blank' }]);
  return name;
}
