import { recordEntry, type Actor } from '../audit/queries.js';
import { hashPassword } from '../auth/passwords.js';
import { SetupBody } from '../auth/schemas.js';
import type { Db } from '../db/open.js';
import { bodyErrors, detailsInWords } from '../http/validation.js';
import { write } from '../db/write.js';
import { anyUserExists, insertOrganization, insertUser } from './queries.js';
import type { User } from './schemas.js';
import { isBlank } from '../http/control-characters.js';

export interface BootstrapAdmin {
  organizationName: string;
  email: string;
  password: string;
}

export class BootstrapError extends Error {
  override name = 'BootstrapError';
}

/**
 * The first account from the environment or the CLI, checked by the same schema as POST /auth/setup.
 */
export function checkBootstrapAdmin(admin: BootstrapAdmin): void {
  const details = bodyErrors(SetupBody, {
    organization_name: admin.organizationName,
    email: admin.email.trim(),
    password: admin.password,
  });
  if (isBlank(admin.organizationName)) details.push({ path: '/body/organization_name', message: 'must not be blank' });
  if (details.length > 0) throw new BootstrapError(detailsInWords(details));
}

/**
 * Creates the organization and its first Admin, only while the database has no user at all. Returns
 * the new Admin, or undefined when an account already exists (nothing is changed then). The trail's
 * first entry says who did it: `by` (the command line, the environment at start), or the new Admin
 * itself when it set Agency Desk up from the dashboard.
 */
export async function bootstrapAdmin(
  db: Db,
  admin: BootstrapAdmin,
  now = Date.now(),
  by: Actor | null = null,
): Promise<User | undefined> {
  if (anyUserExists(db)) return undefined;
  const passwordHash = await hashPassword(admin.password);
  return write(db, () => {
    if (anyUserExists(db)) return undefined;
    const organizationId = insertOrganization(db, admin.organizationName.trim(), now);
    const user = insertUser(
      db,
      { organizationId, email: admin.email, passwordHash, role: 'admin', clientId: null },
      now,
    );
    const actor = by ?? { type: 'user', id: user.id, email: user.email, name: user.email, token_id: null };
    recordEntry(
      db,
      {
        organizationId,
        actor,
        action: 'user.created',
        target: { type: 'user', id: user.id, name: user.email },
        summary: { role: user.role },
      },
      now,
    );
    return user;
  });
}
