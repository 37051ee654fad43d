import { useEffect, useState, type FormEvent } from 'react';
import type { KeyProtection } from '../../../main/desktop-api.js';
import { desktopApi } from '../desktop.js';

type Result = { ok: boolean; message: string };

/** How well this machine protects the database key, asked of the desktop shell once. */
function useKeyProtection() {
  const [protection, setProtection] = useState<KeyProtection | null>(null);
  useEffect(() => {
    const api = desktopApi();
    if (!api) return;
    let live = true;
    api
      .keyProtection()
      .then((level) => live && setProtection(level))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return [protection, setProtection] as const;
}

/**
 * In the desktop app, says plainly when the database key is only weakly protected on this machine
 * (no OS keychain) and offers to protect it with a passphrase instead.
 */
export function DesktopKeyBanner() {
  const [protection, setProtection] = useKeyProtection();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  if (!protection || (protection.level !== 'weak' && protection.level !== 'unavailable')) {
    return result?.ok ? (
      <div className="banner banner-ok" role="status">
        {result.message}
      </div>
    ) : null;
  }

  const protectedNow = (message: string) => {
    setResult({ ok: true, message });
    setProtection({ level: 'passphrase', message: '' });
  };

  return (
    <div className="banner banner-warning" role="region" aria-label="Data protection">
      <p>
        <strong>
          {protection.level === 'weak'
            ? 'Your data is only weakly protected on this computer.'
            : 'Your data is not protected by this computer’s keychain.'}
        </strong>{' '}
        {protection.message}
      </p>
      {!open ? (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Protect with a passphrase
        </button>
      ) : (
        <PassphraseForm onDone={protectedNow} onFailed={setResult} onClose={() => setOpen(false)} />
      )}
      {result && !result.ok && (
        <p className="field-error" role="alert">
          {result.message}
        </p>
      )}
    </div>
  );
}

/** The passphrase, typed twice, handed to the desktop shell to re-protect the key. */
function PassphraseForm(props: { onDone(message: string): void; onFailed(result: Result): void; onClose(): void }) {
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const api = desktopApi();
    if (!api) return;
    if (passphrase !== repeat) return props.onFailed({ ok: false, message: 'The two passphrases differ.' });
    setBusy(true);
    const answer = await api.usePassphrase(passphrase);
    setBusy(false);
    if (answer.ok)
      props.onDone('Your data is now protected by your passphrase. You will be asked for it at each start.');
    else props.onFailed({ ok: false, message: answer.message });
  };

  return (
    <form className="banner-form" onSubmit={submit}>
      <NewPassphrase label="Passphrase" value={passphrase} onChange={setPassphrase} />
      <NewPassphrase label="Repeat" value={repeat} onChange={setRepeat} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Protecting…' : 'Use this passphrase'}
      </button>
      <button type="button" className="button button-quiet" onClick={props.onClose}>
        Not now
      </button>
    </form>
  );
}

/** One new-passphrase field of the form, labelled inline. */
function NewPassphrase(props: { label: string; value: string; onChange(value: string): void }) {
  return (
    <label className="field field-inline">
      <span>{props.label}</span>
      <input
        type="password"
        required
        autoComplete="new-password"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
