import { useState, type FormEvent } from 'react';
import { formatDate, plural } from '../format.js';
import { optionsSummary } from '../import/columns/column-options.js';
import { lastUsedOf, type SavedMapping } from '../import/saved/saved-mappings.js';

/** One saved mapping: its name, columns and last use; renamed in place, deleted after a question. */
export function SavedMappingRow({
  mapping,
  busy,
  onRename,
  onDelete,
}: {
  mapping: SavedMapping;
  busy: boolean;
  onRename: (name: string) => void;
  onDelete: () => void;
}) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [name, setName] = useState(mapping.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    onRename(name.trim());
    setMode('view');
  };
  const options = optionsSummary(mapping.options);
  return (
    <li className="saved-mapping" data-testid="saved-mapping">
      {mode === 'rename' ? (
        <form className="inline-form" aria-label={`Rename ${mapping.name}`} onSubmit={submit}>
          <label className="field-inline">
            <span>New name</span>
            <input value={name} maxLength={200} required autoFocus onChange={(event) => setName(event.target.value)} />
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            Save the name
          </button>
          <button type="button" className="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <span className="saved-mapping-name">{mapping.name}</span>
      )}{' '}
      <span className="muted">
        {plural(mapping.columns.length, 'column')}
        {mapping.client_id === null ? ', shared by every client' : ''}
        {options !== '' && `, ${options}`}, last used {formatDate(lastUsedOf(mapping))}
      </span>
      {mode === 'view' && (
        <span className="saved-mapping-actions">
          <button type="button" className="button button-quiet" onClick={() => setMode('rename')}>
            Rename<span className="sr-only"> {mapping.name}</span>
          </button>
          <button type="button" className="button button-quiet button-danger-text" onClick={() => setMode('delete')}>
            Delete<span className="sr-only"> {mapping.name}</span>
          </button>
        </span>
      )}
      {mode === 'delete' && (
        <span role="group" aria-label={`Delete ${mapping.name}?`} className="saved-mapping-actions">
          <span>Delete this mapping? Files with these headers will be matched automatically.</span>{' '}
          <button type="button" className="button button-danger" disabled={busy} onClick={onDelete}>
            Delete the mapping
          </button>
          <button type="button" className="button" onClick={() => setMode('view')}>
            Keep it
          </button>
        </span>
      )}
    </li>
  );
}
