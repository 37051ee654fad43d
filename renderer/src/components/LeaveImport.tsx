/** Asked before the import dialog closes with work in it: the file, its mapping and fixes would be lost. */
export function LeaveImport({
  importing,
  onStay,
  onLeave,
}: {
  importing: boolean;
  onStay: () => void;
  onLeave: () => void;
}) {
  return (
    <div
      className="notice"
      role="alertdialog"
      aria-labelledby="leave-import-title"
      aria-describedby="leave-import-text"
    >
      <h3 id="leave-import-title">{importing ? 'Cancel the import?' : 'Leave the import?'}</h3>
      <p id="leave-import-text">
        {importing
          ? 'The import stops, and what it wrote so far is undone: nothing stays written.'
          : 'The file, its columns and your fixes will be lost.'}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" autoFocus onClick={onStay}>
          {importing ? 'Keep importing' : 'Stay'}
        </button>
        <button type="button" className="button button-danger" onClick={onLeave}>
          {importing ? 'Cancel the import' : 'Leave'}
        </button>
      </div>
    </div>
  );
}
