import { useState } from 'react';
import type { UserRow } from '../api/types.js';
import { useClients, useUsers } from '../api/queries.js';
import { plural } from '../format.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AddUserDialog, ResetPasswordDialog } from '../users/PasswordDialogs.js';
import { ChangeRoleDialog, RemoveUserDialog } from '../users/RoleDialogs.js';
import { UsersTable, type RowActionKind } from '../users/UsersTable.js';

type UserAction = { kind: RowActionKind; user: UserRow } | { kind: 'add' } | null;

/** Admin: the organization's accounts and their roles. */
export function UsersPage({ currentUserId }: { currentUserId: string }) {
  const users = useUsers(true);
  const clients = useClients();
  const [action, setAction] = useState<UserAction>(null);
  const clientNames = new Map((clients.data ?? []).map((client) => [client.id, client.name]));
  const clientRows = clients.data ?? [];
  const close = () => setAction(null);

  return (
    <section className="page" aria-labelledby="users-title">
      <header className="page-header">
        <div>
          <h1 id="users-title">Users</h1>
          {/* The count's line is kept while it loads: the header's button does not move under the pointer. */}
          <p className="muted">{users.data ? plural(users.data.length, 'user') : '\u00a0'}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setAction({ kind: 'add' })}>
          Add a user
        </button>
      </header>
      {users.isError && <ErrorNotice error={users.error} />}
      {users.isPending && <p className="loading">Loading users…</p>}
      {users.data && (
        <UsersTable
          users={users.data}
          currentUserId={currentUserId}
          clientNames={clientNames}
          onAction={(kind, user) => setAction({ kind, user })}
        />
      )}
      {action?.kind === 'add' && <AddUserDialog clients={clientRows} onClose={close} />}
      {action?.kind === 'role' && <ChangeRoleDialog user={action.user} clients={clientRows} onClose={close} />}
      {action?.kind === 'password' && <ResetPasswordDialog user={action.user} onClose={close} />}
      {action?.kind === 'remove' && (
        <RemoveUserDialog user={action.user} isSelf={action.user.id === currentUserId} onClose={close} />
      )}
    </section>
  );
}
