import { useState } from 'react';
import type { ClientRow, RoleName } from '../api/types.js';
import { useClients } from '../api/queries.js';
import { navigate, paths, useSearch } from '../router.js';
import { plural } from '../format.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { ClientsTable } from '../components/ClientsTable.js';
import { CreateClientDialog } from '../components/CreateClientDialog.js';
import { DeleteClientDialog } from '../components/DeleteClientDialog.js';

function NoClientsYet({ isAdmin, onCreate }: { isAdmin: boolean; onCreate: () => void }) {
  return (
    <div className="empty-state">
      <h2>No clients yet</h2>
      {isAdmin ? (
        <>
          <p>Create a client for each brand you manage, then drop its locations CSV on its page.</p>
          <button type="button" className="button button-primary" onClick={onCreate}>
            Create your first client
          </button>
        </>
      ) : (
        <p>An Admin of your agency adds the clients; they will appear here.</p>
      )}
    </div>
  );
}

/** Every client of the agency; an Admin creates (and lands on the new client's page) and deletes them. */
export function ClientsPage({ role }: { role: RoleName }) {
  const clients = useClients();
  const isAdmin = role === 'admin';
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ClientRow | null>(null);
  // "Client … deleted" lives in the address, so the client's own page can say it after sending the user here.
  const deleted = new URLSearchParams(useSearch()).get('deleted');
  const total = clients.data?.length ?? 0;
  const startCreating = () => {
    if (deleted) navigate(paths.clients, { replace: true });
    setCreating(true);
  };

  return (
    <section className="page" aria-labelledby="clients-title">
      <header className="page-header">
        <div>
          <h1 id="clients-title">Clients</h1>
          {/* The count's line is kept while it loads: the header's button does not move under the pointer. */}
          <p className="muted">{clients.data ? plural(total, 'client') : '\u00a0'}</p>
        </div>
        {isAdmin && (
          <button type="button" className="button button-primary" onClick={startCreating}>
            New client
          </button>
        )}
      </header>
      <div role="status">
        {deleted && (
          <p className="notice notice-ok">
            Client <strong>{deleted}</strong> deleted, with its locations.
          </p>
        )}
      </div>
      {clients.isError && <ErrorNotice error={clients.error} />}
      {clients.isPending && <p className="loading">Loading clients…</p>}
      {clients.data && total === 0 && <NoClientsYet isAdmin={isAdmin} onCreate={startCreating} />}
      {clients.data && total > 0 && (
        <ClientsTable clients={clients.data} onDelete={isAdmin ? (client) => setDeleting(client) : undefined} />
      )}
      {creating && (
        <CreateClientDialog
          onClose={() => setCreating(false)}
          onCreated={(client) => navigate(paths.client(client.id))}
        />
      )}
      {deleting && (
        <DeleteClientDialog
          client={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            navigate(paths.clientDeleted(deleting.name), { replace: true });
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}
