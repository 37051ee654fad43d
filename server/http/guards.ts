import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Role } from './schemas.js';
import { Forbidden } from './errors.js';
import { ROLE_SCOPES, type Scope } from '../tokens/scopes.js';

/** How the caller signed in: a dashboard session, or an API token (README: "API tokens"). */
export type Credential = { kind: 'session'; id: string } | { kind: 'api_token'; id: string };

/** Who is calling: set by the auth hook on every authenticated request. */
export interface Principal {
  userId: string;
  credential: Credential;
  organizationId: string;
  email: string;
  /** The user's role now. */
  role: Role;
  /**
   * The one client the caller may see and change: a Client Viewer's own client, or an API token's client
   * limit; null for every client of the organization.
   */
  clientId: string | null;
  /** What the caller may do: all its role allows for a session; for a token, its scopes cut to the role. */
  scopes: readonly Scope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** What the request's credential may do, as GET /api/me says it (auth/schemas.ts, Access), for every store. */
export function accessOf({ credential, scopes, clientId }: Principal) {
  return {
    credential: credential.kind,
    token_id: credential.kind === 'api_token' ? credential.id : null,
    scopes: [...scopes],
    client_id: clientId,
  };
}

/** The caller, on a route the auth hook has already guarded. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf on a public route');
  return request.principal;
}

/** What a route needs of its caller, declared once per route and checked again inside its write. */
export interface Access {
  roles: readonly Role[];
  /** The scope an API token needs; a session needs only the role. */
  scope?: Scope;
  /** Only a caller not limited to one client (the organization's users and tokens, a new client). */
  wholeOrganization?: boolean;
}

const EVERY_ROLE: readonly Role[] = ['admin', 'viewer', 'client_viewer'];

/** The needs of the API's routes, by name: each route takes one (test/server/roles.test.ts checks them all). */
export const NEEDS = {
  /** Any signed-in caller, whatever its scopes: /api/me, sign-out. */
  signedIn: { roles: EVERY_ROLE },
  /** Its own API tokens and device approvals: any session; a token only with the admin scope (no token mints tokens). */
  ownTokens: { roles: EVERY_ROLE, scope: 'admin' },
  read: { roles: EVERY_ROLE, scope: 'read' },
  import: { roles: ['admin'], scope: 'import' },
  clients: { roles: ['admin'], scope: 'clients' },
  createClient: { roles: ['admin'], scope: 'clients', wholeOrganization: true },
  admin: { roles: ['admin'], scope: 'admin', wholeOrganization: true },
} as const satisfies Record<string, Access>;

/** The first reason the caller may not do what `access` needs, or undefined when it may. */
export function refusal(principal: Principal, access: Access): string | undefined {
  if (!access.roles.includes(principal.role))
    return `Only ${access.roles.map(roleLabel).join(' or ')} users can do this`;
  // A session has every scope its role allows; only an API token can lack one.
  if (
    principal.credential.kind === 'api_token' &&
    access.scope !== undefined &&
    !principal.scopes.includes(access.scope)
  ) {
    return `This API token lacks the ${access.scope} scope`;
  }
  if (access.wholeOrganization && principal.clientId !== null) {
    return 'This API token is limited to one client: it cannot do this';
  }
  return undefined;
}

/**
 * A per-route onRequest hook: it runs before the body is read, so a Viewer's 30 MiB upload is refused
 * without being parsed. A route with a :clientId parameter is also closed to a caller limited to another
 * client. The write checks it all again inside its transaction (auth/authorize.ts).
 */
export function requireAccess(access: Access): onRequestHookHandler {
  return async function accessGuard(request: FastifyRequest, _reply: FastifyReply) {
    const principal = principalOf(request);
    const refused = refusal(principal, access);
    if (refused !== undefined) throw Forbidden(refused);
    const { clientId } = request.params as { clientId?: unknown };
    if (typeof clientId === 'string' && !canSeeClient(principal, clientId)) {
      throw Forbidden('You can only act on your own client');
    }
  };
}

export function roleLabel(role: Role): string {
  return role === 'admin' ? 'Admin' : role === 'viewer' ? 'Viewer' : 'Client Viewer';
}

/** Every scope a session of this role has. */
export function sessionScopes(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

/** Client Viewers and client-limited tokens see only their one client; everyone else, every client of their organization. */
export function canSeeClient(principal: Principal, clientId: string): boolean {
  return principal.clientId === null || principal.clientId === clientId;
}
