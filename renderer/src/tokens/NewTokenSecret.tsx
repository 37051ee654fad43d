import { useState } from 'react';
import { Dialog } from '../components/Dialog.js';
import type { CreatedToken } from './queries.js';

function curlExample(origin: string, secret: string): string {
  return `curl -H "Authorization: Bearer ${secret}" ${origin}/api/clients`;
}

function pythonExample(origin: string, secret: string): string {
  return [
    'import json, urllib.request',
    '',
    `TOKEN = "${secret}"`,
    `request = urllib.request.Request("${origin}/api/clients", headers={"Authorization": f"Bearer {TOKEN}"})`,
    'with urllib.request.urlopen(request) as response:',
    '    for client in json.load(response):',
    '        print(client["name"], client["locations_count"])',
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
        <pre className="code-example">{curlExample(origin, token.token)}</pre>
        <h2 className="small-heading">Or from Python (standard library only)</h2>
        <pre className="code-example">{pythonExample(origin, token.token)}</pre>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
