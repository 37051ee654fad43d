import { hashPassword } from '../auth/passwords.js';
import { SetupBody } from '../auth/schemas.js';
import type { Db } from '../db/open.js';
import { bodyErrors, detailsInWords } from '../http/validation.js';
import { write } from '../db/write.js';
import { anyUserExists, insertOrganization, insertUser } from './queries.js';
import type { User } from './schemas.js';

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
  if (admin.organizationName.trim() === '')
    details.push({ path: '/body/organization_name', message: 'must not be blank' });
  if (details.length > 0) throw new BootstrapError(detailsInWords(details));
}

/**
 * Creates the organization and its first Admin, only while the database has no user at all. Returns
 * the new Admin, or undefined when an account already exists (nothing is changed then).
 */
export async function bootstrapAdmin(db: Db, admin: BootstrapAdmin, now = Date.now()): Promise<User | undefined> {
  if (anyUserExists(db)) return undefined;
  const passwordHash = await hashPassword(admin.password);
  return write(db, () => {
    if (anyUserExists(db)) return undefined;
    const organizationId = insertOrganization(db, admin.organizationName.trim(), now);
    return insertUser(db, { organizationId, email: admin.email, passwordHash, role: 'admin', clientId: null }, now);
  });
}
