import { useState, type FormEvent } from 'react';
import { ROLE_LABELS, type ClientRow, type RoleName, type UserRow } from '../api/types.js';
import { useClients, useCreateUser, useDeleteUser, useUpdateUser, useUsers } from '../api/queries.js';
import { formatDate, plural } from '../format.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';
import { FormActions } from '../components/FormActions.js';

const ROLES = Object.keys(ROLE_LABELS) as RoleName[];

const ROLE_HELP: Record<RoleName, string> = {
  admin: 'Manages clients, imports locations and manages users.',
  viewer: 'Sees every client and its locations; changes nothing.',
  client_viewer: 'Sees one client’s locations only; changes nothing.',
};

// Plain words for the server's user rules (409: the last Admin, a taken e-mail; 400: the client of a Client Viewer).
const LAST_ADMIN =
  'An organization always keeps at least one Admin, who can manage clients and users. Make another user an Admin first, then try again.';
const USER_RULES = {
  400: 'A Client Viewer needs a client; Admins and Viewers have none.',
  409: 'Either this e-mail already has an account, or this change would leave the organization without an Admin.',
};

function RoleFields({
  role,
  clientId,
  clients,
  onRole,
  onClient,
}: {
  role: RoleName;
  clientId: string;
  clients: ClientRow[];
  onRole: (role: RoleName) => void;
  onClient: (clientId: string) => void;
}) {
  return (
    <>
      <fieldset className="field">
        <legend>Role</legend>
        {ROLES.map((option) => (
          <label key={option} className="radio">
            <input type="radio" name="role" value={option} checked={role === option} onChange={() => onRole(option)} />
            <span>
              <strong>{ROLE_LABELS[option]}</strong> <span className="muted">{ROLE_HELP[option]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {role === 'client_viewer' && (
        <label className="field">
          <span>Client</span>
          <select required value={clientId} onChange={(event) => onClient(event.target.value)}>
            <option value="">Choose the client…</option>
            {clients.map((client) => (
              <option key={client.id} value={client.id}>
                {client.name}
              </option>
            ))}
          </select>
          {clients.length === 0 && (
            <small className="field-error">Create a client first: a Client Viewer sees exactly one.</small>
          )}
        </label>
      )}
    </>
  );
}

function AddUserDialog({ clients, onClose }: { clients: ClientRow[]; onClose: () => void }) {
  const create = useCreateUser();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<RoleName>('viewer');
  const [clientId, setClientId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { email: email.trim(), password, role, clientId: role === 'client_viewer' ? clientId : undefined },
      { onSuccess: onClose },
    );
  };
  return (
    <Dialog title="Add a user" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <ErrorNotice error={create.error} explain={{ ...USER_RULES, 409: 'A user with this e-mail already exists.' }} />
        <TextField label="E-mail" type="email" required autoFocus autoComplete="off" value={email} onValue={setEmail} />
        <RoleFields role={role} clientId={clientId} clients={clients} onRole={setRole} onClient={setClientId} />
        <TextField
          label="Initial password"
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          hint="Give it to them in person; they sign in with it. At least 8 characters."
        />
        <FormActions action={['Add user', 'Adding…']} busy={create.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function ChangeRoleDialog({ user, clients, onClose }: { user: UserRow; clients: ClientRow[]; onClose: () => void }) {
  const update = useUpdateUser();
  const [role, setRole] = useState<RoleName>(user.role);
  const [clientId, setClientId] = useState(user.client_id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: user.id, change: { role, clientId: role === 'client_viewer' ? clientId : null } },
      { onSuccess: onClose },
    );
  };
  return (
    <Dialog title={`Change the role of ${user.email}`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <ErrorNotice error={update.error} explain={{ ...USER_RULES, 409: LAST_ADMIN }} />
        <RoleFields role={role} clientId={clientId} clients={clients} onRole={setRole} onClient={setClientId} />
        <FormActions action="Save" busy={update.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: user.id, change: { password } }, { onSuccess: () => setDone(true) });
  };
  return (
    <Dialog title={`Reset the password of ${user.email}`} onClose={onClose}>
      {done ? (
        <div className="form">
          <p className="notice notice-ok" role="status">
            The password is changed. Give the new one to {user.email} in person.
          </p>
          <div className="form-actions">
            <button type="button" className="button button-primary" autoFocus onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="form" onSubmit={submit}>
          <ErrorNotice error={update.error} />
          <TextField
            label="New password"
            type="password"
            required
            autoFocus
            autoComplete="new-password"
            value={password}
            onValue={setPassword}
            hint="At least 8 characters."
          />
          <FormActions action="Set the password" busy={update.isPending} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}

function RemoveUserDialog({ user, isSelf, onClose }: { user: UserRow; isSelf: boolean; onClose: () => void }) {
  const remove = useDeleteUser();
  return (
    <Dialog title={`Remove ${user.email}?`} onClose={onClose}>
      <div className="form">
        <p>
          {user.email} will no longer be able to sign in.{' '}
          {isSelf && <strong>This is your own account: you will be signed out.</strong>}
        </p>
        <ErrorNotice error={remove.error} explain={{ 409: LAST_ADMIN }} />
        <FormActions
          action={`Remove ${user.email}`}
          busy={remove.isPending}
          danger
          focusCancel
          onCancel={onClose}
          onAction={() => remove.mutate(user.id, { onSuccess: onClose })}
        />
      </div>
    </Dialog>
  );
}

type RowActionKind = 'role' | 'password' | 'remove';
type UserAction = { kind: RowActionKind; user: UserRow } | { kind: 'add' } | null;

// Each button of a user's row; screen readers hear whose ("Change role of ana@agency.test").
const ROW_ACTIONS: { kind: RowActionKind; label: string; whom: string; danger?: boolean }[] = [
  { kind: 'role', label: 'Change role', whom: ' of ' },
  { kind: 'password', label: 'Reset password', whom: ' of ' },
  { kind: 'remove', label: 'Remove', whom: ' ', danger: true },
];

/** Admin: the organization's accounts and their roles. */
export function UsersPage({ currentUserId }: { currentUserId: string }) {
  const users = useUsers(true);
  const clients = useClients();
  const [action, setAction] = useState<UserAction>(null);
  const clientNames = new Map((clients.data ?? []).map((client) => [client.id, client.name]));
  const close = () => setAction(null);
  const sorted = [...(users.data ?? [])].sort((a, b) => a.email.localeCompare(b.email));

  return (
    <section className="page" aria-labelledby="users-title">
      <header className="page-header">
        <div>
          <h1 id="users-title">Users</h1>
          {users.data && <p className="muted">{plural(users.data.length, 'user')}</p>}
        </div>
        <button type="button" className="button button-primary" onClick={() => setAction({ kind: 'add' })}>
          Add a user
        </button>
      </header>
      {users.isError && <ErrorNotice error={users.error} />}
      {users.isPending && <p className="loading">Loading users…</p>}
      {users.data && (
        <table className="simple-table users-table">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Client</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((user) => (
              <tr key={user.id}>
                <td>
                  {user.email} {user.id === currentUserId && <span className="muted">(you)</span>}
                </td>
                <td>
                  <span className={`role-badge role-${user.role}`}>{ROLE_LABELS[user.role]}</span>
                </td>
                <td>{user.client_id ? (clientNames.get(user.client_id) ?? '…') : <span className="muted">—</span>}</td>
                <td>{formatDate(user.created_at)}</td>
                <td className="actions">
                  {ROW_ACTIONS.map(({ kind, label, whom, danger }) => (
                    <button
                      key={kind}
                      type="button"
                      className={`button button-quiet${danger ? ' button-danger-text' : ''}`}
                      onClick={() => setAction({ kind, user })}
                    >
                      {label}
                      <span className="sr-only">
                        {whom}
                        {user.email}
                      </span>
                    </button>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {action?.kind === 'add' && <AddUserDialog clients={clients.data ?? []} onClose={close} />}
      {action?.kind === 'role' && <ChangeRoleDialog user={action.user} clients={clients.data ?? []} onClose={close} />}
      {action?.kind === 'password' && <ResetPasswordDialog user={action.user} onClose={close} />}
      {action?.kind === 'remove' && (
        <RemoveUserDialog user={action.user} isSelf={action.user.id === currentUserId} onClose={close} />
      )}
    </section>
  );
}
