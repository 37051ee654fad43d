import type { Readable } from 'node:stream';
import secureJson from 'secure-json-parse';
import { HttpError, Invalid } from './errors.js';
import { detailInWords } from './validation.js';

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

// With the u flag a well-formed surrogate pair is one code point: only a lone half matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What a field with a lone surrogate is told, everywhere (JSON bodies here, import rows in locations/fields.ts). */
export const LONE_SURROGATE_WORDS = 'is not valid Unicode (a lone surrogate)';

/** Whether the text holds half of a surrogate pair alone: never stored, never rewritten. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

interface Frame {
  container: unknown[] | Record<string, unknown>;
  /** Null for an array. */
  keys: string[] | null;
  /** The member being looked at (its pointer token), -1 before the first. */
  index: number;
}

/**
 * The JSON pointer (RFC 6901) of the first string, in document order, that holds a lone UTF-16 surrogate
 * (`"x\ud800y"`), or null when every string is well-formed. Object keys count as strings: a bad key
 * names its own member. '' is the value itself. Such text cannot be stored as UTF-8 without being
 * rewritten (SQLite would keep U+FFFD), so the API refuses it instead. Iterative: any depth.
 */
export function loneSurrogatePath(value: unknown): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? '' : null;
  if (typeof value !== 'object' || value === null) return null;
  const stack: Frame[] = [frameOf(value)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    frame.index += 1;
    const count = frame.keys === null ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.index >= count) {
      stack.pop();
      continue;
    }
    const key = frame.keys === null ? frame.index : frame.keys[frame.index]!;
    if (typeof key === 'string' && LONE_SURROGATE.test(key)) return pointerOf(stack);
    const child = (frame.container as Record<string | number, unknown>)[key];
    if (typeof child === 'string') {
      if (LONE_SURROGATE.test(child)) return pointerOf(stack);
    } else if (typeof child === 'object' && child !== null) {
      stack.push(frameOf(child));
    }
  }
  return null;
}

function frameOf(value: object): Frame {
  return Array.isArray(value)
    ? { container: value, keys: null, index: -1 }
    : { container: value as Record<string, unknown>, keys: Object.keys(value), index: -1 };
}

function pointerOf(stack: readonly Frame[]): string {
  return stack
    .map((frame) => {
      const token = frame.keys === null ? String(frame.index) : frame.keys[frame.index]!;
      return `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    })
    .join('');
}

/**
 * The 400 for a lone surrogate at `pointer` in the request part `part` ('body'), naming the field.
 * The pointer's own lone surrogates (a bad key) are written as \uXXXX escapes in the message.
 */
export function loneSurrogateError(pointer: string, part = 'body'): HttpError {
  const message = LONE_SURROGATE_WORDS;
  const shown = pointer.replace(/[\uD800-\uDFFF]/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
  return Invalid(shown === '' ? `The ${part} ${message}` : `${shown.slice(1)} ${message}`, [
    { path: `/${part}${pointer}`, message },
  ]);
}

/** An object or array open in a JSON text being scanned: its keys so far (null for an array), and where the scan is in it. */
interface ScanFrame {
  keys: Set<string> | null;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** The member being read: its key, or its index in an array. */
  token: string | number;
}

/** The index of the quote that ends the string whose opening quote is at `start` (-1: unterminated). */
function stringEnd(text: string, start: number): number {
  for (let at = text.indexOf('"', start + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * The JSON pointer of the first key an object of this (valid) JSON text gives twice, or null. JSON.parse
 * keeps the last silently: `{"ids": [A], "ids": [B]}` would delete B, and a body is refused instead, as
 * the import's is (a probe). One pass: strings are skipped by indexOf, a key is decoded only when read.
 */
export function repeatedKeyPointer(text: string): string | null {
  const stack: ScanFrame[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const top = stack[stack.length - 1];
    if (code === 0x22) {
      const end = stringEnd(text, at);
      if (end < 0) return null;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        top.token = key;
        if (top.keys.has(key)) return pointerOfTokens(stack);
        top.keys.add(key);
        top.expectKey = false;
      }
      at = end;
    } else if (code === 0x7b) stack.push({ keys: new Set(), expectKey: true, token: '' });
    else if (code === 0x5b) stack.push({ keys: null, expectKey: false, token: 0 });
    else if (code === 0x7d || code === 0x5d) stack.pop();
    else if (code === 0x2c && top !== undefined) {
      if (top.keys) top.expectKey = true;
      else top.token = (top.token as number) + 1;
    }
  }
  return null;
}

/** The 400 for a key given twice at `pointer` in a body, naming it as a validation error names a field. */
export function repeatedKeyError(pointer: string): HttpError {
  const detail = {
    path: `/body${pointer}`,
    message: 'is given more than once (JSON would keep only the last): give it once',
  };
  return Invalid(detailInWords(detail), [detail]);
}

function pointerOfTokens(stack: readonly ScanFrame[]): string {
  return stack.map(({ token }) => `/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Bodies of this many bytes held at once leave enough freed memory behind to give it back. */
const DRAINED_AFTER_BYTES = 1024 * 1024;

/**
 * Request body bytes held in memory at once, across every request the budget is shared by: a cap on
 * what many slow or parallel senders can make the server hold, whatever each body's own limit.
 */
export class BodyBudget {
  private used = 0;
  /** The most held at once since the budget last ran dry. */
  private held = 0;

  /**
   * `onDrained` is called when nothing is held any more after at least DRAINED_AFTER_BYTES were held at
   * once: the moment to give the freed memory back (server/memory.ts).
   */
  constructor(
    readonly limit: number,
    private readonly onDrained: () => void = () => undefined,
  ) {}

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    this.held = Math.max(this.held, this.used);
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
    if (this.used > 0 || this.held < DRAINED_AFTER_BYTES) return;
    this.held = 0;
    this.onDrained();
  }

  get inUse(): number {
    return this.used;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A JSON request body as text: at most `limit` bytes (413 beyond, at once when Content-Length says so),
 * each chunk taken from the shared `budget` while the body is read and given back when reading ends
 * (503 when the server already holds its budget's worth), and decoded as strict UTF-8: a byte sequence
 * that is not UTF-8 is a 400, never rewritten as U+FFFD.
 */
export function readJsonText(
  stream: Readable,
  limit: number,
  declaredLength: number | undefined,
  budget: BodyBudget,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (declaredLength !== undefined && declaredLength > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error: HttpError | null, text?: string) => {
      if (settled) return;
      settled = true;
      budget.give(received);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      chunks.length = 0;
      if (error !== null) reject(error);
      else resolve(text!);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > limit) return finish(tooLarge(limit));
      if (!budget.take(chunk.length)) return finish(busy());
      chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      if (declaredLength !== undefined && received !== declaredLength) return finish(lengthMismatch());
      let text: string;
      try {
        text = UTF8.decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      } catch {
        return finish(new HttpError(400, 'The body is not valid UTF-8'));
      }
      finish(null, text);
    };
    const onError = () => finish(new HttpError(400, 'The request body could not be read'));
    // A client that goes away mid-body: its bytes go back to the budget.
    const onClose = () => finish(new HttpError(400, 'The request body was cut short'));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    stream.resume();
  });
}

function tooLarge(limit: number): HttpError {
  const size = limit >= 1048576 ? `${(limit / 1048576).toFixed(0)} MiB` : `${(limit / 1024).toFixed(0)} KiB`;
  return new HttpError(413, `The request body is larger than the limit of ${size}`);
}

function busy(): HttpError {
  return new HttpError(503, 'The server is receiving too much at once: try again in a moment', undefined, {
    'retry-after': '1',
  });
}

/** Trimmed text, or null when absent or blank: how every optional text field is stored. */
export function textOrNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * A request body's bytes in the pieces they arrived in, each a view of an ArrayBuffer no other piece
 * shares: the pieces move to a worker thread (transferred, not copied) and are joined there.
 */
export class BodyPieces {
  constructor(
    readonly pieces: Uint8Array[],
    readonly byteLength: number,
  ) {}
}

/** The pieces as one run of bytes: the one piece itself, else a copy of them all, in order. */
export function joinPieces(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const whole = new Uint8Array(pieces.reduce((length, piece) => length + piece.byteLength, 0));
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.byteLength;
  }
  return whole;
}

/** Chunks smaller than this are gathered into one buffer: a body trickled in bytes is not a million pieces. */
const SMALL_CHUNK = 16 * 1024;
const GATHER_BYTES = 256 * 1024;

/**
 * Keeps a body's chunks as they arrive, without joining them. A socket's chunk has an ArrayBuffer of its
 * own and is kept as it is; one that shares its ArrayBuffer (a Buffer from Node's pool) is copied, since
 * transferring it would detach the others; small chunks are gathered into buffers of GATHER_BYTES.
 */
class PieceCollector {
  readonly pieces: Uint8Array[] = [];
  private gather: Uint8Array | null = null;
  private gathered = 0;

  /**
   * `expected`: how many more bytes the body may still bring, this chunk's included (readBody refuses a
   * chunk past it): the gather is no bigger, and never smaller than the chunk.
   */
  add(chunk: Buffer, expected: number): void {
    if (chunk.length < SMALL_CHUNK) return this.addSmall(chunk, expected);
    this.closeGather();
    const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    this.pieces.push(own ? chunk : new Uint8Array(chunk));
  }

  private addSmall(chunk: Buffer, expected: number): void {
    if (this.gather !== null && this.gathered + chunk.length > this.gather.length) this.closeGather();
    this.gather ??= new Uint8Array(Math.min(GATHER_BYTES, expected));
    this.gather.set(chunk, this.gathered);
    this.gathered += chunk.length;
  }

  /** The pieces, the last gathered bytes included. */
  finish(): Uint8Array[] {
    this.closeGather();
    return this.pieces;
  }

  private closeGather(): void {
    if (this.gather === null) return;
    this.pieces.push(this.gather.subarray(0, this.gathered));
    this.gather = null;
    this.gathered = 0;
  }
}

/**
 * A request body of at most `limit` bytes, in the pieces it arrived in (BodyPieces). Nothing is copied on
 * this event loop: copying 32 MiB into a fresh buffer here, a chunk at a time, faulted its pages in and
 * held the loop for 20 to 30 ms at a time while an import arrived (npm run bench: the GET waits during
 * imports); the worker that reads the body joins the pieces. The bytes are taken from the shared `budget`
 * (503 when they do not fit: the declared length before anything is read, else each chunk as it comes)
 * and stay taken once read: the caller gives `byteLength` back when it is done with the body (an import:
 * once the writer has answered). A failed read gives back itself.
 */
export function readBody(
  stream: Readable,
  limit: number,
  declaredLength: number | undefined,
  budget: BodyBudget,
): Promise<BodyPieces> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new HttpError(413, `The request body is larger than the limit of ${(limit / 1048576).toFixed(0)} MiB`);
    if (declaredLength !== undefined && declaredLength > limit) {
      stream.resume();
      reject(tooLarge());
      return;
    }
    if (declaredLength !== undefined && !budget.take(declaredLength)) {
      stream.resume();
      reject(busy());
      return;
    }
    const collector = new PieceCollector();
    let received = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stream.removeAllListeners('data');
      stream.resume();
      collector.pieces.length = 0;
      budget.give(declaredLength ?? received);
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      if (received + chunk.length > (declaredLength ?? limit)) {
        fail(declaredLength !== undefined && received + chunk.length <= limit ? lengthMismatch() : tooLarge());
        return;
      }
      if (declaredLength === undefined && !budget.take(chunk.length)) return fail(busy());
      collector.add(chunk, (declaredLength ?? limit) - received);
      received += chunk.length;
    });
    stream.on('error', fail);
    // A client that goes away mid-body: its bytes go back to the budget.
    stream.on('close', () => fail(new HttpError(400, 'The request body was cut short')));
    stream.on('end', () => {
      if (declaredLength !== undefined && received !== declaredLength) return fail(lengthMismatch());
      if (settled) return;
      settled = true;
      resolve(new BodyPieces(collector.finish(), received));
    });
  });
}

function lengthMismatch(): HttpError {
  return new HttpError(400, 'The Content-Length header does not match the body');
}
