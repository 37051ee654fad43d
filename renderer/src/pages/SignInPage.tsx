import { useState, type FormEvent } from 'react';
import { signIn } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';

export function SignInPage({ notice }: { notice: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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
      <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p className="brand">Agency Desk</p>
        <h1 id="sign-in-title">Sign in</h1>
        {notice && (
          <div className="notice notice-info" role="status">
            {notice}
          </div>
        )}
        <ErrorNotice error={error} />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onValue={setEmail}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
