import fs from 'node:fs';
import { recordEntry } from '../audit/queries.js';
import { hashPassword } from '../auth/passwords.js';
import { deleteSessionsOfUser, normalizeEmail } from '../auth/queries.js';
import { clientById } from '../clients/queries.js';
import { write } from '../db/write.js';
import { openStore } from '../db/store.js';
import type { Role } from '../http/schemas.js';
import { bodyErrors, detailsInWords } from '../http/validation.js';
import { databaseFileIn } from '../start.js';
import { deleteApiTokensOfUser } from '../tokens/queries.js';
import { bootstrapAdmin, BootstrapError, checkBootstrapAdmin } from '../users/bootstrap.js';
import { countAdmins, deleteUser, emailTaken, insertUser, listUsers, updateUser } from '../users/queries.js';
import { CreateUserBody, type User } from '../users/schemas.js';
import type { Store } from '../db/store.js';
import type { Command } from './command.js';
import { CliError, UsageError } from './errors.js';
import { readNewPassword } from './password.js';
import { cliActor, keyFor, theOrganization, withStore } from './store.js';
import { printTable } from './table.js';

/** The roles as the README writes them (Roles): what `--role` accepts, in any case, and what lists show. */
export const ROLE_NAMES: Record<Role, string> = { admin: 'Admin', viewer: 'Viewer', client_viewer: 'Client Viewer' };

/** "Client Viewer", "client-viewer", "CLIENT_VIEWER" and "client_viewer" are one role. */
export function parseRole(text: string): Role {
  const words = text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
  const role = (Object.keys(ROLE_NAMES) as Role[]).find((candidate) => candidate === words);
  if (role === undefined) {
    throw new UsageError(`Unknown role "${text}": use Admin, Viewer or "Client Viewer" (any case)`);
  }
  return role;
}

const PASSWORD_SOURCES =
  'The password is asked twice at a terminal (nothing is echoed); scripts give it in AGENCY_DESK_USER_PASSWORD or as the first line of standard input.';

function userByEmail(store: Store, organizationId: string, email: string): User {
  const user = listUsers(store.db, organizationId).find((candidate) => candidate.email === normalizeEmail(email));
  if (user === undefined) throw new CliError(`No user with the e-mail ${email}`);
  return user;
}

/** As PATCH /api/users words it in the trail: a password is only ever "changed". */
const PASSWORD_CHANGED = { password: { from: '(hidden)', to: '(changed)' } };

/** A user's change by the command line in the audit trail, in the change's transaction. */
function recordUserEntry(
  store: Store,
  organizationId: string,
  action: string,
  user: { id: string; email: string; client_id: string | null },
  extra: { summary?: object; changes?: object },
  now: number,
): void {
  recordEntry(
    store.db,
    {
      organizationId,
      actor: cliActor(),
      action,
      target: { type: 'user', id: user.id, name: user.email },
      clientId: user.client_id,
      ...extra,
    },
    now,
  );
}

const LAST_ADMIN = 'is the last Admin of the organization: make another user an Admin first';

export const init: Command = {
  name: 'init',
  summary: 'create the organization and its first Admin',
  details:
    'The password is asked twice at a terminal; scripts give it in AGENCY_DESK_ADMIN_PASSWORD or as the first line of standard input.',
  options: {
    email: { type: 'string', value: 'E', description: "the Admin's e-mail address", required: true },
    org: {
      type: 'string',
      value: 'NAME',
      description: 'the organization\'s name (default: AGENCY_DESK_ORG_NAME or "My agency")',
    },
  },
  async run({ options, config }) {
    const { dataDir } = config();
    const organizationName = (options.org as string | undefined) ?? process.env.AGENCY_DESK_ORG_NAME ?? 'My agency';
    const admin = { email: options.email as string, organizationName, password: '' };
    // A wrong --email or --org is a wrong command line, exit status 2, as "user add" says it (a walk).
    try {
      checkBootstrapAdmin({ ...admin, password: 'checked once it is read' });
    } catch (error) {
      throw error instanceof BootstrapError ? new UsageError(error.message) : error;
    }
    admin.password = await readNewPassword('AGENCY_DESK_ADMIN_PASSWORD');
    checkBootstrapAdmin(admin);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const store = openStore(databaseFileIn(dataDir), keyFor(config()));
    try {
      const created = await bootstrapAdmin(store.db, admin, Date.now(), cliActor());
      if (created === undefined) throw new CliError('This database already has accounts: use "agency-desk user add"');
      console.log(`Created the organization "${organizationName}" and its Admin ${created.email}`);
    } finally {
      store.close();
    }
  },
};

/** A Client Viewer has exactly one client of the organization, the other roles none (README: "Roles"). */
function checkClient(store: Store, organizationId: string, role: Role, clientId: string | null): void {
  if ((role === 'client_viewer') !== (clientId !== null)) {
    throw new UsageError('--client is required for a Client Viewer and refused for the other roles');
  }
  if (clientId !== null && clientById(store.db, organizationId, clientId) === undefined) {
    throw new CliError(`No client with the id ${clientId} (agency-desk client list shows them)`);
  }
}

export const userAdd: Command = {
  name: 'user add',
  summary: 'add a user',
  details: PASSWORD_SOURCES,
  options: {
    email: { type: 'string', value: 'E', description: 'e-mail address (the sign-in name)', required: true },
    role: { type: 'string', value: 'ROLE', description: 'Admin, Viewer or "Client Viewer" (any case)', required: true },
    client: { type: 'string', value: 'ID', description: "a Client Viewer's client (agency-desk client list)" },
  },
  async run({ options, config }) {
    const email = options.email as string;
    const role = parseRole(options.role as string);
    const clientId = (options.client as string | undefined) ?? null;
    // The same schema as POST /api/users, checked before the password is asked for.
    const body = (password: string) => ({ email, password, role, ...(clientId === null ? {} : { clientId }) });
    const early = bodyErrors(CreateUserBody, body('checked once it is read')).filter(
      (d) => d.path !== '/body/password',
    );
    if (early.length > 0) throw new UsageError(detailsInWords(early));
    await withStore(config(), async (store) => {
      const organizationId = theOrganization(store);
      checkClient(store, organizationId, role, clientId);
      if (emailTaken(store.db, email)) throw new CliError(`A user with the e-mail ${email} already exists`);
      const password = await readNewPassword('AGENCY_DESK_USER_PASSWORD');
      const details = bodyErrors(CreateUserBody, body(password));
      if (details.length > 0) throw new CliError(detailsInWords(details));
      const passwordHash = await hashPassword(password);
      const user = await write(store.db, () => {
        if (emailTaken(store.db, email)) throw new CliError(`A user with the e-mail ${email} already exists`);
        const now = Date.now();
        const created = insertUser(store.db, { organizationId, email, passwordHash, role, clientId }, now);
        recordUserEntry(store, organizationId, 'user.created', created, { summary: { role } }, now);
        return created;
      });
      console.log(`Added ${user.email} as ${ROLE_NAMES[role]}`);
    });
  },
};

export const userList: Command = {
  name: 'user list',
  summary: "list the organization's users",
  options: { json: { type: 'boolean', description: 'print JSON, as GET /api/users answers' } },
  async run({ options, config }) {
    await withStore(config(), (store) => {
      const organizationId = theOrganization(store);
      const users = listUsers(store.db, organizationId);
      if (options.json) return console.log(JSON.stringify(users, null, 2));
      printTable(
        ['E-MAIL', 'ROLE', 'CLIENT', 'ID'],
        users.map((user) => [
          user.email,
          ROLE_NAMES[user.role],
          user.client_id === null ? '' : (clientById(store.db, organizationId, user.client_id)?.name ?? user.client_id),
          user.id,
        ]),
      );
    });
  },
};

export const userRemove: Command = {
  name: 'user remove',
  summary: 'remove a user and end their sessions (never the last Admin)',
  options: { email: { type: 'string', value: 'E', description: 'the e-mail address of the user', required: true } },
  async run({ options, config }) {
    const email = options.email as string;
    await withStore(config(), async (store) => {
      const organizationId = theOrganization(store);
      await write(store.db, () => {
        const user = userByEmail(store, organizationId, email);
        if (user.role === 'admin' && countAdmins(store.db, organizationId) === 1)
          throw new CliError(`${user.email} ${LAST_ADMIN}`);
        deleteUser(store.db, user.id);
        recordUserEntry(store, organizationId, 'user.deleted', user, {}, Date.now());
      });
      console.log(`Removed ${normalizeEmail(email)}`);
    });
  },
};

export const userResetPassword: Command = {
  name: 'user reset-password',
  summary: "set a user's new password, ending their sessions and API tokens (the way back in for a lost Admin)",
  details: `Works on the database directly, with its key: an Admin who lost their password runs it on the machine that holds the data. ${PASSWORD_SOURCES}`,
  options: { email: { type: 'string', value: 'E', description: 'the e-mail address of the user', required: true } },
  async run({ options, config }) {
    const email = options.email as string;
    await withStore(config(), async (store) => {
      const organizationId = theOrganization(store);
      const user = userByEmail(store, organizationId, email);
      const password = await readNewPassword('AGENCY_DESK_USER_PASSWORD');
      const details = bodyErrors(CreateUserBody, { email: user.email, password, role: user.role });
      if (details.length > 0) throw new CliError(detailsInWords(details));
      const passwordHash = await hashPassword(password);
      await write(store.db, () => {
        const current = userByEmail(store, organizationId, email);
        const now = Date.now();
        updateUser(store.db, current.id, { passwordHash }, now);
        recordUserEntry(store, organizationId, 'user.updated', current, { changes: PASSWORD_CHANGED }, now);
        deleteSessionsOfUser(store.db, current.id);
        // As PATCH /api/users does: a new password may follow a leak, and the user's API tokens go with it.
        deleteApiTokensOfUser(store.db, current.id);
      });
      console.log(`Set a new password for ${user.email}; their sessions and API tokens have ended`);
    });
  },
};
