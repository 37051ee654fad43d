import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
          'Clients and locations of an agency, on this machine. Sign in with POST /auth/callback and send ' +
          '`Authorization: Bearer <access_token>`. Every error is `{statusCode, error, message, details?}`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
