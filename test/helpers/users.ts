import { afterAll, beforeAll } from 'vitest';
import type { Role } from '../../server/http/schemas.js';
import { buildTestApp, type TestApp } from './app.js';

export interface SignedInApp<Name extends string> {
  t: TestApp;
  /** An access token for each user, signed in once for the whole file. */
  tokens: Record<Name, string>;
  ids: Record<Name, string>;
}

/**
 * The test app with users `<name>@example.com` in the given roles, each signed in once (Argon2 costs
 * tens of milliseconds a login: a file reuses these tokens). Client Viewers need their client's id.
 */
export async function buildSignedInApp<Name extends string>(
  users: Record<Name, Role | { role: 'client_viewer'; clientName: string }>,
  options: Parameters<typeof buildTestApp>[0] = {},
): Promise<SignedInApp<Name> & { clientIds: Record<string, string> }> {
  const t = await buildTestApp(options);
  const tokens = {} as Record<Name, string>;
  const ids = {} as Record<Name, string>;
  const clientIds: Record<string, string> = {};
  const entries = Object.entries(users) as [Name, Role | { role: 'client_viewer'; clientName: string }][];
  // Admins first: Client Viewers' clients are created through the API by the first Admin.
  entries.sort(([, a], [, b]) => Number(b === 'admin') - Number(a === 'admin'));
  for (const [name, spec] of entries) {
    const email = `${name}@example.com`;
    if (typeof spec === 'string') {
      ids[name] = await t.addUser(email, spec);
    } else {
      const adminName = entries.find(([, other]) => other === 'admin')?.[0];
      if (adminName === undefined) throw new Error('a Client Viewer needs an admin user to create its client');
      clientIds[spec.clientName] ??= await t.createClient(tokens[adminName], spec.clientName);
      ids[name] = await t.addUser(email, 'client_viewer', clientIds[spec.clientName]);
    }
    tokens[name] = await t.login(email);
  }
  return { t, tokens, ids, clientIds };
}

/**
 * The test app with one Admin signed in, built before the file's tests and closed after them. Read
 * `t()` and `admin()` inside hooks and tests, not at the top of the file.
 */
export function appWithAdminPerFile(): { t: () => TestApp; admin: () => string } {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    ({
      t,
      tokens: { admin },
    } = await buildSignedInApp({ admin: 'admin' }));
  });
  afterAll(() => t.close());
  return { t: () => t, admin: () => admin };
}
