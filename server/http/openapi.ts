import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { nameSchemas } from './openapi-components.js';
import { ErrorResponse } from './schemas.js';

/**
 * Each operation's name in generated clients (`client.listClients()`, not `post_api_locations_upload`),
 * by "METHOD url". test/server/openapi.test.ts fails for a route missing here.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'POST /auth/callback': 'signIn',
  'POST /auth/refresh': 'refreshSession',
  'POST /auth/logout': 'signOut',
  'GET /auth/setup': 'getSetupStatus',
  'POST /auth/setup': 'setUp',
  'POST /auth/device': 'requestDeviceAuthorization',
  'POST /auth/token': 'pollDeviceToken',
  'GET /api/me': 'getMe',
  'PATCH /api/me': 'changeOwnPassword',
  'GET /api/backups': 'listBackups',
  'POST /api/backups': 'createBackup',
  'GET /api/backups/:name/download': 'downloadBackup',
  'GET /api/clients': 'listClients',
  'POST /api/clients': 'createClient',
  'GET /api/clients/:clientId': 'getClient',
  'PATCH /api/clients/:clientId': 'updateClient',
  'DELETE /api/clients/:clientId': 'deleteClient',
  'GET /api/locations': 'listLocations',
  'POST /api/locations/upload': 'importLocations',
  'GET /api/locations/:id': 'getLocation',
  'PATCH /api/locations/:id': 'updateLocation',
  'PATCH /api/locations': 'updateLocations',
  'DELETE /api/locations/:id': 'deleteLocation',
  'POST /api/locations/delete': 'deleteLocations',
  'GET /api/mappings': 'listMappings',
  'POST /api/mappings': 'createMapping',
  'PATCH /api/mappings/:id': 'updateMapping',
  'DELETE /api/mappings/:id': 'deleteMapping',
  'GET /api/users': 'listUsers',
  'POST /api/users': 'createUser',
  'PATCH /api/users/:id': 'updateUser',
  'DELETE /api/users/:id': 'deleteUser',
  'GET /api/tokens': 'listApiTokens',
  'POST /api/tokens': 'createApiToken',
  'DELETE /api/tokens/:id': 'revokeApiToken',
  'GET /api/device': 'listDeviceRequests',
  'POST /api/device/approve': 'approveDeviceRequest',
  'POST /api/device/deny': 'denyDeviceRequest',
  'GET /api/audit': 'listAuditEntries',
  'POST /api/operations/:id/undo': 'undoOperation',
};

/** The routes that take no credential: no lock on them in Swagger UI. */
const PUBLIC = new Set([
  'POST /auth/callback',
  'POST /auth/refresh',
  'GET /auth/setup',
  'POST /auth/setup',
  'POST /auth/device',
  'POST /auth/token',
]);

/** The lists: how many there are in all, whatever the page. */
const TOTAL_COUNTED = new Set(['GET /api/clients', 'GET /api/locations']);

// @fastify/swagger wraps each header's schema itself: these are the schemas.
const TOTAL_COUNT = { 'X-Total-Count': { type: 'integer', description: 'How many in all, whatever the page' } };
const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before asking again' } };

type Schema = Record<string, unknown>;

/** A response's description and headers, as @fastify/swagger reads them from the response schema. */
function describedResponses(key: string, responses: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => {
      const code = Number(status);
      const headers =
        code === 200 && TOTAL_COUNTED.has(key) ? TOTAL_COUNT : code === 429 || code === 503 ? RETRY_AFTER : undefined;
      const description =
        code < 400 ? (STATUS_CODES[code] ?? 'OK') : `${STATUS_CODES[code] ?? 'Error'}: the error body`;
      return [status, { ...schema, description, ...(headers ? { headers } : {}) }];
    }),
  );
}

/**
 * /api/openapi.json is generated from the very route schemas that validate requests and serialize
 * responses, so it cannot drift from the code; /api/docs shows it.
 */
export const openApi = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Agency Desk API',
        version: '1',
        description:
          'Clients and locations of an agency, on this machine. Sign in with POST /auth/callback, or use an API ' +
          'token (README: "API tokens and scripts"), and send `Authorization: Bearer <token>`. Every error is ' +
          '`{statusCode, error, message, details?}`.',
      },
      // The server that serves the document, whatever its port (the desktop app moves off 4870 when it
      // is taken: a fixed address sent every "Try it out" of /api/docs there, found by a script's walk).
      servers: [{ url: '/', description: 'This server; `agency-desk url` prints its address' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (documents) => nameSchemas((documents as { openapiObject: object }).openapiObject),
    transform: ({ schema, url, route }) => {
      if (schema === undefined || (schema as Schema).hide) return { schema, url };
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const key = `${methods[0]} ${url}`;
      const own = schema as Schema;
      const declared = own.response as Record<string, Schema> | undefined;
      // Every body may be too large (413), find the server holding its budget of bodies (503), or be of
      // another type (415); on the OAuth token endpoint these are its 400 (RFC 6749 §5.2).
      const error = ErrorResponse as unknown as Schema;
      const responses =
        declared && own.body && key !== 'POST /auth/token'
          ? { ...declared, 413: error, 415: error, 503: error }
          : declared;
      return {
        url,
        schema: {
          ...own,
          operationId:
            OPERATION_IDS[key] ?? key.toLowerCase().replace(/[^a-z]+(.)/g, (_, c: string) => c.toUpperCase()),
          ...(PUBLIC.has(key) ? { security: [] } : {}),
          ...(responses ? { response: describedResponses(key, responses) } : {}),
        },
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
