import type { Readable } from 'node:stream';
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

/**
 * A request body as one Buffer of at most `limit` bytes. With a Content-Length, the bytes are copied into
 * a buffer of that size as they arrive (Fastify's own reader keeps every chunk and then a joined copy:
 * twice the body, 64 MiB for a 32 MiB import); without one, chunks are joined once at the end.
 */
export function readBody(stream: Readable, limit: number, declaredLength: number | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new HttpError(413, `The request body is larger than the limit of ${(limit / 1048576).toFixed(0)} MiB`);
    if (declaredLength !== undefined && declaredLength > limit) {
      stream.resume();
      reject(tooLarge());
      return;
    }
    const whole = declaredLength === undefined ? null : Buffer.allocUnsafeSlow(declaredLength);
    const chunks: Buffer[] = [];
    let received = 0;
    stream.on('data', (chunk: Buffer) => {
      if (received + chunk.length > (whole?.length ?? limit)) {
        stream.removeAllListeners('data');
        stream.resume();
        reject(whole !== null && received + chunk.length <= limit ? lengthMismatch() : tooLarge());
        return;
      }
      if (whole !== null) chunk.copy(whole, received);
      else chunks.push(chunk);
      received += chunk.length;
    });
    stream.on('error', reject);
    stream.on('end', () => {
      if (whole === null) resolve(Buffer.concat(chunks, received));
      else if (received === whole.length) resolve(whole);
      else reject(lengthMismatch());
    });
  });
}

function lengthMismatch(): HttpError {
  return new HttpError(400, 'The Content-Length header does not match the body');
}
