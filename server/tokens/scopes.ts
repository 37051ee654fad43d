import { Type, type Static } from '@sinclair/typebox';
import type { Role } from '../http/schemas.js';

/** What an API token may do (README: "API tokens"); each route declares the one it needs. */
export const Scope = Type.Union(
  [Type.Literal('read'), Type.Literal('import'), Type.Literal('clients'), Type.Literal('admin')],
  {
    description:
      'read: lists and single records; import: imports and changes of locations; clients: create, edit and ' +
      'delete clients; admin: users and API tokens of the organization',
  },
);
export type Scope = Static<typeof Scope>;

/** Every scope, in the order they are stored and shown. */
export const SCOPES: readonly Scope[] = ['read', 'import', 'clients', 'admin'];

/** What each role may do at all: a token's scopes are always cut down to its owner's role at the moment of use. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  viewer: ['read'],
  client_viewer: ['read'],
};

/** The scopes both in `scopes` and allowed to `role`, in the fixed order. */
export function scopesAllowed(scopes: readonly Scope[], role: Role): Scope[] {
  return ROLE_SCOPES[role].filter((scope) => scopes.includes(scope));
}

/** Space-separated as OAuth writes them ("read import"), and as the database stores them. */
export function scopeString(scopes: readonly Scope[]): string {
  return SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}

/** Parses a stored or OAuth scope string; undefined when it names an unknown scope. */
export function parseScopes(text: string): Scope[] | undefined {
  const names = text.split(' ').filter((name) => name !== '');
  if (!names.every((name): name is Scope => (SCOPES as readonly string[]).includes(name))) return undefined;
  return SCOPES.filter((scope) => names.includes(scope));
}

const SCOPE_WORDS: Record<Scope, string> = {
  read: 'read clients and locations',
  import: 'import and change locations',
  clients: 'create, edit and delete clients',
  admin: 'manage users and API tokens',
};

/** "read clients and locations and import and change locations", for the approval prompt. */
export function scopesInWords(scopes: readonly Scope[]): string {
  return scopes.map((scope) => SCOPE_WORDS[scope]).join(', and ');
}
