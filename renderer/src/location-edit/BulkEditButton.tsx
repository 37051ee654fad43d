import { useState } from 'react';
import { sessionState } from '../api/session.js';
import type { LocationList } from '../locations/list.js';
import { BulkEditDialog } from './BulkEditDialog.js';

/**
 * "Change these…" beside the table (Admin): one change to every location the filters show (select all
 * filtered), through the bulk edit or delete of the API.
 */
export function BulkEditButton({ list, shown, loaded }: { list: LocationList; shown: number; loaded: boolean }) {
  const [ids, setIds] = useState<string[] | null>(null);
  if (sessionState().session?.user.role !== 'admin') return null;
  const choose = () => void list.exportRows().then((rows) => setIds(rows.map((row) => row.id)));
  return (
    <>
      <button type="button" className="button" disabled={!loaded || shown === 0} onClick={choose}>
        Change the {shown === 1 ? 'location' : `${shown} locations`} shown…
      </button>
      {ids && <BulkEditDialog clientId={list.clientId} ids={ids} onClose={() => setIds(null)} />}
    </>
  );
}
