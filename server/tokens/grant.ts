import { clientById } from '../clients/queries.js';
import type { Db } from '../db/open.js';
import { Forbidden, Invalid } from '../http/errors.js';
import { roleLabel, type Principal } from '../http/guards.js';
import { apiTokenById, insertApiToken } from './queries.js';
import { ROLE_SCOPES, type Scope } from './scopes.js';
import type { CreatedApiToken } from './schemas.js';

/** Whose token it is: a signed-in caller, or the approver of a device request. */
export type Owner = Pick<Principal, 'userId' | 'organizationId' | 'role' | 'clientId'>;

export interface TokenGrant {
  name: string;
  scopes: readonly Scope[];
  clientId: string | null;
}

/**
 * What a user may grant a token: scopes its role allows, a client of its organization, and never past a
 * Client Viewer's own client. Returns the client limit to store. Used for POST /api/tokens and for a
 * device request's approval.
 */
export function checkGrant(db: Db, principal: Owner, grant: TokenGrant): string | null {
  const beyond = grant.scopes.filter((scope) => !ROLE_SCOPES[principal.role].includes(scope));
  if (beyond.length > 0) {
    throw Forbidden(`A ${roleLabel(principal.role)} cannot grant the ${beyond.join(' and ')} scope`);
  }
  if (grant.clientId !== null && clientById(db, principal.organizationId, grant.clientId) === undefined) {
    throw Invalid('clientId does not name a client of your organization', [
      { path: '/body/clientId', message: 'is not a client of your organization' },
    ]);
  }
  if (principal.clientId !== null && grant.clientId !== null && grant.clientId !== principal.clientId) {
    throw Forbidden('You can only make a token for your own client');
  }
  const clientId = principal.clientId ?? grant.clientId;
  if (clientId !== null && grant.scopes.includes('admin')) {
    throw Invalid('A token limited to one client cannot have the admin scope', [
      { path: '/body/scopes', message: 'admin is for the whole organization' },
    ]);
  }
  return clientId;
}

/** Inserts the token inside write(), after authorizeWrite; answers with its secret, the only time it is shown. */
export function grantToken(
  db: Db,
  principal: Owner,
  grant: TokenGrant,
  expiresAt: number | null,
  now: number,
): CreatedApiToken {
  const clientId = checkGrant(db, principal, grant);
  const { id, secret } = insertApiToken(
    db,
    { userId: principal.userId, name: grant.name, scopes: grant.scopes, clientId, expiresAt },
    now,
  );
  return { ...apiTokenById(db, principal.organizationId, id)!, token: secret };
}
