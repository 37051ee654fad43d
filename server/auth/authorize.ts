import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import { Forbidden, Unauthorized } from '../http/errors.js';
import type { Principal } from '../http/guards.js';
import type { Role } from '../http/schemas.js';

/** What a write needs of its caller. */
export interface WriteNeed {
  roles: readonly Role[];
}

interface CallerNow {
  expires_at: number;
  role: Role;
  client_id: string | null;
  organization_id: string;
}

/**
 * The caller's right to write, read again inside the write's own transaction (issue 13, finding 1): the
 * guards run when the headers arrive, and a body can take minutes to come, during which the caller may
 * be removed, demoted or signed out. Call it as the first statement of every write transaction; it
 * throws 401 when the session is gone or expired, 403 when the user no longer has a role in `roles`
 * (or, as a Client Viewer, another client). Never cached: it costs one indexed read per write.
 */
export function authorizeWrite(db: Db, principal: Principal, need: WriteNeed, now: number): void {
  const current = statement<[string], CallerNow>(
    db,
    `SELECT s.access_expires_at AS expires_at, u.role, u.client_id, u.organization_id
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`,
  ).get(principal.sessionId);
  if (current === undefined || current.expires_at <= now) {
    throw Unauthorized('Your session ended while this request was under way: sign in again; nothing was changed');
  }
  const sameAccount =
    current.organization_id === principal.organizationId &&
    (current.role !== 'client_viewer' || current.client_id === principal.clientId);
  if (!sameAccount || !need.roles.includes(current.role)) {
    throw Forbidden('Your role changed while this request was under way; nothing was changed');
  }
}
