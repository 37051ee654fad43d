import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { signIn, signOut } from '../api/session.js';
import { PasswordField, WRONG_CREDENTIALS_TITLE } from '../pages/SignInPage.js';
import { ErrorNotice } from './ErrorNotice.js';

/**
 * Over the page when the session ended during work: the same person signs in again and what was
 * waiting (a list, a save, an import's next request) goes on; nothing open underneath is lost.
 * Escape does not dismiss it: the only ways out are signing in or signing out.
 */
export function SignInAgainDialog({ email }: { email: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (password === '') return;
    setBusy(true);
    setError(null);
    try {
      await signIn({ email, password });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog sign-in-again"
      aria-labelledby={titleId}
      onCancel={(event) => event.preventDefault()}
    >
      <header className="dialog-header">
        <h2 id={titleId}>Sign in again to go on</h2>
      </header>
      <form className="dialog-body form" onSubmit={submit} noValidate>
        <p>
          Your session has ended. Sign in again as <strong>{email}</strong>: everything open on this page stays as it
          is, and what you were doing goes on.
        </p>
        <ErrorNotice error={error} titles={WRONG_CREDENTIALS_TITLE} />
        <PasswordField value={password} onValue={setPassword} tried={tried} autoFocus />
        <div className="form-actions">
          <button type="button" className="button" onClick={() => void signOut()}>
            Sign out instead
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
