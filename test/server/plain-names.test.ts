import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';
import { dataSnapshot } from '../helpers/data.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * The names a person or a script types (a client's, a token's, a device request's, a saved mapping's and
 * its headers and options) follow one rule, at every way in: no control character, and not blank, where
 * blank includes a name that shows nothing (only direction marks, zero-width spaces, fillers). Found by a
 * hostile-input probe: a device request carried NUL and ESC into the dashboard and into a token's name.
 */

let t: TestApp;
let admin: string;
let clientId: string;

beforeAll(async () => {
  ({
    t,
    tokens: { admin },
  } = await buildSignedInApp({ admin: 'admin' }));
  clientId = await t.createClient(admin, 'Names client');
});
afterAll(() => t.close());

const SHOWS_NOTHING = ['\u200f\u200e', ' \u200b ', '\ufeff', '\u3164', '\u2060\ufe0f'];

describe('a name that shows nothing is blank: 400, nothing written', () => {
  it.each(SHOWS_NOTHING)('%j', async (name) => {
    const before = dataSnapshot(t.store.db);
    const refusals = [
      await t.request({ method: 'POST', url: '/api/clients', token: admin, body: { name } }),
      await t.request({ method: 'PATCH', url: `/api/clients/${clientId}`, token: admin, body: { name } }),
      await t.request({ method: 'POST', url: '/api/tokens', token: admin, body: { name, scopes: ['read'] } }),
      await t.request({ method: 'POST', url: '/auth/device', body: { client_name: name, scope: 'read' } }),
    ];
    for (const response of refusals) expect(expectErrorBody(response, 400).message).toMatch(/must not be blank/);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });

  it('a name with a direction mark and letters is kept as given', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/clients',
      token: admin,
      body: { name: '\u200fמאפייה' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ name: string }>().name).toBe('\u200fמאפייה');
  });
});

describe('a control character in a name -> 400 naming it', () => {
  it('a device request’s client_name (it shows in the dashboard and names the token)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/device',
      body: { client_name: 'evil\u0000name\u001b[2J', scope: 'read' },
    });
    expect(expectErrorBody(response, 400).message).toMatch(/client_name holds the control character U\+0000/);
    const listed = await t.request({ method: 'GET', url: '/api/device', token: admin });
    expect(listed.body).not.toContain('evil');
  });

  it.each([
    ['a header', { columns: [{ header: 'Na\u0000me', field: 'name' }] }, /header holds the control character U\+0000/],
    [
      'the separator',
      { columns: [{ header: 'Name', field: 'name' }], options: { separator: '\u0000' } },
      /separator holds the control character U\+0000/,
    ],
    [
      'a placeholder',
      { columns: [{ header: 'Name', field: 'name' }], options: { placeholders: ['n/a', '\u001b'] } },
      /holds the control character U\+001B/,
    ],
  ])('a saved mapping’s %s', async (_, body, words) => {
    const before = dataSnapshot(t.store.db);
    const response = await t.request({
      method: 'POST',
      url: '/api/mappings',
      token: admin,
      body: { client_id: clientId, name: 'Sheet', ...body },
    });
    expect(expectErrorBody(response, 400).message).toMatch(words);
    expect(dataSnapshot(t.store.db)).toEqual(before);
  });
});

describe('what could never work is refused when it is asked for', () => {
  it('a saved mapping with no column sent to name -> 400 (every import with it would fail)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/mappings',
      token: admin,
      body: {
        client_id: clientId,
        name: 'No name',
        columns: [
          { header: 'City', field: 'city' },
          { header: 'Store', field: null },
        ],
      },
    });
    expect(expectErrorBody(response, 400).message).toBe('No column is sent to name: each location needs its name');
  });

  it('a device request for a client that does not exist -> 400 (no one could ever approve it)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/auth/device',
      body: { client_name: 'sync', scope: 'read', clientId: '11111111-1111-4111-8111-111111111111' },
    });
    expect(expectErrorBody(response, 400).message).toMatch(/^clientId names no client/);
    const mine = await t.request({
      method: 'POST',
      url: '/auth/device',
      body: { client_name: 'sync', scope: 'read', clientId },
    });
    expect(mine.statusCode, mine.body).toBe(200);
  });
});
