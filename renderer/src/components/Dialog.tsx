import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: it traps focus, closes on Escape and returns focus
 * to what opened it, without a library.
 */
export function Dialog({
  title,
  onClose,
  children,
  wide = false,
  className,
  returnFocusTo,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  className?: string;
  /** Where the focus goes back when what opened the dialog is gone (the entry undone, the token revoked). */
  returnFocusTo?: () => HTMLElement | null | undefined;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Two dialogs can be open at once (signing in again over an import): each names itself.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog?.showModal();
    // React's autoFocus ran while the dialog was still closed, so not focusable: showModal then focused
    // its first button (the ×). A confirmation marks the button it should start on, a form its field
    // (TextField marks itself when given autoFocus).
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      // Focus left on a removed element falls to <body>: the keyboard would start again from the top.
      if (opener?.isConnected) opener.focus();
      else returnFocusTo?.()?.focus();
    };
    // The dialog opens once, with the ways back it was given then.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <dialog
      ref={ref}
      className={`dialog ${wide ? 'dialog-wide' : ''} ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Escape closes this dialog only, not also what holds it (the location panel closes on Escape).
      onKeyDown={(event) => {
        if (event.key === 'Escape') event.stopPropagation();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button-icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}
