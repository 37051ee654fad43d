import { expect } from 'vitest';

export interface ErrorBodyShape {
  statusCode: number;
  error: string;
  message: string;
  details?: { path: string; message: string; row?: number; field?: string }[];
}

/** A stack frame as V8 prints it ("    at fn (file.ts:1:2)"), or a source file path of the server. */
const STACK = /\n\s+at |\bat [\w.<>]+ \(|\.(ts|js):\d+:\d+/;

/**
 * The API's one error body: exactly {statusCode, error, message} plus details for validation errors,
 * sent as JSON, with the status it names and no stack anywhere.
 */
export function expectErrorBody(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
): ErrorBodyShape {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(response.body).not.toMatch(STACK);
  const body = JSON.parse(response.body) as ErrorBodyShape;
  expect(Object.keys(body).sort()).toEqual(
    body.details === undefined ? ['error', 'message', 'statusCode'] : ['details', 'error', 'message', 'statusCode'],
  );
  expect(body.statusCode).toBe(status);
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if (body.details !== undefined) {
    expect(Array.isArray(body.details)).toBe(true);
    for (const detail of body.details) {
      expect(typeof detail.path).toBe('string');
      expect(typeof detail.message).toBe('string');
    }
  }
  return body;
}
