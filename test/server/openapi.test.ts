import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../server/http/openapi.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Issue 10 §4: an API document that generates good clients. */
interface Operation {
  operationId?: string;
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
}
interface Document {
  components?: { schemas?: Record<string, unknown> };
  servers?: { url: string }[];
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let document: Document;
let text: string;
let operations: [string, Operation][];

beforeAll(async () => {
  t = await buildTestApp();
  text = (await t.request({ method: 'GET', url: '/api/openapi.json' })).body;
  document = JSON.parse(text) as Document;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
      operation,
    ]),
  );
});
afterAll(() => t.close());

describe('/api/openapi.json', () => {
  it('every operation has the operationId of the table, and no two share one', () => {
    for (const [key, operation] of operations) {
      expect(OPERATION_IDS[key], `${key}: give it an operationId in server/http/openapi.ts`).toBeDefined();
      expect(operation.operationId, key).toBe(OPERATION_IDS[key]);
    }
    const ids = operations.map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sign-in, refresh, setup and the device flow need no credential (security: []); the rest a bearer token', () => {
    expect(document.security).toEqual([{ bearer: [] }]);
    const open = operations.filter(([, operation]) => operation.security?.length === 0).map(([key]) => key);
    expect(open.sort()).toEqual(
      [
        'GET /auth/setup',
        'POST /auth/callback',
        'POST /auth/device',
        'POST /auth/refresh',
        'POST /auth/setup',
        'POST /auth/token',
      ].sort(),
    );
  });

  it('no response is a "Default Response": each says its status', () => {
    for (const [key, operation] of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${key} ${status}`).not.toBe('Default Response');
      }
    }
    expect(document.paths['/api/clients']!.post!.responses['201']!.description).toBe('Created');
  });

  it('X-Total-Count on the lists, Retry-After on 429 and 503', () => {
    expect(Object.keys(document.paths['/api/clients']!.get!.responses['200']!.headers ?? {})).toEqual([
      'X-Total-Count',
    ]);
    expect(Object.keys(document.paths['/api/locations']!.get!.responses['200']!.headers ?? {})).toEqual([
      'X-Total-Count',
    ]);
    expect(Object.keys(document.paths['/auth/callback']!.post!.responses['429']!.headers ?? {})).toEqual([
      'Retry-After',
    ]);
  });

  it('every operation with a JSON body lists 415, but the OAuth token endpoint (400 there)', () => {
    for (const [key, operation] of operations) {
      if (operation.requestBody === undefined) continue;
      expect(Object.keys(operation.responses), key).toContain(key === 'POST /auth/token' ? '400' : '415');
    }
  });

  it('every operation with a body lists 413 (its size limit) and 503 with Retry-After (the body budget)', () => {
    for (const [key, operation] of operations) {
      if (operation.requestBody === undefined || key === 'POST /auth/token') continue;
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['413', '503']));
      expect(Object.keys(operation.responses['503']!.headers ?? {}), key).toEqual(['Retry-After']);
    }
  });

  it("the device flow's two endpoints take JSON and OAuth's form encoding (RFC 8628 §3.1, §3.4), as they answer", () => {
    for (const path of ['/auth/device', '/auth/token']) {
      const body = document.paths[path]!.post!.requestBody as { content: Record<string, unknown> };
      expect(Object.keys(body.content), path).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    }
  });

  it('the bulk edit documents add_labels, remove_labels and its dry run', () => {
    const patch = document.paths['/api/locations']!.patch! as Operation & {
      parameters?: { name: string; in: string }[];
    };
    const body = patch.requestBody as {
      content: {
        'application/json': { schema: { properties: Record<string, { type?: string; description?: string }> } };
      };
    };
    const { properties } = body.content['application/json'].schema;
    for (const field of ['add_labels', 'remove_labels']) {
      expect(properties[field]?.type, field).toBe('array');
      expect(properties[field]?.description, field).toMatch(/set\.labels/);
    }
    expect(patch.parameters?.map((parameter) => [parameter.in, parameter.name])).toEqual([['query', 'dryRun']]);
  });

  it('names the server that serves it, whatever its port ("Try it out" in /api/docs goes there)', () => {
    expect(document.servers?.[0]?.url).toBe('/');
  });

  it('named schemas (Error, Client, Location, User, ApiToken…), each defined once and referred to', () => {
    const names = Object.keys(document.components?.schemas ?? {});
    expect(names).toEqual(
      expect.arrayContaining(['Error', 'Client', 'Location', 'LocationRecord', 'User', 'ApiToken', 'Me']),
    );
    const text = JSON.stringify(document);
    // The error body's fields are written out once, in components, not once per answer.
    expect(text.match(/"statusCode":\{/g)).toHaveLength(1);
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]!);
    expect(new Set(refs)).toEqual(new Set(names));
    const clients = document.paths['/api/clients']!.get!.responses['200'] as unknown as {
      content: { 'application/json': { schema: { items: unknown } } };
    };
    expect(clients.content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/Client' });
  });

  it("passes Redocly's recommended ruleset with no error and no warning but the two documented here", async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // package.json names no license: the document cannot name one either.
        'info-license': 'off',
        // GET /auth/setup answers 200 only (the Host check's 400, common to every route, is not listed per route).
        'operation-4xx-response': 'off',
      },
    });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    expect(problems.map((problem) => `${problem.ruleId}: ${problem.message} ${problem.location[0]?.pointer}`)).toEqual(
      [],
    );
  });

  it('openapi-typescript makes named types and named operations from it', async () => {
    const types = astToString(await openapiTS(text));
    for (const name of ['Error', 'Client', 'Location', 'User', 'ApiToken'])
      expect(types).toMatch(new RegExp(`\\b${name}: \\{`));
    for (const operation of ['listClients', 'importLocations', 'createApiToken', 'pollDeviceToken']) {
      expect(types).toMatch(new RegExp(`\\b${operation}: \\{`));
    }
    expect(types).toContain('components["schemas"]["Client"][]');
  });
});
