import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import { Forbidden } from '../http/errors.js';
import { canSeeClient, refusal, type Access, type Principal } from '../http/guards.js';
import type { Role } from '../http/schemas.js';
import { parseScopes, SCOPES, scopesAllowed } from '../tokens/scopes.js';
import { notAuthenticated } from './session.js';

/** What a write needs of its caller: a route's Access, and the client it changes when it changes one. */
export interface WriteNeed extends Access {
  /** The client the write changes: refused to a caller limited to another client. */
  clientId?: string;
}

interface CallerNow {
  expires_at: number | null;
  role: Role;
  user_client_id: string | null;
  organization_id: string;
  /** An API token's own scopes and client limit; null for a session. */
  scopes: string | null;
  token_client_id: string | null;
}

const SESSION_NOW = `SELECT s.access_expires_at AS expires_at, u.role, u.client_id AS user_client_id, u.organization_id,
    NULL AS scopes, NULL AS token_client_id
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.user_id = ?`;
const TOKEN_NOW = `SELECT t.expires_at, u.role, u.client_id AS user_client_id, u.organization_id,
    t.scopes, t.client_id AS token_client_id
  FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ? AND t.user_id = ?`;

/**
 * The caller's right to write, read again inside the write's own transaction (issue 13, finding 1): the
 * guards run when the headers arrive, and a body can take minutes to come, during which the caller may
 * be removed, demoted, signed out or its token revoked. Call it as the first statement of every write
 * transaction; it throws 401 when the session or token is gone or expired, 403 when the caller no longer
 * may do what `need` says. Never cached: it costs one indexed read per write.
 */
export function authorizeWrite(db: Db, principal: Principal, need: WriteNeed, now: number): void {
  const { kind, id } = principal.credential;
  const current = statement<[string, string], CallerNow>(db, kind === 'session' ? SESSION_NOW : TOKEN_NOW).get(
    id,
    principal.userId,
  );
  if (current === undefined || (current.expires_at !== null && current.expires_at <= now)) {
    throw notAuthenticated(
      kind === 'session'
        ? 'Your session ended while this request was under way: sign in again; nothing was changed'
        : 'The API token is not valid; nothing was changed',
      true,
    );
  }
  const actual = principalNow(principal, current);
  if (current.organization_id !== principal.organizationId || actual.clientId !== principal.clientId) {
    throw Forbidden('Your access changed while this request was under way; nothing was changed');
  }
  const refused = refusal(actual, need);
  if (refused !== undefined) throw Forbidden(`${refused}; nothing was changed`);
  if (need.clientId !== undefined && !canSeeClient(actual, need.clientId)) {
    throw Forbidden('You can only act on your own client; nothing was changed');
  }
}

/** What the caller may do as the database has it now: its scopes cut to its role, its client limit. */
function principalNow(principal: Principal, current: CallerNow): Principal {
  const granted = current.scopes === null ? SCOPES : (parseScopes(current.scopes) ?? []);
  return {
    ...principal,
    role: current.role,
    scopes: scopesAllowed(granted, current.role),
    clientId: current.role === 'client_viewer' ? current.user_client_id : current.token_client_id,
  };
}
