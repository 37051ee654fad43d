import { useEffect, useState, type FormEvent } from 'react';
import type { KeyProtection } from '../../../main/desktop-api.js';
import { desktopApi } from '../desktop.js';

/**
 * In the desktop app, says plainly when the database key is only weakly protected on this machine
 * (no OS keychain) and offers to protect it with a passphrase instead.
 */
export function DesktopKeyBanner() {
  const [protection, setProtection] = useState<KeyProtection | null>(null);
  const [open, setOpen] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

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

  if (!protection || (protection.level !== 'weak' && protection.level !== 'unavailable')) {
    return result?.ok ? (
      <div className="banner banner-ok" role="status">
        {result.message}
      </div>
    ) : null;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const api = desktopApi();
    if (!api) return;
    if (passphrase !== repeat) {
      setResult({ ok: false, message: 'The two passphrases differ.' });
      return;
    }
    setBusy(true);
    const answer = await api.usePassphrase(passphrase);
    setBusy(false);
    if (answer.ok) {
      setResult({
        ok: true,
        message: 'Your data is now protected by your passphrase. You will be asked for it at each start.',
      });
      setProtection({ level: 'passphrase', message: '' });
    } else setResult({ ok: false, message: answer.message });
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
        <form className="banner-form" onSubmit={submit}>
          <label className="field field-inline">
            <span>Passphrase</span>
            <input
              type="password"
              required
              autoComplete="new-password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
            />
          </label>
          <label className="field field-inline">
            <span>Repeat</span>
            <input
              type="password"
              required
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Protecting…' : 'Use this passphrase'}
          </button>
          <button type="button" className="button button-quiet" onClick={() => setOpen(false)}>
            Not now
          </button>
        </form>
      )}
      {result && !result.ok && (
        <p className="field-error" role="alert">
          {result.message}
        </p>
      )}
    </div>
  );
}
