import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setUpOrganization } from '../api/session.js';
import { keys } from '../api/queries.js';
import { ErrorNotice } from '../components/ErrorNotice.js';

/** First run: no account exists yet, so the first Admin creates the organization. */
export function SetupPage() {
  const cache = useQueryClient();
  const [organization, setOrganization] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // The length rule is the server's (its answer shows above); only the repeat is the form's own.
  const passwordProblem = repeat !== password ? 'The two passwords differ.' : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (passwordProblem || organization.trim() === '') return;
    setBusy(true);
    setError(null);
    try {
      await setUpOrganization({ organization_name: organization.trim(), email: email.trim(), password });
      cache.setQueryData(keys.setup, { needed: false });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="setup-title" noValidate>
        <p className="brand">Agency Desk</p>
        <h1 id="setup-title">Create your organization</h1>
        <p className="muted">
          Nobody has signed up yet. Name your agency and create the first Admin account; you can invite your team
          afterwards.
        </p>
        <ErrorNotice error={error} />
        <label className="field">
          <span>Organization name</span>
          <input
            required
            autoFocus
            maxLength={200}
            value={organization}
            onChange={(e) => setOrganization(e.target.value)}
            aria-invalid={touched && organization.trim() === ''}
            aria-describedby="setup-organization-error"
          />
          {touched && organization.trim() === '' && (
            <small id="setup-organization-error" className="field-error">
              Enter your agency's name.
            </small>
          )}
        </label>
        <label className="field">
          <span>Your e-mail</span>
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="setup-password-help"
          />
          <small id="setup-password-help" className="muted">
            At least 8 characters; a passphrase of a few words is easy to remember.
          </small>
        </label>
        <label className="field">
          <span>Repeat the password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            aria-invalid={touched && passwordProblem !== null}
            aria-describedby="setup-repeat-error"
          />
          {touched && passwordProblem && (
            <small id="setup-repeat-error" className="field-error">
              {passwordProblem}
            </small>
          )}
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </main>
  );
}
