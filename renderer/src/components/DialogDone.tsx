/** The end of a dialog's work: what happened, said to screen readers too, and Done. */
export function DialogDone({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <>
      <p role="status">{message}</p>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={onClose} autoFocus>
          Done
        </button>
      </div>
    </>
  );
}
