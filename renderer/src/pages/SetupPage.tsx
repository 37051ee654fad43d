import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SetupBody } from '../../../server/auth/schemas.js';
import { setUpOrganization } from '../api/session.js';
import { keys } from '../api/queries.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { TextField } from '../components/TextField.js';
import { useFieldCheck } from '../forms/use-field-check.js';
import { PASSWORD_RULE } from '../forms/field-words.js';
import { usePageTitle } from '../components/page-title.js';

const FIELDS = ['organization_name', 'email', 'password', 'repeat'] as const;

/** First run: no account exists yet, so the first Admin creates the organization. */
export function SetupPage() {
  usePageTitle('Set up');
  const cache = useQueryClient();
  const [organization, setOrganization] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const body = { organization_name: organization.trim(), email: email.trim(), password };
  // The lengths and the e-mail rule are the server's schema; only the repeat is the form's own.
  const fields = useFieldCheck(SetupBody, body, error, FIELDS, {
    repeat: repeat !== password ? 'The two passwords differ.' : null,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!fields.check()) return;
    setBusy(true);
    setError(null);
    try {
      await setUpOrganization(body);
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
        {!fields.shownAtFields && <ErrorNotice error={error} />}
        <TextField
          label="Organization name"
          required
          autoFocus
          value={organization}
          onValue={setOrganization}
          error={fields.problemOf('organization_name')}
        />
        <TextField
          label="Your e-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={fields.problemOf('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onValue={setPassword}
          hint={`${PASSWORD_RULE}; a passphrase of a few words is easy to remember.`}
          error={fields.problemOf('password')}
        />
        <TextField
          label="Repeat the password"
          type="password"
          autoComplete="new-password"
          required
          value={repeat}
          onValue={setRepeat}
          error={fields.problemOf('repeat')}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </main>
  );
}
