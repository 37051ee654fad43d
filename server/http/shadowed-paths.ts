import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { errorBody } from './errors.js';

/** The methods the API takes at each path, to answer a method it does not take there with a 405. */
export interface RouteMethods {
  /**
   * The methods some route takes at `path` (without its query), HEAD beside GET; empty when no route
   * has the path. A route with the path as it is wins over one matching it with a parameter.
   */
  allowed(path: string): string[];
  /** Whether a route of `method` with a parameter matches `path`. */
  matchesWithParam(method: string, path: string): boolean;
}

/** The request's path without its query or a trailing slash. */
const pathOf = (url: string) => url.split('?')[0]!.replace(/(.)\/+$/, '$1');

// The most of a path an error repeats: a 300-character id came back whole in the message (a walk).
const SHOWN_PATH = 80;

/** A path cut to SHOWN_PATH characters. */
const cut = (path: string) => (path.length > SHOWN_PATH ? `${path.slice(0, SHOWN_PATH)}…` : path);

/** The request's path without its query, cut to SHOWN_PATH characters. */
export const shortPath = (url: string) => cut(url.split('?')[0]!);

/** A 405 naming the methods the path of `url` takes ("GET, HEAD or POST"), in the Allow header too. */
export function sendWrongMethod(reply: FastifyReply, method: string, url: string, allowed: string[]) {
  const words = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
  return reply
    .code(405)
    .header('allow', allowed.join(', '))
    .send(errorBody(405, `${cut(pathOf(url))} takes ${words}, not ${method}`));
}

/** A route's path as a pattern: a parameter is any one part. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The methods as the Allow header gives them: sorted, HEAD beside GET (Fastify answers it for each GET). */
function allowList(methods: Iterable<string>): string[] {
  const list = new Set(methods);
  if (list.has('GET')) list.add('HEAD');
  return [...list].sort();
}

/**
 * A method the API does not take at a path it has is a 405 naming those it does (its Allow header too),
 * not a 404 "No route" (a walk sent PUT to the upload) nor a parameter's error:
 * - a path that a route of one method has as it is, and that a route of another method matches with a
 *   parameter: `GET /api/locations/upload` is `GET /api/locations/:id` with the id "upload", and said
 *   'the path parameter id must match format "uuid"' (a walk). That request is answered by a hook of
 *   the parametric routes alone, once the caller is signed in, before the route's own hooks: the other
 *   routes (GET /api/clients, a script's most frequent call) pay nothing.
 * - a method no route takes at a path (PUT /api/locations/upload): the not-found handler asks
 *   `allowed` (the returned RouteMethods).
 */
export function registerShadowedPaths(app: FastifyInstance): RouteMethods {
  const methods = new Map<string, Set<string>>();
  const withParams: { method: string; pattern: RegExp }[] = [];
  const shadowed: onRequestHookHandler = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const taken = methods.get(pathOf(request.url));
    if (taken === undefined || taken.has(request.method)) return done();
    void sendWrongMethod(reply, request.method, request.url, allowList(taken));
  };
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const routeMethods = [route.method].flat().filter((method) => method !== 'HEAD');
    if (route.url.includes(':')) {
      // First among the route's own hooks (the API's authentication, a hook of its context, runs before).
      route.onRequest = [shadowed, ...[route.onRequest ?? []].flat()];
      const pattern = patternOf(route.url);
      for (const method of routeMethods) withParams.push({ method, pattern });
      return;
    }
    const taken = methods.get(route.url) ?? new Set<string>();
    for (const method of routeMethods) taken.add(method);
    methods.set(route.url, taken);
  });
  return {
    allowed(url: string): string[] {
      const path = pathOf(url);
      const exact = methods.get(path);
      if (exact !== undefined) return allowList(exact);
      return allowList(withParams.filter(({ pattern }) => pattern.test(path)).map(({ method }) => method));
    },
    matchesWithParam(method: string, url: string): boolean {
      // HEAD is answered by each GET route (kept out of the table above).
      const asked = method === 'HEAD' ? 'GET' : method;
      const path = pathOf(url);
      return withParams.some((route) => route.method === asked && route.pattern.test(path));
    },
  };
}
