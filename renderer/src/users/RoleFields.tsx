import { useId } from 'react';
import { Choice } from '../components/Choice.js';
import { ROLE_LABELS, type ClientRow, type RoleName } from '../api/types.js';

export const ROLES = Object.keys(ROLE_LABELS) as RoleName[];

const ROLE_HELP: Record<RoleName, string> = {
  admin: 'Manages clients, imports locations and manages users.',
  viewer: 'Sees every client and its locations; changes nothing.',
  client_viewer: 'Sees one client’s locations only; changes nothing.',
};

// Plain words for the server's user rules (409: the last Admin, a taken e-mail).
export const LAST_ADMIN =
  'An organization always keeps at least one Admin, who can manage clients and users. Make another user an Admin first, then try again.';

/** The form's own rule, said before sending: a Client Viewer sees exactly one client. */
export const clientProblemOf = (role: RoleName, clientId: string): string | null =>
  role === 'client_viewer' && clientId === '' ? 'Choose the client this Client Viewer may see.' : null;

/** The role of a user and, for a Client Viewer, the one client they see. */
export function RoleFields({
  role,
  clientId,
  clients,
  clientProblem,
  onRole,
  onClient,
}: {
  role: RoleName;
  clientId: string;
  clients: ClientRow[];
  clientProblem: string | null;
  onRole: (role: RoleName) => void;
  onClient: (clientId: string) => void;
}) {
  const noteId = useId();
  const note = clients.length === 0 ? 'Create a client first: a Client Viewer sees exactly one.' : clientProblem;
  return (
    <>
      <fieldset className="field">
        <legend>Role</legend>
        {ROLES.map((option) => (
          <Choice
            key={option}
            input={{
              type: 'radio',
              name: 'role',
              value: option,
              checked: role === option,
              onChange: () => onRole(option),
            }}
            name={<strong>{ROLE_LABELS[option]}</strong>}
            help={ROLE_HELP[option]}
          />
        ))}
      </fieldset>
      {role === 'client_viewer' && (
        <label className="field">
          <span>Client</span>
          <select
            required
            value={clientId}
            onChange={(event) => onClient(event.target.value)}
            aria-invalid={note ? true : undefined}
            aria-describedby={note ? noteId : undefined}
          >
            <option value="">Choose the client…</option>
            {clients.map((client) => (
              <option key={client.id} value={client.id}>
                {client.name}
              </option>
            ))}
          </select>
          {note && (
            <small id={noteId} className="field-error">
              {note}
            </small>
          )}
        </label>
      )}
    </>
  );
}
