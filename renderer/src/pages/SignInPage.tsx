import { useState, type FormEvent } from 'react';
import { signIn } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';
import { fieldProblems } from '../forms/field-words.js';
import { Type } from '@sinclair/typebox';
import { Email } from '../../../server/auth/schemas.js';
import { usePageTitle } from '../components/page-title.js';

// On the sign-in form a 401 is a wrong e-mail or password, not "you are not signed in".
export const WRONG_CREDENTIALS_TITLE = { 401: 'Wrong e-mail or password' };

/** The password of someone signing in (here, or again over the page when their session ended). */
export function PasswordField({
  value,
  onValue,
  tried,
  autoFocus,
}: {
  value: string;
  onValue(value: string): void;
  tried: boolean;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label="Password"
      type="password"
      autoComplete="current-password"
      required
      autoFocus={autoFocus}
      value={value}
      onValue={onValue}
      error={tried && value === '' ? 'Enter your password.' : null}
    />
  );
}

/** The e-mail of a sign-in, by the rule every account's e-mail was made with (the sign-in body takes any text). */
const SIGN_IN_EMAIL = Type.Object({ email: Email });

export function SignInPage({ notice }: { notice: string | null }) {
  usePageTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const missing = { email: email.trim() === '', password: password === '' };
  // The server's own e-mail rule (its schema, checked here): "name@" is not sent only to come back a 401.
  const emailProblem = missing.email
    ? 'Enter the e-mail you sign in with.'
    : (fieldProblems<'email'>(SIGN_IN_EMAIL, { email: email.trim() }).email ?? null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (emailProblem !== null || missing.password) return;
    setBusy(true);
    setError(null);
    try {
      await signIn({ email: email.trim(), password });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
        <p className="brand">Agency Desk</p>
        <h1 id="sign-in-title">Sign in</h1>
        {notice && (
          <div className="notice notice-info" role="status">
            {notice}
          </div>
        )}
        <ErrorNotice error={error} titles={WRONG_CREDENTIALS_TITLE} />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onValue={setEmail}
          error={tried ? emailProblem : null}
        />
        <PasswordField value={password} onValue={setPassword} tried={tried} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
