import { memo, useEffect, useRef } from 'react';
import type { ClientRow, RoleName } from '../api/types.js';
import { Link, paths } from '../router.js';
import { TEMPLATE_CSV } from './FileDropZone.js';

/** The client page's title: the way back to the clients, the client's name and facts, an Admin's import buttons. */
export const ClientHeader = memo(function ClientHeader({
  client,
  role,
  onImport,
  onEdit,
}: {
  client: ClientRow;
  role: RoleName;
  onImport: () => void;
  onEdit: () => void;
}) {
  // A page opened with the focus nowhere (the new client's, its dialog gone: a walk's next Tab started at
  // the top) starts it on the client's name.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) title.current?.focus();
  }, []);
  return (
    <header className="page-header">
      <div>
        {role !== 'client_viewer' && (
          <nav aria-label="Breadcrumb" className="breadcrumb">
            <Link to={paths.clients}>Clients</Link> <span aria-hidden="true">/</span>
          </nav>
        )}
        <h1 id="client-title" ref={title} tabIndex={-1}>
          {client.name}
        </h1>
        <p className="muted">
          {[client.industry, client.website].filter(Boolean).join(' · ') || 'No industry or website recorded'}
        </p>
      </div>
      <div className="page-actions">
        {role === 'admin' && (
          <>
            <button type="button" className="button" onClick={onEdit}>
              Edit details
            </button>
            <a className="button" href={TEMPLATE_CSV} download="locations-template.csv">
              Template CSV
            </a>
            <button type="button" className="button button-primary" onClick={onImport}>
              Import locations
            </button>
          </>
        )}
      </div>
    </header>
  );
});

/** What a link to a deleted (or never existing) client shows. */
export function ClientNotFound({ role }: { role: RoleName }) {
  return (
    <div className="empty-state">
      <h1>This client does not exist</h1>
      <p>It may have been deleted. {role !== 'client_viewer' && <Link to={paths.clients}>Back to the clients</Link>}</p>
    </div>
  );
}
