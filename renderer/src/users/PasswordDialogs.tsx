import { useState, type FormEvent } from 'react';
import { CreateUserBody, UpdateUserBody } from '../../../server/users/schemas.js';
import { PASSWORD_RULE } from '../forms/field-words.js';
import type { ClientRow, RoleName, UserRow } from '../api/types.js';
import { useCreateUser, useUpdateUser } from '../api/queries.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';
import { FormActions } from '../components/FormActions.js';
import { useFieldCheck } from '../forms/use-field-check.js';
import { RoleFields, clientProblemOf } from './RoleFields.js';

const NEW_USER_FIELDS = ['email', 'password', 'clientId'] as const;

/** Admin: a new account, its role, and the password they first sign in with. */
export function AddUserDialog({ clients, onClose }: { clients: ClientRow[]; onClose: () => void }) {
  const create = useCreateUser();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<RoleName>('viewer');
  const [clientId, setClientId] = useState('');
  const body = { email: email.trim(), password, role, clientId: role === 'client_viewer' ? clientId : undefined };
  const fields = useFieldCheck(CreateUserBody, body, create.error, NEW_USER_FIELDS, {
    clientId: clientProblemOf(role, clientId),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.check()) create.mutate(body, { onSuccess: onClose });
  };
  return (
    <Dialog title="Add a user" onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {!fields.shownAtFields && (
          <ErrorNotice error={create.error} explain={{ 409: 'A user with this e-mail already exists.' }} />
        )}
        <TextField
          label="E-mail"
          type="email"
          required
          autoFocus
          autoComplete="off"
          value={email}
          onValue={setEmail}
          error={fields.problemOf('email')}
        />
        <RoleFields
          role={role}
          clientId={clientId}
          clients={clients}
          clientProblem={fields.problemOf('clientId')}
          onRole={setRole}
          onClient={setClientId}
        />
        <TextField
          label="Initial password"
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          hint={`Give it to them in person; they sign in with it. ${PASSWORD_RULE}.`}
          error={fields.problemOf('password')}
        />
        <FormActions action={['Add user', 'Adding…']} busy={create.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Admin: a new password for someone who lost theirs. */
export function ResetPasswordDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const fields = useFieldCheck(UpdateUserBody, { password }, update.error, ['password'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.check()) update.mutate({ id: user.id, change: { password } }, { onSuccess: () => setDone(true) });
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
        <form className="form" onSubmit={submit} noValidate>
          {!fields.shownAtFields && <ErrorNotice error={update.error} />}
          <TextField
            label="New password"
            type="password"
            required
            autoFocus
            autoComplete="new-password"
            value={password}
            onValue={setPassword}
            hint={`${PASSWORD_RULE}.`}
            error={fields.problemOf('password')}
          />
          <FormActions action="Set the password" busy={update.isPending} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}
