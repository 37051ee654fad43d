import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';

/**
 * A path that a route of one method has as it is, and that a route of another method matches with a
 * parameter: `GET /api/locations/upload` is `GET /api/locations/:id` with the id "upload", and said
 * 'the path parameter id must match format "uuid"' (a walk sent GET to the upload). Such a request is a
 * 405 naming the methods the path takes (its Allow header too), before authentication: the routes are
 * the API's documentation, no secret.
 */
export function registerShadowedPaths(app: FastifyInstance): void {
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes(':') || route.url.includes('*')) return;
    const taken = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) if (method !== 'HEAD') taken.add(method);
    methods.set(route.url, taken);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.includes(':')) return;
    const path = request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
    const taken = methods.get(path);
    if (taken === undefined || taken.has(request.method)) return;
    const allowed = [...taken].sort();
    return reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send(errorBody(405, `${path} takes ${allowed.join(' or ')}, not ${request.method}`));
  });
}
