import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * Error messages name what the person sent, in their words (found by a new-user walkthrough): a key's
 * "/" and "~" as typed, not as JSON pointer escapes; the key inside a field that is not known; and no
 * "must NOT have fewer than 1 properties".
 */

let t: TestApp;
let admin: string;
let clientId: string;
let locationId: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
  } = await buildSignedInApp({ admin: 'admin' }));
  clientId = await t.createClient(admin, 'Words client');
  const imported = await t.request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin,
    body: { clientId, rows: [{ name: 'Words A' }] },
  });
  locationId = imported.json<{ locations: { id: string }[] }>().locations[0]!.id;
});
afterAll(() => t.close());

it('a row key with "/" or "~" is named as sent, in the row error and the message', async () => {
  const response = await t.request({
    method: 'POST',
    url: '/api/locations/upload?dryRun=true',
    token: admin,
    body: { clientId, rows: [{ name: 'A', 'State / province': 'IL', 'a~b': 'x' }] },
  });
  const text = JSON.stringify(response.json());
  expect(text).toContain('\\"State / province\\" is not a field of a location');
  expect(text).toContain('\\"a~b\\" is not a field of a location');
  expect(text).not.toMatch(/~1|~0/);
});

it('a key inside hours that is not a day is named, not hours', async () => {
  const response = await t.request({
    method: 'PATCH',
    url: `/api/locations/${locationId}`,
    token: admin,
    body: { hours: { xyz: [] } },
  });
  expect(expectErrorBody(response, 400).message).toBe(
    'hours/xyz is not a known field; the fields here are mon, tue, wed, thu, fri, sat and sun',
  );
});

it("a field the bulk edit cannot set names the ones it can (a walk read that phone was not a location's field)", async () => {
  const response = await t.request({
    method: 'PATCH',
    url: '/api/locations',
    token: admin,
    body: { ids: [locationId], set: { phone: '+15125550000' } },
  });
  const { message } = expectErrorBody(response, 400);
  expect(message).toMatch(/^set\/phone is not a known field; the fields here are .*status.*primary_category.*labels/);
  // The list is of what set takes: phone is not among them.
  expect(message.split('; the fields here are ')[1]).not.toMatch(/\bphone\b/);
});

it.each([
  ['GET', '/api/locations/upload', 'POST'],
  ['DELETE', '/api/locations/upload', 'POST'],
  ['GET', '/api/locations/delete/', 'POST'],
  ['PATCH', '/api/locations/delete?x=1', 'POST'],
])('%s %s, a path another method has as it is: 405 naming its methods, not a bad id', async (method, url, allowed) => {
  const response = await t.request({ method: method as 'GET', url, token: admin });
  const { message } = expectErrorBody(response, 405);
  expect(response.headers.allow).toBe(allowed);
  expect(message).toBe(`${url.split('?')[0]!.replace(/\/$/, '')} takes ${allowed}, not ${method}`);
});

it.each([
  ['PUT', '/api/locations/upload', 'POST'],
  ['OPTIONS', '/api/locations/upload/', 'POST'],
  ['PUT', '/api/clients', 'GET, HEAD, POST'],
  ['DELETE', '/api/clients?x=1', 'GET, HEAD, POST'],
  ['PUT', '/api/locations/11111111-1111-4111-8111-111111111111', 'DELETE, GET, HEAD, PATCH'],
  ['GET', '/auth/callback', 'POST'],
] as const)(
  '%s %s, a method no route takes at a path the API has: 405 naming those it does (a walk got a 404)',
  async (method, url, allowed) => {
    // Asked without a token too: which methods a path takes is the API's documentation, not data.
    for (const token of [admin, undefined]) {
      const response = await t.request({ method, url, token });
      const { message } = expectErrorBody(response, 405);
      expect(response.headers.allow).toBe(allowed);
      const words = allowed.replace(/, (?=[A-Z]+$)/, ' or ');
      expect(message).toBe(`${url.split('?')[0]!.replace(/\/$/, '')} takes ${words}, not ${method}`);
    }
  },
);

it('a 405 for a path with a long id repeats the path cut short, as the 404 and 414 do (a review)', async () => {
  const response = await t.request({ method: 'PUT', url: `/api/locations/${'a'.repeat(250)}`, token: admin });
  expect(expectErrorBody(response, 405).message).toBe(
    `/api/locations/${'a'.repeat(65)}… takes DELETE, GET, HEAD or PATCH, not PUT`,
  );
});

it('a path the API does not have is still a 404, whatever the method', async () => {
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const { message } = expectErrorBody(await t.request({ method, url: '/api/nowhere', token: admin }), 404);
    expect(message).toBe(`No route ${method} /api/nowhere`);
  }
});

it('a parametric route still answers for its own ids, and says a bad one is bad', async () => {
  const own = await t.request({ method: 'GET', url: `/api/locations/${locationId}`, token: admin });
  expect(own.statusCode, own.body).toBe(200);
  expect(
    expectErrorBody(await t.request({ method: 'GET', url: '/api/locations/uploads', token: admin }), 400).message,
  ).toMatch(/uuid/);
  // Without a token, sign in first, as on every route of the API.
  expectErrorBody(await t.request({ method: 'GET', url: '/api/locations/upload' }), 401);
});

it.each([
  [
    'a bulk edit that sets nothing',
    'PATCH',
    '/api/locations',
    { ids: ['11111111-1111-4111-8111-111111111111'], set: {} },
    'set must name at least one field',
  ],
  ['a bulk delete of no ids', 'POST', '/api/locations/delete', { ids: [] }, 'ids must not be empty'],
  ['a PATCH of nothing', 'PATCH', '/api/clients/CLIENT', {}, 'the body must name at least one field'],
])('%s: a message in words', async (_, method, url, body, words) => {
  const response = await t.request({
    method: method as 'PATCH' | 'POST',
    url: url.replace('CLIENT', clientId),
    token: admin,
    body,
  });
  const { message } = expectErrorBody(response, 400);
  expect(message).toContain(words);
  expect(message).not.toMatch(/NOT have/);
});

it('a time whose offset lost its + to the URL says to write it %2B', async () => {
  const response = await t.request({ method: 'GET', url: '/api/audit?since=2026-11-24T10:00:00+01:00', token: admin });
  expect(expectErrorBody(response, 400).message).toContain('a + in a URL is read as a space, so write the offset');
  // A space typed for the T says nothing of a +.
  const spaced = await t.request({ method: 'GET', url: '/api/audit?since=2026-01-01%2010:00', token: admin });
  expect(expectErrorBody(spaced, 400).message).not.toContain('%2B');
  const encoded = await t.request({ method: 'GET', url: '/api/audit?since=2026-11-24T10:00:00%2B01:00', token: admin });
  expect(encoded.statusCode).toBe(200);
});

it('a dry run shows what it can read of a row the schema refused one field of, and names that field', async () => {
  const response = await t.request({
    method: 'POST',
    url: '/api/locations/upload?dryRun=true',
    token: admin,
    body: { clientId, rows: [{ name: 'Zed', city: 'Xanten', zip: '1'.repeat(24), state: 5 }] },
  });
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json<{ rows: Record<string, unknown>[]; errors: { field: string }[] }>();
  expect(answer.rows[0]).toMatchObject({ name: 'Zed', city: 'Xanten', zip: null, state: null, action: 'error' });
  expect(answer.errors.map((error) => error.field).sort()).toEqual(['state', 'zip']);
});

it('100,000 bad ids in a bulk body -> a 400 of the first 100 problems, saying there are more (a probe got 6.6 MB)', async () => {
  const ids = Array.from({ length: 100_000 }, () => 'x');
  for (const [method, url, body] of [
    ['PATCH', '/api/locations', { ids, set: { city: 'x' } }],
    ['POST', '/api/locations/delete', { ids }],
  ] as const) {
    const response = await t.request({ method, url, token: admin, body });
    expectErrorBody(response, 400);
    const answer = response.json<{ message: string; details: { path: string }[] }>();
    expect(answer.details).toHaveLength(100);
    expect(answer.details[99]!.path).toBe('/body/ids/99');
    expect(answer.message).toBe('ids/0 must match format "uuid" (and more: the first 100 problems are in details)');
    expect(response.body.length).toBeLessThan(20_000);
  }
  // A few problems are listed whole, with no such words.
  const few = await t.request({
    method: 'POST',
    url: '/api/locations/delete',
    token: admin,
    body: { ids: ['x', 'y'] },
  });
  expect(few.json<{ message: string; details: unknown[] }>()).toMatchObject({
    message: 'ids/0 must match format "uuid"',
  });
  expect(few.json<{ details: unknown[] }>().details).toHaveLength(2);
});

it('a key given twice in a JSON body -> 400 naming it, nothing changed; the same words as different keys are fine', async () => {
  const send = (method: 'PATCH' | 'POST', url: string, payload: string) =>
    t.request({ method, url, token: admin, body: payload, headers: { 'content-type': 'application/json' } });
  const cases: [method: 'PATCH' | 'POST', url: string, payload: string, message: string][] = [
    ['PATCH', `/api/locations/${locationId}`, '{"name":"d1","name":"d2"}', 'name'],
    ['PATCH', '/api/locations', `{"ids":["${locationId}"],"set":{"city":"x"},"set":{"status":"open"}}`, 'set'],
    ['PATCH', '/api/locations', `{"ids":["${locationId}"],"set":{"city":"x","city":"y"}}`, 'set/city'],
    [
      'POST',
      '/api/locations/delete',
      `{"ids":["${locationId}"],"ids":["00000000-0000-4000-8000-000000000000"]}`,
      'ids',
    ],
    ['PATCH', `/api/locations/${locationId}`, '{"hours":{"mon":[["09:00","17:00"]],"mon":[]}}', 'hours/mon'],
    // A key with a quote, a backslash and a slash in it, given twice: named as typed.
    ['PATCH', `/api/clients/${clientId}`, '{"a\\"b/c\\\\":1,"a\\"b/c\\\\":2}', 'a"b/c\\'],
  ];
  for (const [method, url, payload, key] of cases) {
    const response = await send(method, url, payload);
    expectErrorBody(response, 400);
    expect(response.json<{ message: string }>().message).toBe(
      `${key} is given more than once (JSON would keep only the last): give it once`,
    );
  }
  const after = await t.request({ method: 'GET', url: `/api/locations/${locationId}`, token: admin });
  expect(after.json()).toMatchObject({ name: 'Words A', city: null });
  // Repeats inside strings and in sibling objects are no repeats.
  const fine = await send(
    'PATCH',
    `/api/locations/${locationId}`,
    '{"name":"\\"name\\": 1, \\"name\\"","hours":{"mon":[["09:00","12:00"],["13:00","17:00"]],"tue":[]}}',
  );
  expect(fine.statusCode, fine.body).toBe(200);
});

it('a query word in another case is that word, as a boolean is (a walk sent mode=UPSERT); a wrong word is still a 400', async () => {
  const upsert = await t.request({
    method: 'POST',
    url: '/api/locations/upload?mode=UPSERT&dryRun=True&blanks=Keep',
    token: admin,
    body: { clientId, rows: [{ id: locationId, name: 'Words A', city: 'Lyon' }] },
  });
  expect(upsert.statusCode, upsert.body).toBe(200);
  expect(upsert.json<{ totals: { updated: number; created: number } }>().totals).toMatchObject({
    updated: 1,
    created: 0,
  });
  const wrong = await t.request({
    method: 'POST',
    url: '/api/locations/upload?mode=UPSERTS&dryRun=true',
    token: admin,
    body: { clientId, rows: [{ name: 'Words A' }] },
  });
  expect(expectErrorBody(wrong, 400).details?.map((detail) => detail.path)).toEqual(['/querystring/mode']);
});
