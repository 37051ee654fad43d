import { useState, type FormEvent } from 'react';
import { UpdateUserBody } from '../../../server/users/schemas.js';
import type { ClientRow, RoleName, UserRow } from '../api/types.js';
import { useDeleteUser, useUpdateUser } from '../api/queries.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';
import { useFieldCheck } from '../forms/use-field-check.js';
import { LAST_ADMIN, RoleFields, clientProblemOf } from './RoleFields.js';

/** A 409 here is the last Admin's rule, not a clash of data. */
const LAST_ADMIN_TITLE = { 409: 'The organization needs an Admin' };

/** Admin: another role for a user, or another client for a Client Viewer. */
export function ChangeRoleDialog({
  user,
  clients,
  onClose,
}: {
  user: UserRow;
  clients: ClientRow[];
  onClose: () => void;
}) {
  const update = useUpdateUser();
  const [role, setRole] = useState<RoleName>(user.role);
  const [clientId, setClientId] = useState(user.client_id ?? '');
  const change = { role, clientId: role === 'client_viewer' ? clientId : null };
  // As the add dialog: the schema's rules, the form's own (a Client Viewer needs a client), then the server's.
  const fields = useFieldCheck(UpdateUserBody, change, update.error, ['clientId'] as const, {
    clientId: clientProblemOf(role, clientId),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.check()) update.mutate({ id: user.id, change }, { onSuccess: onClose });
  };
  return (
    <Dialog title={`Change the role of ${user.email}`} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        {!fields.shownAtFields && (
          <ErrorNotice error={update.error} titles={LAST_ADMIN_TITLE} explain={{ 409: LAST_ADMIN }} />
        )}
        <RoleFields
          role={role}
          clientId={clientId}
          clients={clients}
          clientProblem={fields.problemOf('clientId')}
          onRole={setRole}
          onClient={setClientId}
        />
        <FormActions action="Save" busy={update.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function RemoveUserDialog({ user, isSelf, onClose }: { user: UserRow; isSelf: boolean; onClose: () => void }) {
  const remove = useDeleteUser();
  return (
    <Dialog title={`Remove ${user.email}?`} onClose={onClose}>
      <div className="form">
        <p>
          {user.email} will no longer be able to sign in.{' '}
          {isSelf && <strong>This is your own account: you will be signed out.</strong>}
        </p>
        <ErrorNotice error={remove.error} titles={LAST_ADMIN_TITLE} explain={{ 409: LAST_ADMIN }} />
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
