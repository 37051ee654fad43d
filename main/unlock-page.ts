import { createHash } from 'node:crypto';

/**
 * The small page that asks for the passphrase before the server can open the database. It is a
 * data: URL (no server runs yet); its one inline script is allowed by hash, nothing else loads.
 */
const SCRIPT = `
const form = document.getElementById('unlock');
const input = document.getElementById('passphrase');
const error = document.getElementById('error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  form.setAttribute('aria-busy', 'true');
  error.textContent = '';
  const result = await window.agencyDeskUnlock.submit(input.value).catch((e) => ({ ok: false, message: String(e.message || e) }));
  form.removeAttribute('aria-busy');
  if (!result.ok) { error.textContent = result.message; input.select(); }
});
`;

const STYLE = `
body { font: 15px system-ui, sans-serif; margin: 0; display: grid; place-items: center; height: 100vh; background: #f6f7f9; color: #1d232b; }
form { background: #fff; padding: 28px; border-radius: 10px; box-shadow: 0 2px 12px #0002; width: 320px; }
h1 { font-size: 18px; margin: 0 0 12px; }
input { width: 100%; box-sizing: border-box; padding: 8px; font: inherit; margin: 8px 0 12px; }
button { padding: 8px 16px; font: inherit; }
#error { color: #b3261e; min-height: 1.4em; }
`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

export const UNLOCK_PAGE_CSP = `default-src 'none'; script-src ${sha256(SCRIPT)}; style-src ${sha256(STYLE)}; form-action 'none'; base-uri 'none'`;

/** What the page asks for: the passphrase of this app's database, or the key of one made elsewhere. */
export type UnlockPrompt = 'passphrase' | 'adopt';

const WORDS: Record<UnlockPrompt, { title: string; label: string; button: string }> = {
  passphrase: {
    title: 'Unlock Agency Desk',
    label: 'Your database is encrypted with a passphrase.',
    button: 'Unlock',
  },
  adopt: {
    title: 'Open a database made elsewhere',
    label:
      'This database was made by the Agency Desk server or on another computer. Type its key: the passphrase, or the 64 hexadecimal digits of its db.key file. It is asked once, then kept in this computer’s keychain.',
    button: 'Open',
  },
};

export function unlockPageHtml(prompt: UnlockPrompt = 'passphrase'): string {
  const words = WORDS[prompt];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${UNLOCK_PAGE_CSP}">
<title>${words.title}</title><style>${STYLE}</style></head>
<body><form id="unlock">
<h1>${words.title}</h1>
<label for="passphrase">${words.label}</label>
<input id="passphrase" type="password" autocomplete="current-password" autofocus required minlength="8">
<p id="error" role="alert"></p>
<button type="submit">${words.button}</button>
</form><script>${SCRIPT}</script></body></html>`;
}

export function unlockPageUrl(prompt: UnlockPrompt = 'passphrase'): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(unlockPageHtml(prompt))}`;
}
