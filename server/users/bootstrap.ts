import { hashPassword } from '../auth/passwords.js';
import type { Db } from '../db/open.js';
import { anyUserExists, insertOrganization, insertUser } from '../users/queries.js';
import type { User } from '../users/schemas.js';

export interface BootstrapAdmin {
  organizationName: string;
  email: string;
  password: string;
}

export class BootstrapError extends Error {
  override name = 'BootstrapError';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The checks of the first account, for input that did not come through an HTTP schema (environment, CLI). */
export function checkBootstrapAdmin(admin: BootstrapAdmin): void {
  if (!EMAIL.test(admin.email.trim())) throw new BootstrapError(`"${admin.email}" is not an e-mail address`);
  if (admin.password.length < 8) throw new BootstrapError('The password needs at least 8 characters');
  if (admin.organizationName.trim() === '') throw new BootstrapError('The organization needs a name');
}

/**
 * Creates the organization and its first Admin, only while the database has no user at all. Returns
 * the new Admin, or undefined when an account already exists (nothing is changed then).
 */
export async function bootstrapAdmin(db: Db, admin: BootstrapAdmin, now = Date.now()): Promise<User | undefined> {
  if (anyUserExists(db)) return undefined;
  const passwordHash = await hashPassword(admin.password);
  return db.transaction(() => {
    if (anyUserExists(db)) return undefined;
    const organizationId = insertOrganization(db, admin.organizationName.trim(), now);
    return insertUser(db, { organizationId, email: admin.email, passwordHash, role: 'admin', clientId: null }, now);
  })();
}
