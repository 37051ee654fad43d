import { useCreateClient } from '../api/queries.js';
import type { CreatedClientBody } from '../api/types.js';
import { Dialog } from './Dialog.js';
import { ClientForm } from './ClientForm.js';

/** Admin: a new client, checked as the user sends it; the caller opens its page once the server has it. */
export function CreateClientDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (client: CreatedClientBody) => void;
}) {
  const create = useCreateClient();
  return (
    <Dialog title="New client" onClose={onClose}>
      <ClientForm
        action={['Create client', 'Creating…']}
        busy={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate(body, { onSuccess: onCreated })}
        onCancel={onClose}
      />
    </Dialog>
  );
}
