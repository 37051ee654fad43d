import { useState } from 'react';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { plural } from '../../../format.js';
import { useUndoImport, type ImportUndo } from './use-undo-import.js';

function what(undo: ImportUndo): string {
  const parts = [
    undo.removed > 0 && `remove ${plural(undo.removed, 'location')} it created`,
    undo.restored > 0 && `put back the values of ${plural(undo.restored, 'location')} it updated`,
    undo.recreated > 0 && `bring back ${plural(undo.recreated, 'deleted location')}`,
  ].filter(Boolean);
  return parts.length > 0 ? `Undo will ${parts.join(', ')}.` : 'There is nothing left to undo.';
}

/** "Undo this import" on the summary: what it will do (the server's dry run, conflicts listed), then confirmed. */
export function UndoImport({ operations, onUndone }: { operations: readonly string[]; onUndone: () => void }) {
  const [asked, setAsked] = useState(false);
  const { preview, undo } = useUndoImport(operations, asked, onUndone);
  if (operations.length === 0) return null;
  if (undo.data) {
    return (
      <p role="status" className="notice notice-info" data-testid="import-undone">
        Import undone: {plural(undo.data.removed, 'location')} removed, {plural(undo.data.restored, 'location')} put
        back.
      </p>
    );
  }
  if (!asked) {
    return (
      <button type="button" className="button" onClick={() => setAsked(true)}>
        Undo this import…
      </button>
    );
  }
  const conflicts = preview.data?.conflicts ?? [];
  return (
    <section className="notice" aria-labelledby="undo-import-title" data-testid="undo-import">
      <h4 id="undo-import-title">Undo this import?</h4>
      <ErrorNotice error={preview.error ?? undo.error} />
      {preview.isPending && <p role="status">Checking what the undo would change…</p>}
      {preview.data && <p>{what(preview.data)}</p>}
      {conflicts.length > 0 && (
        <>
          <p>{plural(conflicts.length, 'location')} changed since the import, and will be left as they are:</p>
          <ul>
            {conflicts.slice(0, 20).map((conflict) => (
              <li key={conflict.location_id}>
                {conflict.name}: {conflict.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => setAsked(false)}>
          Keep the import
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={!preview.data || undo.isPending}
          onClick={() => undo.mutate()}
        >
          {undo.isPending ? 'Undoing…' : 'Undo the import'}
        </button>
      </div>
    </section>
  );
}
