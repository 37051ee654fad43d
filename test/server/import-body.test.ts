import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseImportBody, type RowSource } from '../../server/locations/import-body.js';

/**
 * A JSON import body's rows are parsed a piece at a time from its bytes (server/locations/import-body.ts):
 * whatever the body, the rows handed out must be JSON.parse's, and a body that is not JSON must be
 * refused in JSON.parse's words, whichever piece holds the fault.
 */
const CLIENT = '00000000-0000-4000-8000-0000000000c1';
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Every row, asked for in pieces of `size`; or the first refusal. */
function readAll(rows: RowSource, size: number): unknown[] | { statusCode: number; message: string } {
  const all: unknown[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const piece = rows.piece(start, Math.min(start + size, rows.length));
    if (!Array.isArray(piece)) return piece;
    all.push(...piece);
  }
  return all;
}

function parsed(text: string, size = 2) {
  const body = parseImportBody(bytesOf(text));
  if ('statusCode' in body) return body;
  const rows = readAll(body.rows, size);
  return Array.isArray(rows) ? { clientId: body.clientId, rows } : rows;
}

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `The body is not valid JSON: ${(error as Error).message}`;
  }
  throw new Error('the text is JSON');
}

describe('a JSON import body read a piece at a time', () => {
  it('hands out exactly the rows JSON.parse reads, for any rows, pieces and spacing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(undefined, ' ', '\t', 2),
        fc.boolean(),
        (rows, size, gap, rowsFirst) => {
          const body = rowsFirst ? { rows, clientId: CLIENT } : { clientId: CLIENT, rows };
          const text = JSON.stringify(body, null, gap);
          expect(parsed(text, size)).toEqual({ clientId: CLIENT, rows: JSON.parse(JSON.stringify(rows)) });
        },
      ),
    );
  });

  it.each([
    ['no rows', `{"clientId":"${CLIENT}","rows":[]}`],
    ['blank rows', `{"clientId":"${CLIENT}","rows":[ \n ]}`],
    ['texts holding commas and brackets', `{"clientId":"${CLIENT}","rows":[{"name":"a, [b]}"}, "x,]", [1,[2,3]]]}`],
    ['escaped quotes', `{"clientId":"${CLIENT}","rows":[{"name":"say \\"hi\\", [x]"},{"name":"\\\\"}]}`],
    ['an escaped rows key', `{"clientId":"${CLIENT}","r\\u006fws":[{"name":"Escaped"}]}`],
    ['rows that are not an array', `{"clientId":"${CLIENT}","rows":{"0":{"name":"x"}}}`],
    ['unicode and lone surrogates', `{"clientId":"${CLIENT}","rows":[{"name":"Café \\ud800 ☕"},{"name":"日本"}]}`],
  ])('%s: as JSON.parse reads it', (_, text) => {
    const expected = JSON.parse(text) as { clientId: string; rows: unknown };
    const answer = parsed(text);
    if (Array.isArray(expected.rows)) expect(answer).toEqual({ clientId: CLIENT, rows: expected.rows });
    else
      expect(answer).toMatchObject({
        statusCode: 400,
        message: 'The import body is not valid: rows must be an array of locations',
      });
  });

  it('a repeated rows key is refused, where JSON.parse would keep the last one silently', () => {
    const text = `{"rows":[{"name":"Dropped"}],"clientId":"${CLIENT}","rows":[{"name":"Kept"}]}`;
    expect(parsed(text)).toEqual({
      statusCode: 400,
      message:
        'The body gives "rows" more than once (JSON would keep only the last): give it once. Nothing was imported.',
    });
  });

  it.each([
    ['a trailing comma in the rows', `{"clientId":"${CLIENT}","rows":[{"name":"a"},]}`],
    ['two rows without a comma', `{"clientId":"${CLIENT}","rows":[{"name":"a"} {"name":"b"}]}`],
    ['an empty element', `{"clientId":"${CLIENT}","rows":[{"name":"a"},,{"name":"b"}]}`],
    [
      'a fault in a later row',
      `{"clientId":"${CLIENT}","rows":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d",}]}`,
    ],
    ['text after the body', `{"clientId":"${CLIENT}","rows":[{"name":"a"}]} x`],
    ['a second body', `{"clientId":"${CLIENT}","rows":[{"name":"a"}]}{}`],
    ['an unclosed rows array', `{"clientId":"${CLIENT}","rows":[{"name":"a"}`],
    ['a byte order mark after a space', ` \uFEFF{"clientId":"${CLIENT}","rows":[{"name":"a"}]}`],
    ['a bad literal in a row', `{"clientId":"${CLIENT}","rows":[{"name":tru}]}`],
  ])('%s: refused in JSON.parse words', (_, text) => {
    expect(parsed(text, 1)).toEqual({ statusCode: 400, message: jsonParseMessage(text) });
  });

  it('a byte order mark at the start is skipped, as for every JSON body of the API', () => {
    expect(parsed(`\uFEFF{"clientId":"${CLIENT}","rows":[{"name":"a"},{"name":"b"}]}`, 1)).toEqual({
      clientId: CLIENT,
      rows: [{ name: 'a' }, { name: 'b' }],
    });
  });

  it('a piece holds only its own rows: each is parsed once, in order', () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ name: `Row ${i}` }));
    const body = parseImportBody(bytesOf(JSON.stringify({ clientId: CLIENT, rows })));
    if ('statusCode' in body) throw new Error(body.message);
    expect(body.rows.length).toBe(7);
    expect(body.rows.piece(0, 3)).toEqual(rows.slice(0, 3));
    expect(body.rows.piece(3, 7)).toEqual(rows.slice(3));
  });
});

/** The bytes cut at these offsets: a body in the pieces it came off the socket in. */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const offsets = [...new Set(at.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const offset of [...offsets, bytes.length]) {
    pieces.push(bytes.slice(from, offset));
    from = offset;
  }
  return pieces;
}

/** What the body reads as: its client and every row, or its refusal. */
function readBody(body: Uint8Array | Uint8Array[]) {
  const read = parseImportBody(body);
  if ('statusCode' in read) return read;
  const rows = readAll(read.rows, 3);
  return Array.isArray(rows) ? { clientId: read.clientId, rows } : rows;
}

describe('a JSON import body read in the pieces it arrived in, never joined', () => {
  it('reads as the whole body does, wherever the pieces end: inside a character, a string, an escape', () => {
    const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.constantFrom('name', 'city', 'a\\"b', 'é'), value), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom(undefined, ' ', 2),
        fc.boolean(),
        (rows, at, gap, bom) => {
          const text = `${bom ? '\uFEFF' : ''}${JSON.stringify({ clientId: CLIENT, rows }, null, gap)}`;
          const bytes = bytesOf(text);
          expect(readBody(cut(bytes, at))).toEqual(readBody(bytes));
        },
      ),
    );
  });

  it('refuses bytes that are not UTF-8 as the whole body is refused, a character split or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.array(fc.nat(), { maxLength: 6 }), (junk, at) => {
        const bytes = new Uint8Array([
          ...bytesOf(`{"clientId":"${CLIENT}","rows":[{"name":"`),
          ...junk,
          ...bytesOf('"}]}'),
        ]);
        expect(readBody(cut(bytes, at))).toEqual(readBody(bytes));
      }),
    );
  });

  it('a body split into pieces of one byte each reads as the whole', () => {
    const bytes = bytesOf(
      JSON.stringify({ clientId: CLIENT, rows: [{ name: 'Café "Ü" \\ 😀', city: 'Zürich' }, { name: 'b' }] }),
    );
    const pieces = [...bytes].map((byte) => new Uint8Array([byte]));
    expect(readBody(pieces)).toEqual(readBody(bytes));
    expect(readBody(pieces)).toMatchObject({ rows: [{ name: 'Café "Ü" \\ 😀' }, { name: 'b' }] });
  });
});
