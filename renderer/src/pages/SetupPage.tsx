import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setUpOrganization } from '../api/session.js';
import { keys } from '../api/queries.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';

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
        <TextField
          label="Organization name"
          required
          autoFocus
          maxLength={200}
          value={organization}
          onValue={setOrganization}
          error={touched && organization.trim() === '' ? "Enter your agency's name." : null}
        />
        <TextField label="Your e-mail" type="email" autoComplete="username" required value={email} onValue={setEmail} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onValue={setPassword}
          hint="At least 8 characters; a passphrase of a few words is easy to remember."
        />
        <TextField
          label="Repeat the password"
          type="password"
          autoComplete="new-password"
          required
          value={repeat}
          onValue={setRepeat}
          error={touched ? passwordProblem : null}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </main>
  );
}
