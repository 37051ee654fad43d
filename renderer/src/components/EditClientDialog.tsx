import { useUpdateClient } from '../api/location-queries.js';
import type { ClientRow } from '../api/types.js';
import { Dialog } from './Dialog.js';
import { ClientForm } from './ClientForm.js';

/** Admin: a client's name, industry and website, changed in place. */
export function EditClientDialog({ client, onClose }: { client: ClientRow; onClose: () => void }) {
  const update = useUpdateClient(client.id);
  return (
    <Dialog title={`Edit ${client.name}`} onClose={onClose}>
      <ClientForm
        initial={client}
        action={['Save', 'Saving…']}
        busy={update.isPending}
        error={update.error}
        onSubmit={(body) => update.mutate(body, { onSuccess: onClose })}
        onCancel={onClose}
      />
    </Dialog>
  );
}
