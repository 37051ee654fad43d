import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import type { ClientRow } from '../api/types.js';
import { Link, paths } from '../router.js';
import { formatCount, formatDate, plural } from '../format.js';
import { SearchField } from './SearchField.js';
import { SortHeader, sortRows, type Sort } from './SortHeader.js';

type ClientColumn = 'name' | 'industry' | 'website' | 'locations_count' | 'created_at';

const COLUMNS: { key: ClientColumn; label: string; className?: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'industry', label: 'Industry' },
  { key: 'website', label: 'Website' },
  { key: 'locations_count', label: 'Locations', className: 'cell-number' },
  { key: 'created_at', label: 'Created' },
];

const CELLS: Record<ClientColumn, (client: ClientRow) => ReactNode> = {
  name: (client) => <Link to={paths.client(client.id)}>{client.name}</Link>,
  industry: (client) => client.industry ?? <span className="muted">—</span>,
  website: (client) => client.website ?? <span className="muted">—</span>,
  locations_count: (client) => formatCount(client.locations_count),
  created_at: (client) => formatDate(client.created_at),
};

function ClientTableRow({ client, onDelete }: { client: ClientRow; onDelete?: (client: ClientRow) => void }) {
  return (
    <div role="row" className="row">
      {COLUMNS.map(({ key, className }) => (
        <div key={key} role="cell" className={`cell ${key === 'name' ? 'cell-strong' : (className ?? '')}`}>
          {CELLS[key](client)}
        </div>
      ))}
      {onDelete && (
        <div role="cell" className="cell cell-actions">
          <button type="button" className="button button-quiet button-danger-text" onClick={() => onDelete(client)}>
            Delete<span className="sr-only"> {client.name}</span>
          </button>
        </div>
      )}
    </div>
  );
}

/** The clients, searchable and sortable; an Admin's rows end with Delete. */
export function ClientsTable({ clients, onDelete }: { clients: ClientRow[]; onDelete?: (client: ClientRow) => void }) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort<ClientColumn>>({ key: 'name', direction: 'ascending' });
  const query = useDeferredValue(search.trim().toLowerCase());
  const rows = useMemo(() => {
    const found = query
      ? clients.filter((client) =>
          [client.name, client.industry, client.website].some((value) => value?.toLowerCase().includes(query)),
        )
      : clients;
    return sortRows(found, sort, (client, key) => client[key]);
  }, [clients, query, sort]);

  return (
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
        className={`table clients-table ${onDelete ? 'with-actions' : ''}`}
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
            {onDelete && (
              <div role="columnheader" className="cell cell-actions">
                <span className="sr-only">Actions</span>
              </div>
            )}
          </div>
        </div>
        <div role="rowgroup" className="table-body">
          {rows.map((client) => (
            <ClientTableRow key={client.id} client={client} onDelete={onDelete} />
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
  );
}
