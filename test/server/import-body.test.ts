import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyNotJson, splitImportBody } from '../../server/locations/import-body.js';

/**
 * The split parse of an import body (server/locations/import-body.ts) must be indistinguishable from
 * JSON.parse of the whole body: same rows, same envelope, same SyntaxError message, for any bytes.
 */

const BATCH_SIZES = [1, 2, 3, 7, 500];

/** What JSON.parse makes of the whole body decoded as UTF-8. */
type Whole = { ok: true; value: unknown } | { ok: false; message: string };

function parseWhole(body: Uint8Array): Whole {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body).toString('utf8')) as unknown };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { ok: false, message: error.message };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality that also sees key order (JSON.stringify follows own key order). */
function expectSameJson(actual: unknown, expected: unknown, what: string): void {
  expect(actual, what).toEqual(expected);
  expect(JSON.stringify(actual), `${what} (key order)`).toBe(JSON.stringify(expected));
}

function expectSameSyntaxError(error: unknown, whole: Whole, where: string): void {
  if (!(error instanceof BodyNotJson)) throw error;
  if (whole.ok) expect.fail(`${where} threw BodyNotJson (${error.message}) but JSON.parse accepts the body`);
  expect(error.message, where).toBe(whole.message);
}

/**
 * How the split took the body: 'undefined' (left to JSON.parse), 'notJson' (splitImportBody threw),
 * 'rowsNotJson' (iterating the rows threw) or 'split' (rows and envelope parsed).
 */
type Outcome = 'undefined' | 'notJson' | 'rowsNotJson' | 'split';

function toBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === 'string' ? new Uint8Array(Buffer.from(body, 'utf8')) : body;
}

/** The contract for one batch size, given JSON.parse's outcome on the whole body. */
function checkOnce(body: Uint8Array, whole: Whole, mustSplit: boolean, batchRows: number): Outcome {
  const where = `batches of ${batchRows}`;
  let split: ReturnType<typeof splitImportBody>;
  try {
    split = splitImportBody(body, batchRows);
  } catch (error) {
    expectSameSyntaxError(error, whole, `splitImportBody, ${where}`);
    return 'notJson';
  }
  // The bodies here are far too small to be refused as too complex.
  if (split === 'too complex') return expect.fail(`${where}: a small body is "too complex"`);
  if (split === undefined) {
    expect(mustSplit, 'a valid body with a top-level "rows" array and plain keys is split').toBe(false);
    return 'undefined';
  }
  let rows: unknown[];
  try {
    rows = [...split.rows()];
  } catch (error) {
    expectSameSyntaxError(error, whole, `rows(), ${where}`);
    return 'rowsNotJson';
  }
  if (!whole.ok) return expect.fail(`${where}: every row parsed, but JSON.parse of the body throws: ${whole.message}`);
  expect(isRecord(whole.value), 'a split body is an object').toBe(true);
  const value = whole.value as Record<string, unknown>;
  expect(Array.isArray(value.rows), 'a split body has a "rows" array').toBe(true);
  const wholeRows = value.rows as unknown[];
  expect(split.rowCount, `rowCount, ${where}`).toBe(wholeRows.length);
  expectSameJson(rows, wholeRows, `rows, ${where}`);
  expectSameJson(split.envelope, { ...value, rows: [] }, `envelope, ${where}`);
  return 'split';
}

/**
 * Asserts the contract against JSON.parse of the whole body, for several batch sizes, and that every
 * batch size takes the body the same way. `plainKeys` says the caller knows every top-level key is
 * written without an escape (then a valid body with a "rows" array must be split); without it, that is
 * assumed only for a body holding no backslash at all.
 */
function checkAgainstJsonParse(input: Uint8Array | string, plainKeys = false): Outcome {
  const body = toBytes(input);
  const whole = parseWhole(body);
  const text = Buffer.from(body).toString('utf8');
  const mustSplit =
    whole.ok && isRecord(whole.value) && Array.isArray(whole.value.rows) && (plainKeys || !text.includes('\\'));
  const outcomes = BATCH_SIZES.map((batchRows) => checkOnce(body, whole, mustSplit, batchRows));
  expect(new Set(outcomes).size, `the same outcome for every batch size: ${outcomes.join(', ')}`).toBe(1);
  return outcomes[0]!;
}

/** Runs the split and collects everything, for examples that look at the values themselves. */
function splitAll(text: string): { envelope: unknown; rowCount: number; rows: unknown[] } {
  const split = splitImportBody(toBytes(text), 2);
  if (split === undefined || split === 'too complex') return expect.fail('expected a split');
  return { envelope: split.envelope, rowCount: split.rowCount, rows: [...split.rows()] };
}

describe('splitImportBody, examples', () => {
  it('takes the rows first, last or in the middle, with clientId anywhere', () => {
    for (const text of [
      '{"rows":[1,2],"clientId":"c"}',
      '{"clientId":"c","rows":[1,2]}',
      '{"a":1,"rows":[1,2],"clientId":"c"}',
      '{"rows":[{"name":"x"},{"name":"y"}]}',
    ]) {
      expect(checkAgainstJsonParse(text), text).toBe('split');
    }
    expect(splitAll('{"a":1,"rows":[1,2],"clientId":"c"}')).toEqual({
      envelope: { a: 1, rows: [], clientId: 'c' },
      rowCount: 2,
      rows: [1, 2],
    });
  });

  it('reads whitespace of every kind everywhere', () => {
    const text =
      ' \t\r\n{ \t\r\n"clientId" \n: \r"c" \t, \n "rows"\t:\r\n[ \n1 \t, \r\n {"a" : [ 2 , 3 ] }\n , \t"x" \r\n]\n} \r\n\t';
    expect(checkAgainstJsonParse(text)).toBe('split');
    expect(splitAll(text).rows).toEqual([1, { a: [2, 3] }, 'x']);
  });

  it('takes empty rows', () => {
    for (const text of [
      '{"rows":[]}',
      '{"rows":[ ]}',
      '{"rows":[\n\t\r ]}',
      '{"clientId":"c","rows":[],"z":0}',
      '{ "rows" : [ ] , "clientId" : "c" }',
    ]) {
      expect(checkAgainstJsonParse(text), text).toBe('split');
      expect(splitAll(text).rowCount, text).toBe(0);
    }
  });

  it('takes nested arrays and objects holding commas, brackets and braces', () => {
    const text =
      '{"rows":[[1,[2,3]],{"a":{"b":[4,5]},"c":","},"],[{",[],{},[[[]]],{"d":"}","e":["]"]}],"x":[1,{"y":2}]}';
    expect(checkAgainstJsonParse(text)).toBe('split');
    expect(splitAll(text).rowCount).toBe(7);
  });

  it('takes strings with quotes, backslashes, delimiters, escapes and non-ASCII text', () => {
    const strings = [
      '"\\""',
      '"\\\\"',
      '"\\\\\\""',
      '"\\\\\\\\"',
      '"\\\\\\\\\\""',
      '"]"',
      '"}"',
      '","',
      '"\\",\\""',
      '"\\u005d"',
      '"\\u005b\\u007b\\u002c"',
      '"é"',
      '"中文"',
      '"😀"',
      '"\\ud800"',
      '"\\udc00x"',
      '"\\ud83d\\ude00"',
      '"a\\nb\\t\\/c"',
    ];
    for (const s of strings) {
      for (const text of [
        `{"rows":[${s}]}`,
        `{"rows":[${s},${s}],"clientId":${s}}`,
        `{"clientId":${s},"rows":[{"k":${s}},[${s}]]}`,
        `{"rows":[1,${s},2]}`,
      ]) {
        expect(checkAgainstJsonParse(text), text).toBe('split');
      }
    }
    expect(splitAll('{"rows":["\\\\",",","\\"]","é中文😀"]}').rows).toEqual(['\\', ',', '"]', 'é中文😀']);
  });

  it('does not mistake a "rows" inside the clientId string for the rows', () => {
    const text = '{"clientId":"\\",\\"rows\\":[9,9]","rows":[1]}';
    expect(checkAgainstJsonParse(text)).toBe('split');
    expect(splitAll(text).rows).toEqual([1]);
  });

  it('follows JSON.parse on a repeated "rows" key: the last one wins', () => {
    expect(checkAgainstJsonParse('{"rows":[1],"rows":[2,3]}')).toBe('split');
    expect(splitAll('{"rows":[1],"rows":[2,3]}')).toEqual({ envelope: { rows: [] }, rowCount: 2, rows: [2, 3] });
    expect(checkAgainstJsonParse('{"rows":[1],"clientId":"c","rows":[2,3],"z":1}')).toBe('split');
    expect(splitAll('{"rows":[1],"clientId":"c","rows":[2,3],"z":1}').envelope).toEqual({
      rows: [],
      clientId: 'c',
      z: 1,
    });
    expect(checkAgainstJsonParse('{"rows":"x","rows":[1]}')).toBe('split');
    // The last "rows" is no array: nothing to split, JSON.parse decides.
    expect(checkAgainstJsonParse('{"rows":[1],"rows":"x"}')).toBe('undefined');
    expect(checkAgainstJsonParse('{"rows":[1],"rows":{"a":[2]}}')).toBe('undefined');
    expect(checkAgainstJsonParse('{"rows":[1],"rows":null}')).toBe('undefined');
    // An earlier "rows" that is not valid JSON makes the body not JSON.
    expect(checkAgainstJsonParse('{"rows":[1,,2],"rows":[3]}')).toBe('notJson');
    expect(checkAgainstJsonParse('{"rows":[1}],"rows":[3]}')).not.toBe('split');
  });

  it('does not take a "rows" key inside a nested object for the top-level one', () => {
    expect(checkAgainstJsonParse('{"meta":{"rows":[9]},"rows":[1]}')).toBe('split');
    expect(splitAll('{"meta":{"rows":[9]},"rows":[1]}')).toEqual({
      envelope: { meta: { rows: [9] }, rows: [] },
      rowCount: 1,
      rows: [1],
    });
    expect(checkAgainstJsonParse('{"rows":[1],"meta":{"rows":[9,8]}}')).toBe('split');
    expect(splitAll('{"rows":[1],"meta":{"rows":[9,8]}}').rows).toEqual([1]);
    expect(checkAgainstJsonParse('{"meta":{"rows":[9]}}')).toBe('undefined');
    expect(checkAgainstJsonParse('{"meta":[{"rows":[9]}],"rows":"x"}')).toBe('undefined');
  });

  it('reads an escaped key as JSON.parse does', () => {
    for (const text of [
      '{"r\\u006fws":[1]}',
      '{"rows":[1],"r\\u006fws":[2]}',
      '{"r\\u006fws":[1],"rows":[2]}',
      '{"a\\"b":1,"rows":[1]}',
      '{"\\u0072\\u006f\\u0077\\u0073":[1,2],"clientId":"c"}',
    ]) {
      expect(checkAgainstJsonParse(text), text).toBe('split');
    }
    // The last "rows", spelled with an escape, is no array: no rows to split.
    expect(checkAgainstJsonParse('{"rows":[1],"r\\u006fws":"x"}')).toBe('undefined');
    for (const text of ['{"r\\u006fws":[1,]}', '{"r\\x":1,"rows":[1]}', '{"r\\u006f":1,"rows":[1]']) {
      expect(checkAgainstJsonParse(text), text).not.toBe('split');
    }
  });

  it('does not split a body starting with a BOM (JSON.parse rejects it)', () => {
    expect(checkAgainstJsonParse('\uFEFF{"rows":[1]}')).not.toBe('split');
    expect(checkAgainstJsonParse(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('{"rows":[]}')]))).not.toBe('split');
  });

  it('leaves bodies that are no object at the top to JSON.parse', () => {
    for (const text of ['[{"rows":[1]}]', '[]', '1', '-0.5e3', '"rows"', 'null', 'true', '', ' \n', 'x']) {
      expect(checkAgainstJsonParse(text), JSON.stringify(text)).toBe('undefined');
    }
  });

  it('never splits a truncated body', () => {
    const text = '{"clientId": "c\\"}", "rows": [ {"a": [1, "x,]"]}, 2, "é😀" ,[]] , "z": null}';
    expect(checkAgainstJsonParse(text)).toBe('split');
    const bytes = toBytes(text);
    for (let cut = 0; cut < bytes.length; cut++) {
      expect(checkAgainstJsonParse(bytes.subarray(0, cut)), text.slice(0, cut)).not.toBe('split');
    }
  });

  it('reports trailing garbage after the closing brace', () => {
    for (const text of ['{"rows":[1]}x', '{"rows":[1]}}', '{"rows":[1]} {}', '{"rows":[1]},', '{"rows":[1]}]']) {
      expect(checkAgainstJsonParse(text), text).toBe('notJson');
    }
    expect(checkAgainstJsonParse('{"rows":[1]} \r\n\t')).toBe('split');
  });

  it('reports rows that are not valid JSON while iterating', () => {
    for (const text of [
      '{"rows":[1 2]}',
      '{"rows":[{"a":1}{"b":2}]}',
      '{"rows":["a""b"]}',
      '{"rows":[1,]}',
      '{"rows":[1,,2]}',
      '{"rows":[,1]}',
      '{"rows":[,]}',
      '{"rows":[ , ]}',
      '{"rows":[tru]}',
      '{"rows":[01]}',
      '{"rows":["\u0001"]}',
      '{"rows":["\\x"]}',
    ]) {
      expect(['notJson', 'rowsNotJson'], text).toContain(checkAgainstJsonParse(text));
    }
    // Brackets the scan cannot pair: left to JSON.parse, or reported.
    for (const text of ['{"rows":[{]}}', '{"rows":[[1}]}', '{"rows":[{"a":]}]}', '{"rows":[[}]]}', '{"rows":[{]}]}']) {
      expect(checkAgainstJsonParse(text), text).not.toBe('split');
    }
  });

  it('does not split a rows array closed by a brace', () => {
    for (const text of ['{"rows":[}}', '{"rows":[1}}', '{"rows":[1,2}}', '{"clientId":"c","rows":[[1]}}']) {
      expect(checkAgainstJsonParse(text), text).not.toBe('split');
    }
  });

  it('reports a broken envelope', () => {
    for (const text of [
      '{"clientId":x,"rows":[1]}',
      '{"clientId":"c" "rows":[1]}',
      '{"clientId":"c",,"rows":[1]}',
      '{"clientId":"c","rows":[1],}',
      '{"clientId":"c","rows":[1]',
      '{"clientId":["c"},"rows":[1]}',
    ]) {
      expect(checkAgainstJsonParse(text), text).not.toBe('split');
    }
  });
});

// Generators of bodies.

const whitespace = fc.array(fc.constantFrom(' ', '\t', '\r', '\n'), { maxLength: 3 }).map((chars) => chars.join(''));
const anyKey = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('clientId', 'rows', 'row', 'rowss', 'Rows', '__proto__'),
);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }));
const rowsValue = fc.oneof(
  fc.array(anyJson, { maxLength: 12 }),
  fc.array(fc.dictionary(anyKey, anyJson, { maxKeys: 5 }), { maxLength: 12 }),
);

function plain(key: string): boolean {
  return !JSON.stringify(key).includes('\\');
}

interface ValidBody {
  text: string;
  plainKeys: boolean;
}

/** An object with "rows" and other keys in random order, through JSON.stringify with some indentation. */
const stringifiedBody: fc.Arbitrary<ValidBody> = fc
  .record({
    rows: rowsValue,
    others: fc.array(fc.tuple(anyKey, anyJson), { maxLength: 5 }),
    rowsAt: fc.nat(),
    indent: fc.constantFrom<0 | 2 | '\t'>(0, 2, '\t'),
  })
  .map(({ rows, others, rowsAt, indent }) => {
    const entries: [string, unknown][] = others.filter(([key]) => key !== 'rows');
    entries.splice(rowsAt % (entries.length + 1), 0, ['rows', rows]);
    const text = JSON.stringify(Object.fromEntries(entries), null, indent);
    return { text, plainKeys: entries.every(([key]) => plain(key)) };
  });

/** An object written key by key: repeated keys (also "rows" of any kind) and whitespace everywhere. */
const handWrittenBody: fc.Arbitrary<ValidBody> = fc
  .record({
    entries: fc.array(
      fc.tuple(
        fc.oneof(anyKey, fc.constant('rows')),
        fc.oneof(anyJson, rowsValue),
        fc.constantFrom<0 | 2 | '\t'>(0, 2, '\t'),
        fc.tuple(whitespace, whitespace, whitespace, whitespace),
      ),
      { maxLength: 6 },
    ),
    lastRows: fc.option(fc.tuple(rowsValue, fc.nat()), { nil: undefined }),
    outer: fc.tuple(whitespace, whitespace, whitespace),
  })
  .map(({ entries, lastRows, outer }) => {
    const all: [string, unknown, 0 | 2 | '\t', [string, string, string, string]][] = [...entries];
    if (lastRows !== undefined)
      all.splice(lastRows[1] % (all.length + 1), 0, ['rows', lastRows[0], 0, ['', '', '', '']]);
    const members = all.map(
      ([key, value, indent, [a, b, c, d]]) =>
        `${a}${JSON.stringify(key)}${b}:${c}${JSON.stringify(value, null, indent)}${d}`,
    );
    const text = `${outer[0]}{${members.length === 0 ? outer[1] : members.join(',')}}${outer[2]}`;
    return { text, plainKeys: all.every(([key]) => plain(key)) };
  });

const validBody = fc.oneof(stringifiedBody, handWrittenBody);

const MUTATION_CHARS = ['"', ',', '[', ']', '{', '}', '\\', ':', 'x', '1'];

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'insert'; at: number; char: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'duplicate'; at: number; length: number; to: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(...MUTATION_CHARS) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 20 }), to: fc.nat() }),
);

function mutate(text: string, m: Mutation): string {
  const at = m.at % (text.length + 1);
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + 1);
    case 'insert':
      return text.slice(0, at) + m.char + text.slice(at);
    case 'truncate':
      return text.slice(0, at);
    case 'duplicate': {
      const slice = text.slice(at, at + m.length);
      const to = m.to % (text.length + 1);
      return text.slice(0, to) + slice + text.slice(to);
    }
  }
}

/** Strings made of JSON's tokens, some broken: mostly not JSON, but often close to it. */
const tokenSoup = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      ' ',
      '\n',
      '"rows"',
      '"clientId"',
      '"a"',
      '"\\""',
      '"\\\\"',
      '1',
      '-0',
      'null',
      'tru',
      '"é"',
      '"\\u005d"',
    ),
    { maxLength: 24 },
  )
  .map((tokens) => tokens.join(''));

describe('splitImportBody agrees with JSON.parse, properties', () => {
  it('valid bodies: split exactly as JSON.parse reads them', () => {
    fc.assert(
      fc.property(validBody, ({ text, plainKeys }) => {
        checkAgainstJsonParse(text, plainKeys);
      }),
      { numRuns: 300 },
    );
  });

  it('valid bodies with a rows array and plain keys are always split', () => {
    fc.assert(
      fc.property(stringifiedBody, ({ text, plainKeys }) => {
        const outcome = checkAgainstJsonParse(text, plainKeys);
        if (plainKeys) expect(outcome).toBe('split');
      }),
      { numRuns: 200 },
    );
  });

  it('corrupted bodies: the same error as JSON.parse, or the same values', () => {
    fc.assert(
      fc.property(validBody, fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ text }, mutations) => {
        checkAgainstJsonParse(mutations.reduce(mutate, text));
      }),
      { numRuns: 1000 },
    );
  });

  it('token soup: the same error as JSON.parse, or the same values', () => {
    fc.assert(
      fc.property(tokenSoup, fc.constantFrom('', '{', '{"rows":[', '{"clientId":"c","rows":['), (soup, prefix) => {
        checkAgainstJsonParse(prefix + soup);
      }),
      { numRuns: 3000 },
    );
  });

  it('random unicode strings: the same error as JSON.parse, or the same values', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        fc.constantFrom('', '{', '{"rows":[', '{"rows":["'),
        (s, prefix) => {
          checkAgainstJsonParse(prefix + s);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random bytes: the same error as JSON.parse, or the same values', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom('', '{', '{"rows":[', '{"rows":["', '{"rows":[1,"'),
        fc.constantFrom('', '"]}', ']}', '"}]}'),
        (bytes, prefix, suffix) => {
          checkAgainstJsonParse(Buffer.concat([Buffer.from(prefix), bytes, Buffer.from(suffix)]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('invalid UTF-8 inside the rows: JSON.parse of the decoded body', () => {
    const invalidUtf8 = fc.constantFrom(
      [0xc3],
      [0xe4, 0xb8],
      [0xf0, 0x9f, 0x98],
      [0x80],
      [0xff],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(invalidUtf8, fc.constantFrom(',', '","', '"],["', 'x')), { maxLength: 6 }),
        (parts) => {
          const inner = parts.flatMap(([bytes, sep]) => [...bytes, ...Buffer.from(sep)]);
          checkAgainstJsonParse(Buffer.from([...Buffer.from('{"rows":["'), ...inner, ...Buffer.from('"]}')]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
