import { useCallback, useState } from 'react';
import type { HealthFilter } from '../locations/order.js';
import type { ClientRow, RoleName } from '../api/types.js';
import { useClients } from '../api/queries.js';
import { navigate, paths } from '../router.js';
import { useTableAddress, useViewRequest } from '../locations/url-state.js';
import { LocationListContext, useListPart, useLocationList } from '../locations/use-location-list.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { ClientHeader, ClientNotFound } from '../components/ClientHeader.js';
import { HealthTiles } from '../components/HealthTiles.js';
import { NoLocationsYet } from '../components/NoLocationsYet.js';
import { ClientLocations } from '../components/ClientLocations.js';
import { useClientImport } from '../components/ClientImport.js';
import { usePageTitle } from '../components/page-title.js';
import { DeleteClientDialog } from '../components/DeleteClientDialog.js';
import { EditClientDialog } from '../components/EditClientDialog.js';
import { ClientHistory } from '../history/ClientHistory.js';
import { SavedMappings } from '../mappings/SavedMappings.js';

type ClientDialog = 'edit' | 'delete' | null;

/** One client: health at a glance, its locations (filter, sort, open, export), and for an Admin the CSV import. */
export function ClientPage({ clientId, role }: { clientId: string; role: RoleName }) {
  const clients = useClients();
  const client = clients.data?.find((candidate) => candidate.id === clientId);
  usePageTitle(client?.name ?? (clients.isSuccess ? 'Client not found' : 'Client'));
  if (clients.isPending) return <p className="loading">Loading the client…</p>;
  if (clients.isError) return <ErrorNotice error={clients.error} />;
  if (!client) return <ClientNotFound role={role} />;
  return <ClientView client={client} role={role} />;
}

function ClientView({ client, role }: { client: ClientRow; role: RoleName }) {
  const isAdmin = role === 'admin';
  const [address, setAddress] = useTableAddress();
  const request = useViewRequest(address);
  const locations = useLocationList(client.id, request);
  const list = locations.data;
  const total = useListPart(list, (state) => state.total);
  const counts = useListPart(list, (state) => state.counts);
  const error = useListPart(list, (state) => state.error);
  const [dialog, setDialog] = useState<ClientDialog>(null);
  const importing = useClientImport({ clientId: client.id, clientName: client.name, enabled: isAdmin });
  const openFile = importing.open;
  // Stable callbacks: the header and the tiles are not drawn again for a keystroke in the search.
  const openImport = useCallback(() => openFile(null), [openFile]);
  const openEdit = useCallback(() => setDialog('edit'), []);
  const onHealth = useCallback((health: HealthFilter) => setAddress({ health }), [setAddress]);
  const close = () => setDialog(null);

  return (
    <section className="page client-page" aria-labelledby="client-title">
      <ClientHeader client={client} role={role} onImport={openImport} onEdit={openEdit} />
      <HealthTiles total={total} counts={counts} health={address.health} onHealth={onHealth} />
      {locations.isError && <ErrorNotice error={locations.error} />}
      <ErrorNotice error={error} />
      {locations.isPending && <p className="loading">Loading locations…</p>}
      {list && total === 0 && <NoLocationsYet isAdmin={isAdmin} onImport={openImport} />}
      {list && total > 0 && (
        <LocationListContext value={list}>
          <ClientLocations
            list={list}
            clientName={client.name}
            address={address}
            request={request}
            onAddress={setAddress}
          />
        </LocationListContext>
      )}
      <ClientHistory clientId={client.id} isAdmin={isAdmin} />
      {isAdmin && <SavedMappings clientId={client.id} />}
      {isAdmin && (
        <footer className="danger-zone">
          <button type="button" className="button button-quiet button-danger-text" onClick={() => setDialog('delete')}>
            Delete this client…
          </button>
        </footer>
      )}
      {importing.view}
      {dialog === 'edit' && <EditClientDialog client={client} onClose={close} />}
      {dialog === 'delete' && (
        <DeleteClientDialog
          client={{ ...client, locations_count: list ? total : client.locations_count }}
          onClose={close}
          onDeleted={() => navigate(paths.clientDeleted(client.name), { replace: true })}
        />
      )}
    </section>
  );
}
