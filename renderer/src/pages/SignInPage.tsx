import { useState, type FormEvent } from 'react';
import { signIn } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';

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
        <label className="field">
          <span>E-mail</span>
          <input
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
