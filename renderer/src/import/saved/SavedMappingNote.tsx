import { optionsSummary } from '../columns/column-options.js';
import { appliedNote, type SavedMapping } from './saved-mappings.js';

/** The column step's note when a saved mapping was applied, with the way back to the automatic matching. */
export function SavedMappingNote({ saved, onAutomatic }: { saved: SavedMapping; onAutomatic: () => void }) {
  return (
    <p className="notice notice-info saved-mapping-note" role="status" data-testid="saved-mapping-note">
      {appliedNote(saved)}
      {optionsSummary(saved.options) !== '' && <span className="muted">: {optionsSummary(saved.options)}.</span>}{' '}
      <button type="button" className="button button-quiet" onClick={onAutomatic}>
        Use the automatic matching instead
      </button>
    </p>
  );
}
