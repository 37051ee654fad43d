import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../server/http/schemas.js';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

let t: TestApp;
let admin: string;
let clientId: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
  } = await buildSignedInApp({ admin: 'admin' }));
  clientId = await t.createClient(admin, 'Paged Client');
  const upload = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin,
    body: { clientId, rows: [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }] },
  });
  expect(upload.statusCode).toBe(201);
});
afterAll(() => t.close());

const LISTS = {
  'GET /api/clients': () => '/api/clients?',
  'GET /api/locations': () => `/api/locations?clientId=${clientId}&`,
};
type List = keyof typeof LISTS;
const EVERY_LIST = Object.keys(LISTS) as List[];

// The red team's 14 requests (issue 13, finding 3) and their neighbours: each was a 500 (SqliteError:
// datatype mismatch) on both lists.
const HUGE = [
  '9223372036854775807',
  '9223372036854775808',
  String(2 ** 63),
  '18446744073709551616',
  '1e19',
  '1e308',
  '1.7976931348623157e308',
  'Infinity',
  '-Infinity',
  'NaN',
  String(MAX_OFFSET + 1),
  '9007199254740993',
  '1e400',
  '0x7fffffffffffffff',
];

describe('paging maxima: limit <= the largest page, offset <= 2^53 - 1, 400 beyond', () => {
  const cases = EVERY_LIST.flatMap((list) =>
    HUGE.flatMap((value): [List, string][] => [
      [list, `offset=${value}`],
      [list, `limit=${value}`],
      [list, `limit=1&offset=${value}`],
    ]),
  );

  it.each(cases)('%s ?%s -> 400 naming the parameter, never 500', async (list, query) => {
    const response = await t.request({ method: 'GET', url: `${LISTS[list]()}${query}`, token: admin });
    const body = expectErrorBody(response, 400);
    const name = query.includes('offset') ? 'offset' : 'limit';
    expect(body.details?.map((detail) => detail.path)).toContain(`/querystring/${name}`);
  });

  it.each(EVERY_LIST)(
    '%s ?limit= written as JavaScript reads numbers, not as decimals (0x10, 0b10, 0o10) -> 400; 1e1 and 10.0 are 10',
    async (list) => {
      for (const text of ['0x10', '0b10', '0o10', ' 0x1 ']) {
        const response = await t.request({
          method: 'GET',
          url: `${LISTS[list]()}limit=${encodeURIComponent(text)}`,
          token: admin,
        });
        expect(expectErrorBody(response, 400).details?.map((detail) => detail.path)).toContain('/querystring/limit');
      }
      for (const text of ['1e1', '10.0', '10']) {
        const response = await t.request({ method: 'GET', url: `${LISTS[list]()}limit=${text}`, token: admin });
        expect(response.statusCode, `${text}: ${response.body}`).toBe(200);
      }
    },
  );

  it.each(EVERY_LIST)('%s ?limit=<largest page> and ?offset=2^53 - 1 are served (an empty page)', async (list) => {
    const largest = await t.request({ method: 'GET', url: `${LISTS[list]()}limit=${MAX_PAGE_SIZE}`, token: admin });
    expect(largest.statusCode).toBe(200);
    expect(largest.json<unknown[]>().length).toBeGreaterThan(0);
    const farthest = await t.request({
      method: 'GET',
      url: `${LISTS[list]()}limit=${MAX_PAGE_SIZE}&offset=${MAX_OFFSET}`,
      token: admin,
    });
    expect(farthest.statusCode).toBe(200);
    expect(farthest.json()).toEqual([]);
    const offsetOnly = await t.request({ method: 'GET', url: `${LISTS[list]()}offset=${MAX_OFFSET}`, token: admin });
    expect(offsetOnly.statusCode).toBe(200);
    expect(offsetOnly.json()).toEqual([]);
  });

  it.each(EVERY_LIST)('%s ?limit=<largest page + 1> -> 400', async (list) => {
    expectErrorBody(
      await t.request({ method: 'GET', url: `${LISTS[list]()}limit=${MAX_PAGE_SIZE + 1}`, token: admin }),
      400,
    );
  });

  it('the maxima are in the OpenAPI document, where a script can read them', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, { get?: { parameters?: { name: string; schema: { maximum?: number } }[] } }>;
    }>();
    for (const path of ['/api/clients', '/api/locations']) {
      const parameters = document.paths[path]!.get!.parameters!;
      expect(parameters.find((parameter) => parameter.name === 'limit')!.schema.maximum).toBe(MAX_PAGE_SIZE);
      expect(parameters.find((parameter) => parameter.name === 'offset')!.schema.maximum).toBe(MAX_OFFSET);
    }
  });
});

describe('no query parameter reaches SQLite unchecked', () => {
  const HOSTILE = ["1' OR '1'='1", '1;DROP TABLE clients', '%00', '', ' ', '1 ', '[]', '{}', 'true', '-0.5', '1e-400'];

  it.each(
    EVERY_LIST.flatMap((list) =>
      HOSTILE.flatMap((value) => ['limit', 'offset'].map((name): [List, string, string] => [list, name, value])),
    ),
  )('%s ?%s=%j -> 400 or a page, never 500', async (list, name, value) => {
    const response = await t.request({
      method: 'GET',
      url: `${LISTS[list]()}${name}=${encodeURIComponent(value)}`,
      token: admin,
    });
    expect([200, 400]).toContain(response.statusCode);
    if (response.statusCode === 400) expectErrorBody(response, 400);
  });

  it.each(["x' OR 1=1 --", '00000000-0000-0000-0000-000000000000', 'Infinity', '', '%ED%A0%80'])(
    'GET /api/locations?clientId=%j -> 400 or 404, never 500',
    async (value) => {
      const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${value}`, token: admin });
      expect([400, 404]).toContain(response.statusCode);
    },
  );

  it('an unknown query parameter -> 400', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/clients?order=1;DROP', token: admin }), 400);
  });

  it.each([
    ['/api/clients?limit=10&limit=20', 'limit'],
    [`/api/locations?clientId=CLIENT&clientId=CLIENT`, 'clientId'],
    ['/api/audit?since=2026-01-01T00:00:00Z&since=2026-02-01T00:00:00Z', 'since'],
  ])('%s -> 400 saying the parameter is given twice (not "must be an integer")', async (url, name) => {
    const response = await t.request({ method: 'GET', url: url.replaceAll('CLIENT', clientId), token: admin });
    const error = expectErrorBody(response, 400);
    expect(error.message).toBe(`the query parameter ${name} is given more than once`);
    expect(error.details).toEqual([{ path: `/querystring/${name}`, message: 'is given more than once' }]);
  });

  it('the tables are intact afterwards', async () => {
    const response = await t.request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin });
    expect(response.json<{ name: string }[]>().map((row) => row.name)).toEqual(['One', 'Two', 'Three']);
  });
});
