/** The foot of a dialog's form: Cancel, and the one action it exists for. */
export function FormActions({
  action,
  onCancel,
  busy = false,
  disabled = false,
  danger = false,
  focusCancel = false,
  onAction,
}: {
  /** What the button says, or [what it says, what it says while busy]: "Create client", "Creating…". */
  action: string | [idle: string, busy: string];
  onCancel(): void;
  busy?: boolean;
  disabled?: boolean;
  /** A red button, for what cannot be undone. */
  danger?: boolean;
  /** Cancel takes the focus, for confirmations. */
  focusCancel?: boolean;
  /** A plain button with this click; without it the button submits the form. */
  onAction?(): void;
}) {
  const [idle, working] = typeof action === 'string' ? [action, action] : action;
  return (
    <div className="form-actions">
      <button
        type="button"
        className="button"
        autoFocus={focusCancel}
        data-autofocus={focusCancel || undefined}
        onClick={onCancel}
      >
        Cancel
      </button>
      <button
        type={onAction ? 'button' : 'submit'}
        className={`button ${danger ? 'button-danger' : 'button-primary'}`}
        disabled={busy || disabled}
        onClick={onAction}
      >
        {busy ? working : idle}
      </button>
    </div>
  );
}
