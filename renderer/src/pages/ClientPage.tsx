import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Health, LocationRow, RoleName } from '../api/types.js';
import { useClients, useLocations } from '../api/queries.js';
import { Link, navigate, paths } from '../router.js';
import { formatCount, plural } from '../format.js';
import { useMenuCommand } from '../desktop.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { SearchField } from '../components/SearchField.js';
import { HEALTH_LABELS } from '../components/HealthBadge.js';
import { LocationsTable, type LocationColumn } from '../components/LocationsTable.js';
import { sortRows, type Sort } from '../components/SortHeader.js';
import { ImportDialog } from '../components/ImportDialog.js';
import { DeleteClientDialog } from '../components/DeleteClientDialog.js';
import { TEMPLATE_CSV, hasFiles } from '../components/FileDropZone.js';
import { exportLocations } from '../export/locations-csv.js';

type HealthFilter = Health | 'all';

const STATUSES: Health[] = ['green', 'yellow', 'red'];

/** The text a search looks in, per location, lower-cased once. */
function searchTextOf(location: LocationRow): string {
  return [location.name, location.address, location.city, location.state, location.zip, location.country]
    .filter((value) => value !== null)
    .join('\u0000')
    .toLowerCase();
}

/**
 * Drops of files anywhere in the window while `enabled`: `onDragging` says when a file hovers,
 * `onFile` receives the first dropped file. The import dialog's own zone stops its drops on the way.
 */
function useWindowFileDrop(enabled: boolean, onFile: (file: File) => void, onDragging: (dragging: boolean) => void) {
  useEffect(() => {
    if (!enabled) return;
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth++;
      onDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) onDragging(false);
    };
    const over = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      onDragging(false);
      if (!hasFiles(event)) return;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) onFile(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [enabled, onFile, onDragging]);
}

/** One client: health at a glance, its locations (filter, sort, export), and for an Admin the CSV import. */
export function ClientPage({ clientId, role }: { clientId: string; role: RoleName }) {
  const isAdmin = role === 'admin';
  const clients = useClients();
  const locations = useLocations(clientId);
  const client = clients.data?.find((candidate) => candidate.id === clientId);
  const [importing, setImporting] = useState<{ file: File | null } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [search, setSearch] = useState('');
  const [health, setHealth] = useState<HealthFilter>('all');
  const [sort, setSort] = useState<Sort<LocationColumn>>({ key: 'name', direction: 'ascending' });
  const [exportError, setExportError] = useState<unknown>(null);
  const query = useDeferredValue(search.trim().toLowerCase());
  const deferredSort = useDeferredValue(sort);
  const deferredHealth = useDeferredValue(health);

  const openImport = useCallback((file: File | null) => setImporting({ file }), []);
  const dropFile = useCallback((file: File) => openImport(file), [openImport]);
  useWindowFileDrop(isAdmin && importing === null && client !== undefined, dropFile, setDragging);
  const openFromMenu = useCallback(() => {
    if (isAdmin) openImport(null);
  }, [isAdmin, openImport]);
  useMenuCommand('import-csv', openFromMenu);

  const all = useMemo(() => locations.data ?? [], [locations.data]);
  const searchTexts = useMemo(() => new Map(all.map((location) => [location, searchTextOf(location)])), [all]);
  const counts = useMemo(() => {
    const result: Record<Health, number> = { green: 0, yellow: 0, red: 0 };
    for (const location of all) result[location.health_status]++;
    return result;
  }, [all]);
  // Import order is the server's order; sorting by name is what people expect to see first.
  const sorted = useMemo(() => sortRows(all, deferredSort, (location, key) => location[key]), [all, deferredSort]);
  const filtered = useMemo(() => {
    if (!query && deferredHealth === 'all') return sorted;
    return sorted.filter((location) => {
      if (deferredHealth !== 'all' && location.health_status !== deferredHealth) return false;
      return !query || (searchTexts.get(location) ?? '').includes(query);
    });
  }, [sorted, searchTexts, query, deferredHealth]);

  if (clients.isPending) return <p className="loading">Loading the client…</p>;
  if (clients.isError) return <ErrorNotice error={clients.error} />;
  if (!client) {
    return (
      <div className="empty-state">
        <h1>This client does not exist</h1>
        <p>
          It may have been deleted. {role !== 'client_viewer' && <Link to={paths.clients}>Back to the clients</Link>}
        </p>
      </div>
    );
  }

  const total = all.length;
  const filterActive = query !== '' || health !== 'all';

  return (
    <section className="page client-page" aria-labelledby="client-title">
      <header className="page-header">
        <div>
          {role !== 'client_viewer' && (
            <nav aria-label="Breadcrumb" className="breadcrumb">
              <Link to={paths.clients}>Clients</Link> <span aria-hidden="true">/</span>
            </nav>
          )}
          <h1 id="client-title">{client.name}</h1>
          <p className="muted">
            {[client.industry, client.website].filter(Boolean).join(' · ') || 'No industry or website recorded'}
          </p>
        </div>
        <div className="page-actions">
          {isAdmin && (
            <>
              <a className="button" href={TEMPLATE_CSV} download="locations-template.csv">
                Template CSV
              </a>
              <button type="button" className="button button-primary" onClick={() => openImport(null)}>
                Import CSV
              </button>
            </>
          )}
        </div>
      </header>

      <div className="tiles health-tiles" role="group" aria-label="Locations by health">
        <button
          type="button"
          className={`tile tile-button ${health === 'all' ? 'tile-active' : ''}`}
          aria-pressed={health === 'all'}
          onClick={() => setHealth('all')}
        >
          <span className="tile-value" data-testid="count-all">
            {formatCount(total)}
          </span>
          <span className="tile-label">{total === 1 ? 'location' : 'locations'}</span>
        </button>
        {STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            className={`tile tile-button tile-${status} ${health === status ? 'tile-active' : ''}`}
            aria-pressed={health === status}
            onClick={() => setHealth(health === status ? 'all' : status)}
          >
            <span className="tile-value" data-testid={`count-${status}`}>
              {formatCount(counts[status])}
            </span>
            <span className="tile-label">
              <span className={`health-dot health-${status}`} aria-hidden="true" /> {HEALTH_LABELS[status]}
            </span>
          </button>
        ))}
      </div>

      {locations.isError && <ErrorNotice error={locations.error} />}
      {locations.isPending && <p className="loading">Loading locations…</p>}

      {locations.data && total === 0 && (
        <div className="empty-state">
          <h2>No locations yet</h2>
          {isAdmin ? (
            <>
              <p>Drop a CSV of this client’s locations anywhere on this page, or choose one.</p>
              <button type="button" className="button button-primary" onClick={() => openImport(null)}>
                Import a CSV
              </button>
              <p className="small">
                <a href={TEMPLATE_CSV} download="locations-template.csv">
                  Download the template CSV
                </a>{' '}
                to see the expected columns.
              </p>
            </>
          ) : (
            <p>An Admin of your agency imports the locations; they will appear here.</p>
          )}
        </div>
      )}

      {locations.data && total > 0 && (
        <>
          <div className="toolbar">
            <SearchField value={search} placeholder="Name, address, city, postal code…" onChange={setSearch} />
            <label className="field field-inline">
              <span>Health</span>
              <select value={health} onChange={(event) => setHealth(event.target.value as HealthFilter)}>
                <option value="all">All</option>
                {STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {HEALTH_LABELS[status]}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted" role="status" data-testid="shown-count">
              {filterActive
                ? `${formatCount(filtered.length)} of ${plural(total, 'location')}`
                : plural(total, 'location')}
            </span>
            <button
              type="button"
              className="button toolbar-end"
              disabled={filtered.length === 0}
              onClick={() => {
                setExportError(null);
                exportLocations(filtered, client.name).catch(setExportError);
              }}
            >
              Export {filterActive ? 'these' : 'all'} to CSV
            </button>
          </div>
          <ErrorNotice error={exportError} />
          {filtered.length === 0 ? (
            <div className="table-empty">
              No location matches.{' '}
              <button
                type="button"
                className="button-link"
                onClick={() => {
                  setSearch('');
                  setHealth('all');
                }}
              >
                Clear the filters
              </button>
            </div>
          ) : (
            <LocationsTable rows={filtered} sort={sort} onSort={setSort} />
          )}
        </>
      )}

      {isAdmin && (
        <footer className="danger-zone">
          <button type="button" className="button button-quiet button-danger-text" onClick={() => setDeleting(true)}>
            Delete this client…
          </button>
        </footer>
      )}

      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop the CSV to import it into {client.name}</p>
        </div>
      )}
      {importing && (
        <ImportDialog
          clientId={clientId}
          clientName={client.name}
          initialFile={importing.file}
          onClose={() => setImporting(null)}
        />
      )}
      {deleting && (
        <DeleteClientDialog
          client={{ ...client, locations_count: locations.data?.length ?? client.locations_count }}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate(paths.clients, { replace: true })}
        />
      )}
    </section>
  );
}
