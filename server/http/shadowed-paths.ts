import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { errorBody } from './errors.js';

/**
 * A path that a route of one method has as it is, and that a route of another method matches with a
 * parameter: `GET /api/locations/upload` is `GET /api/locations/:id` with the id "upload", and said
 * 'the path parameter id must match format "uuid"' (a walk sent GET to the upload). Such a request is a
 * 405 naming the methods the path takes (its Allow header too), once the caller is signed in, before
 * the route's own hooks. The check is a hook of the parametric routes alone: the others (GET
 * /api/clients, a script's most frequent call) pay nothing.
 */
export function registerShadowedPaths(app: FastifyInstance): void {
  const methods = new Map<string, Set<string>>();
  const shadowed: onRequestHookHandler = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const path = request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
    const taken = methods.get(path);
    if (taken === undefined || taken.has(request.method)) return done();
    const allowed = [...taken].sort();
    void reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send(errorBody(405, `${path} takes ${allowed.join(' or ')}, not ${request.method}`));
  };
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    if (route.url.includes(':')) {
      // First among the route's own hooks (the API's authentication, a hook of its context, runs before).
      route.onRequest = [shadowed, ...[route.onRequest ?? []].flat()];
      return;
    }
    const taken = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) if (method !== 'HEAD') taken.add(method);
    methods.set(route.url, taken);
  });
}
