import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authorized } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { fetchMappings } from '../import/saved/saved-mappings.js';
import { mappingsKey } from '../import/saved/use-saved-mapping.js';
import { SavedMappingRow } from './SavedMappingRow.js';

type Change = { id: string; name: string } | { id: string; delete: true };

/**
 * The client's saved mappings (README "Saved mappings"), for an Admin: each with its columns and last
 * use, to rename or delete. Imports save them; the next file with the same headers gets one applied.
 */
export function SavedMappings({ clientId }: { clientId: string }) {
  const cache = useQueryClient();
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState('');
  const mappings = useQuery({ queryKey: mappingsKey(clientId), queryFn: () => fetchMappings(clientId), enabled: open });
  const change = useMutation({
    mutationFn: (next: Change) =>
      'delete' in next
        ? authorized(`/api/mappings/${next.id}`, { method: 'DELETE' })
        : authorized(`/api/mappings/${next.id}`, { method: 'PATCH', json: { name: next.name } }),
    onSuccess: (_answer, next) => {
      setSaid('delete' in next ? 'The mapping was deleted.' : `The mapping is now called ${next.name}.`);
      return cache.invalidateQueries({ queryKey: mappingsKey(clientId) });
    },
  });
  const list = mappings.data ?? [];
  return (
    <details className="saved-mappings" onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>Saved mappings</summary>
      <ErrorNotice error={mappings.error ?? change.error} />
      <p className="sr-only" role="status">
        {said}
      </p>
      {mappings.isPending && open && <p className="loading">Loading the saved mappings…</p>}
      {mappings.isSuccess && list.length === 0 && (
        <p className="muted">No saved mapping yet: each import saves the columns it used.</p>
      )}
      <ul className="saved-mapping-list">
        {list.map((mapping) => (
          <SavedMappingRow
            key={`${mapping.id}:${mapping.name}`}
            mapping={mapping}
            busy={change.isPending}
            onRename={(name) => change.mutate({ id: mapping.id, name })}
            onDelete={() => change.mutate({ id: mapping.id, delete: true })}
          />
        ))}
      </ul>
    </details>
  );
}
