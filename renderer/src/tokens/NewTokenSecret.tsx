import { useState } from 'react';
import { Dialog } from '../components/Dialog.js';
import type { CreatedToken } from './queries.js';

/**
 * What the examples ask: the clients when the token may read them, else who it is and what it may do
 * (GET /api/me answers every credential): an example of a token without "read" got a 403 (a walk).
 */
function exampleOf(token: CreatedToken): { path: string; lines: string[] } {
  if (token.scopes.includes('read'))
    return {
      path: '/api/clients',
      lines: ['    for client in json.load(response):', '        print(client["name"], client["locations_count"])'],
    };
  return { path: '/api/me', lines: ['    me = json.load(response)', '    print(me["email"], me["access"]["scopes"])'] };
}

function curlExample(origin: string, token: CreatedToken): string {
  return `curl -H "Authorization: Bearer ${token.token}" ${origin}${exampleOf(token).path}`;
}

function pythonExample(origin: string, token: CreatedToken): string {
  const { path, lines } = exampleOf(token);
  return [
    'import json, urllib.request',
    '',
    `TOKEN = "${token.token}"`,
    `request = urllib.request.Request("${origin}${path}", headers={"Authorization": f"Bearer {TOKEN}"})`,
    'with urllib.request.urlopen(request) as response:',
    ...lines,
  ].join('\n');
}

/** The new token's secret, shown this once, with a copy button and examples that run as they are. */
export function NewTokenSecret({ token, onClose }: { token: CreatedToken; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  const origin = window.location.origin;
  const copy = () =>
    void navigator.clipboard.writeText(token.token).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <Dialog title={`Token ${token.name} created`} onClose={onClose} wide>
      <div className="form">
        <p className="notice notice-ok" role="status">
          Copy the token now: it is shown only this once. Agency Desk keeps only a fingerprint of it.
        </p>
        <div className="token-secret">
          <code data-testid="token-secret">{token.token}</code>
          {/* The secret is shown once: the dialog starts here, not on its ×, where Enter would lose it. */}
          <button type="button" className="button" data-autofocus onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
        <h2 className="small-heading">Try it with curl</h2>
        <pre className="code-example">{curlExample(origin, token)}</pre>
        <h2 className="small-heading">Or from Python (standard library only)</h2>
        <pre className="code-example">{pythonExample(origin, token)}</pre>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
