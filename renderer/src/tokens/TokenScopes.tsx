import { useId } from 'react';
import { Choice } from '../components/Choice.js';
import type { RoleName } from '../api/types.js';
import { SCOPE_HELP, type ScopeName } from './queries.js';

// What each role may grant (the server refuses more with 403): a Viewer's scripts only read.
const ROLE_SCOPES: Record<RoleName, ScopeName[]> = {
  admin: ['read', 'import', 'clients', 'admin'],
  viewer: ['read'],
  client_viewer: ['read'],
};

/** The scopes a token gets, as checkboxes, with what is wrong with the choice beneath them. */
export function TokenScopes({
  role,
  scopes,
  problem,
  onScopes,
}: {
  role: RoleName;
  scopes: ScopeName[];
  problem: string | null;
  onScopes(scopes: ScopeName[]): void;
}) {
  const problemId = useId();
  const toggle = (scope: ScopeName) =>
    onScopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);
  return (
    <fieldset className="field" aria-describedby={problem ? problemId : undefined}>
      <legend>What it may do</legend>
      {ROLE_SCOPES[role].map((scope) => (
        <Choice
          key={scope}
          input={{ type: 'checkbox', checked: scopes.includes(scope), onChange: () => toggle(scope) }}
          name={<strong>{scope}</strong>}
          help={SCOPE_HELP[scope]}
        />
      ))}
      {problem && (
        <small id={problemId} className="field-error">
          {problem}
        </small>
      )}
    </fieldset>
  );
}
