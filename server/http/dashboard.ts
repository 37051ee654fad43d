import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// The dashboard loads nothing from elsewhere and runs no inline script (README: "Security").
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const API_PREFIXES = ['/api/', '/auth/', '/health'];

/** Serves the built dashboard at `/` (its decorators reach the root, for the deep-link fallback). */
export const dashboard = fp(async (app: FastifyInstance, options: { root: string }) => {
  const setHeaders = (reply: FastifyReply, file: string) => {
    reply.header('content-security-policy', DASHBOARD_CSP);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    // Vite fingerprints everything under assets/; index.html must be checked each time.
    reply.header(
      'cache-control',
      file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  };
  // wildcard: each file is looked up when asked for, not listed once at start: a dashboard built again
  // while the server runs (npm run build in another terminal) is served whole, where a list made at start
  // had the new index.html name scripts it did not hold (a blank window). A path with no file falls
  // through to the not-found handler: a page path gets index.html (sendDashboardPage), the rest a 404.
  // dotfiles: a .env or .git that lands in the folder is never served (wildcard serving allows them by default).
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: true,
    dotfiles: 'ignore',
    setHeaders,
    index: 'index.html',
  });
});

/** A page path the dashboard's router owns (not the API, not a file): answered with index.html. */
export function sendDashboardPage(request: FastifyRequest, reply: FastifyReply): boolean {
  const page = request.url.split('?')[0] ?? '/';
  // HEAD as its GET (a review: HEAD of a deep link was a 404 while its GET was the page).
  if (
    (request.method !== 'GET' && request.method !== 'HEAD') ||
    API_PREFIXES.some((prefix) => page.startsWith(prefix)) ||
    path.extname(page) !== ''
  ) {
    return false;
  }
  void reply.sendFile('index.html');
  return true;
}
