import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** "host" or "host:port" with the port stripped; IPv6 keeps its brackets. */
function hostName(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * DNS rebinding and cross-site requests: a web page the user visits can make the browser send requests
 * to 127.0.0.1, but it cannot forge the Host of a rebound name nor its own Origin. So the API answers
 * only loopback Host names (plus an explicitly configured listen address) and refuses any Origin that
 * is not this server's own. There is no CORS: no other origin is ever allowed.
 */
export function registerLocalhostGuard(app: FastifyInstance, extraHosts: readonly string[]): void {
  const allowed = new Set([
    ...LOOPBACK_NAMES,
    ...extraHosts.map((host) => hostName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)),
  ]);
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host;
    if (host === undefined || !allowed.has(hostName(host))) {
      throw new HttpError(400, 'This server answers only requests addressed to localhost or 127.0.0.1');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host.toLowerCase()}`) {
      throw new HttpError(403, 'Requests from web pages of other origins are refused');
    }
  });
}
