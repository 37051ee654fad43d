import type { ApiErrorBody, ApiErrorDetail } from './types.js';
import { NOT_ANSWERING_STATUSES, serverAnswered, serverNotAnswering } from './connection.js';

/** An answer of the API other than 2xx (status 0: the server could not be reached). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ApiErrorDetail[] = [],
    /** Seconds to wait, from Retry-After, when the server throttles (429). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A plain copy of an ApiError that survives postMessage between the import worker and the page. */
export interface ApiErrorInfo {
  status: number;
  message: string;
  details: ApiErrorDetail[];
  retryAfter: number | null;
}

export const toErrorInfo = (error: ApiError): ApiErrorInfo => ({
  status: error.status,
  message: error.message,
  details: error.details,
  retryAfter: error.retryAfter,
});
export const fromErrorInfo = (info: ApiErrorInfo): ApiError =>
  new ApiError(info.status, info.message, info.details, info.retryAfter);

export const UNREACHABLE = 'The Agency Desk server did not answer. Check that it is running, then try again.';

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).message === 'string';
}

/** The ApiError for a non-2xx answer, with the server's own message when its body has one. */
export function errorOf(status: number, bodyText: string, retryAfterHeader: string | null): ApiError {
  let body: unknown = null;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // A proxy or a crash can answer with HTML or nothing; the status alone must then speak.
  }
  const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : null;
  if (isErrorBody(body)) return new ApiError(status, body.message, body.details ?? [], retryAfter);
  return new ApiError(status, `The server answered ${status} without an explanation.`, [], retryAfter);
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A value to send as JSON, or a body already serialized. */
  json?: unknown;
  body?: string;
  token?: string | null;
  signal?: AbortSignal;
}

export interface ApiAnswer<T> {
  data: T;
  headers: Headers;
}

/** One call of the HTTP API: JSON in, JSON out, errors as ApiError. Paths are relative to the dashboard's origin. */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const body = request.body ?? (request.json === undefined ? undefined : JSON.stringify(request.json));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  let response: Response;
  try {
    response = await fetch(path, { method: request.method ?? 'GET', headers, body, signal: request.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    serverNotAnswering();
    throw new ApiError(0, UNREACHABLE);
  }
  if (NOT_ANSWERING_STATUSES.has(response.status)) serverNotAnswering();
  else serverAnswered();
  const text = await response.text();
  if (!response.ok) throw errorOf(response.status, text, response.headers.get('Retry-After'));
  return { data: (text === '' ? null : JSON.parse(text)) as T, headers: response.headers };
}
