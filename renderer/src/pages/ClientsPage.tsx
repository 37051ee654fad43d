import { useDeferredValue, useMemo, useState } from 'react';
import type { ClientRow, RoleName } from '../api/types.js';
import { useClients } from '../api/queries.js';
import { Link, paths } from '../router.js';
import { formatCount, formatDate, plural } from '../format.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { SearchField } from '../components/SearchField.js';
import { SortHeader, sortRows, type Sort } from '../components/SortHeader.js';
import { CreateClientDialog } from '../components/CreateClientDialog.js';
import { DeleteClientDialog } from '../components/DeleteClientDialog.js';

type ClientColumn = 'name' | 'industry' | 'website' | 'locations_count' | 'created_at';

const COLUMNS: { key: ClientColumn; label: string; className?: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'industry', label: 'Industry' },
  { key: 'website', label: 'Website' },
  { key: 'locations_count', label: 'Locations', className: 'cell-number' },
  { key: 'created_at', label: 'Created' },
];

export function ClientsPage({ role }: { role: RoleName }) {
  const clients = useClients();
  const isAdmin = role === 'admin';
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort<ClientColumn>>({ key: 'name', direction: 'ascending' });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ClientRow | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());

  const rows = useMemo(() => {
    const all = clients.data ?? [];
    const found = query
      ? all.filter((client) =>
          [client.name, client.industry, client.website].some((value) => value?.toLowerCase().includes(query)),
        )
      : all;
    return sortRows(found, sort, (client, key) => client[key]);
  }, [clients.data, query, sort]);

  const total = clients.data?.length ?? 0;

  return (
    <section className="page" aria-labelledby="clients-title">
      <header className="page-header">
        <div>
          <h1 id="clients-title">Clients</h1>
          {clients.data && <p className="muted">{plural(total, 'client')}</p>}
        </div>
        {isAdmin && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New client
          </button>
        )}
      </header>
      <p className="sr-only" role="status">
        {announcement}
      </p>
      {clients.isError && <ErrorNotice error={clients.error} />}
      {clients.isPending && <p className="loading">Loading clients…</p>}
      {clients.data && total === 0 && (
        <div className="empty-state">
          <h2>No clients yet</h2>
          {isAdmin ? (
            <>
              <p>Create a client for each brand you manage, then drop its locations CSV on its page.</p>
              <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
                Create your first client
              </button>
            </>
          ) : (
            <p>An Admin of your agency adds the clients; they will appear here.</p>
          )}
        </div>
      )}
      {clients.data && total > 0 && (
        <>
          <div className="toolbar">
            <SearchField value={search} placeholder="Name, industry or website" onChange={setSearch} />
            {query && (
              <span className="muted" role="status">
                {plural(rows.length, 'client')} found
              </span>
            )}
          </div>
          <div
            role="table"
            aria-label="Clients"
            aria-rowcount={rows.length + 1}
            className={`table clients-table ${isAdmin ? 'with-actions' : ''}`}
          >
            <div role="rowgroup" className="table-head">
              <div role="row" className="row">
                {COLUMNS.map((column) => (
                  <SortHeader
                    key={column.key}
                    label={column.label}
                    column={column.key}
                    sort={sort}
                    onSort={setSort}
                    className={column.className}
                  />
                ))}
                {isAdmin && (
                  <div role="columnheader" className="cell cell-actions">
                    <span className="sr-only">Actions</span>
                  </div>
                )}
              </div>
            </div>
            <div role="rowgroup" className="table-body">
              {rows.map((client) => (
                <div role="row" className="row" key={client.id}>
                  <div role="cell" className="cell cell-strong">
                    <Link to={paths.client(client.id)}>{client.name}</Link>
                  </div>
                  <div role="cell" className="cell">
                    {client.industry ?? <span className="muted">—</span>}
                  </div>
                  <div role="cell" className="cell">
                    {client.website ?? <span className="muted">—</span>}
                  </div>
                  <div role="cell" className="cell cell-number">
                    {formatCount(client.locations_count)}
                  </div>
                  <div role="cell" className="cell">
                    {formatDate(client.created_at)}
                  </div>
                  {isAdmin && (
                    <div role="cell" className="cell cell-actions">
                      <button
                        type="button"
                        className="button button-quiet button-danger-text"
                        onClick={() => setDeleting(client)}
                      >
                        Delete<span className="sr-only"> {client.name}</span>
                      </button>
                    </div>
                  )}
                </div>
              ))}
              {rows.length === 0 && (
                <div className="table-empty">
                  No client matches “{search.trim()}”.{' '}
                  <button type="button" className="button-link" onClick={() => setSearch('')}>
                    Clear the search
                  </button>
                </div>
              )}
            </div>
          </div>
        </>
      )}
      {creating && (
        <CreateClientDialog
          onClose={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            setAnnouncement(`Client ${name} created.`);
          }}
        />
      )}
      {deleting && (
        <DeleteClientDialog
          client={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setAnnouncement(`Client ${deleting.name} deleted.`);
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}
