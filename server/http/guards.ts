import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Role } from './schemas.js';
import { Forbidden } from './errors.js';

/** Who is calling: set by the auth hook on every authenticated request. */
export interface Principal {
  userId: string;
  sessionId: string;
  organizationId: string;
  email: string;
  role: Role;
  /** The one client a Client Viewer may see; null for the other roles. */
  clientId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The caller, on a route the auth hook has already guarded. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf on a public route');
  return request.principal;
}

/**
 * A per-route onRequest hook: it runs before the body is read, so a Viewer's 30 MiB upload is refused
 * without being parsed.
 */
export function requireRole(...roles: Role[]): onRequestHookHandler {
  return async function roleGuard(request: FastifyRequest, _reply: FastifyReply) {
    if (!roles.includes(principalOf(request).role)) {
      throw Forbidden(`Only ${roles.map(roleLabel).join(' or ')} users can do this`);
    }
  };
}

export function roleLabel(role: Role): string {
  return role === 'admin' ? 'Admin' : role === 'viewer' ? 'Viewer' : 'Client Viewer';
}

/** Client Viewers see only their own client; everyone else, every client of their organization. */
export function canSeeClient(principal: Principal, clientId: string): boolean {
  return principal.role !== 'client_viewer' || principal.clientId === clientId;
}
