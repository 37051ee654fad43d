import { ROLE_LABELS, type UserRow } from '../api/types.js';
import { formatDate } from '../format.js';
import { SimpleTableHead } from '../components/SimpleTableHead.js';

export type RowActionKind = 'role' | 'password' | 'remove';

// Each button of a user's row; screen readers hear whose ("Change role of ana@agency.test").
const ROW_ACTIONS: { kind: RowActionKind; label: string; whom: string; danger?: boolean }[] = [
  { kind: 'role', label: 'Change role', whom: ' of ' },
  { kind: 'password', label: 'Reset password', whom: ' of ' },
  { kind: 'remove', label: 'Remove', whom: ' ', danger: true },
];

function UserTableRow({
  user,
  isSelf,
  clientName,
  onAction,
}: {
  user: UserRow;
  isSelf: boolean;
  clientName: string | undefined;
  onAction: (kind: RowActionKind, user: UserRow) => void;
}) {
  return (
    <tr>
      <td>
        {user.email} {isSelf && <span className="muted">(you)</span>}
      </td>
      <td>
        <span className={`role-badge role-${user.role}`}>{ROLE_LABELS[user.role]}</span>
      </td>
      <td>{user.client_id ? (clientName ?? '…') : <span className="muted">—</span>}</td>
      <td>{formatDate(user.created_at)}</td>
      <td className="actions">
        {ROW_ACTIONS.map(({ kind, label, whom, danger }) => (
          <button
            key={kind}
            type="button"
            className={`button button-quiet${danger ? ' button-danger-text' : ''}`}
            onClick={() => onAction(kind, user)}
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
  );
}

/** The organization's accounts by e-mail, each with its role, client and actions. */
export function UsersTable({
  users,
  currentUserId,
  clientNames,
  onAction,
}: {
  users: UserRow[];
  currentUserId: string;
  clientNames: Map<string, string>;
  onAction: (kind: RowActionKind, user: UserRow) => void;
}) {
  const sorted = [...users].sort((a, b) => a.email.localeCompare(b.email));
  return (
    <table className="simple-table users-table">
      <SimpleTableHead columns={['E-mail', 'Role', 'Client', 'Added']} />
      <tbody>
        {sorted.map((user) => (
          <UserTableRow
            key={user.id}
            user={user}
            isSelf={user.id === currentUserId}
            clientName={user.client_id ? clientNames.get(user.client_id) : undefined}
            onAction={onAction}
          />
        ))}
      </tbody>
    </table>
  );
}
