import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

// RFC 9110 section 7.2 / RFC 3986 section 3.2.2: Host is uri-host [ ":" port ]. Here a host is a name, an
// IPv4 address or a bracketed IPv6 address, and a port at most five digits: nothing else may follow
// ("localhost:evil.com", "[::1].evil.com", "localhost:4921@evil.com" are refused).
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i;

/** The host of a Host header in lower case (IPv6 keeps its brackets), or null when it is not host[:port]. */
function hostOfAuthority(hostHeader: string): string | null {
  const match = AUTHORITY.exec(hostHeader);
  if (match === null) return null;
  if (match[2] !== undefined && Number(match[2]) > 65535) return null;
  return match[1]!.toLowerCase();
}

/** A configured listen address as the Host header names it: IPv6 in brackets. */
function configuredHost(host: string): string {
  const bare = host.trim().toLowerCase();
  return bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
}

/**
 * DNS rebinding and cross-site requests: a web page the user visits can make the browser send requests
 * to 127.0.0.1, but it cannot forge the Host of a rebound name nor its own Origin. So the API answers
 * only loopback Host names (plus an explicitly configured listen address) and refuses any Origin that
 * is not this server's own. There is no CORS: no other origin is ever allowed.
 */
export function registerLocalhostGuard(app: FastifyInstance, extraHosts: readonly string[]): void {
  const allowed = new Set([...LOOPBACK_NAMES, ...extraHosts.map(configuredHost)]);
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host;
    const name = host === undefined ? null : hostOfAuthority(host);
    if (host === undefined || name === null || !allowed.has(name)) {
      throw new HttpError(400, 'This server answers only requests addressed to localhost or 127.0.0.1');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host.toLowerCase()}`) {
      throw new HttpError(403, 'Requests from web pages of other origins are refused');
    }
  });
}
