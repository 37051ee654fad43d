import { Type, type Static } from '@sinclair/typebox';
import { PlainText, Role, Uuid } from '../http/schemas.js';
import { Scope } from '../tokens/scopes.js';

export const Email = Type.String({ format: 'email', maxLength: 320, description: 'E-mail address (case-insensitive)' });
// OWASP ASVS 2.1.1 / NIST 800-63B: at least 8 characters, no composition rules; a cap keeps hashing bounded.
export const NewPassword = Type.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters' });

export const LoginBody = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ maxLength: 200 }) },
  { additionalProperties: false },
);
export type RefreshBody = Static<typeof RefreshBody>;

export const SessionUser = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  client_id: Type.Union([Uuid, Type.Null()]),
});
export type SessionUser = Static<typeof SessionUser>;

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires (3600)' }),
  expires_at: Type.String({ format: 'date-time' }),
  refresh_token: Type.String(),
  user: SessionUser,
});
export type TokenResponse = Static<typeof TokenResponse>;

/**
 * What the credential of the request may do (found by a script author's walk: a token limited to one
 * client was told only its owner's role): a session's or an API token's, its scopes cut to the role now.
 */
export const Access = Type.Object({
  credential: Type.Union([Type.Literal('session'), Type.Literal('api_token')]),
  token_id: Type.Union([Uuid, Type.Null()], { description: 'The API token of the request, null for a session' }),
  scopes: Type.Array(Scope, { description: "What the request may do now: a token's scopes cut to its owner's role" }),
  client_id: Type.Union([Uuid, Type.Null()], {
    description: "The one client the request may see and change (a Client Viewer's, or a token's limit); null for all",
  }),
});

export const Me = Type.Composite([
  SessionUser,
  Type.Object({ organization: Type.Object({ id: Uuid, name: Type.String() }), access: Access }),
]);
export type Me = Static<typeof Me>;

export const SetupStatus = Type.Object({
  needed: Type.Boolean({ description: 'true while no account exists: the first Admin can be created' }),
});

export const SetupBody = Type.Object(
  {
    organization_name: PlainText({ minLength: 1, maxLength: 200 }),
    email: Email,
    password: NewPassword,
  },
  { additionalProperties: false },
);
export type SetupBody = Static<typeof SetupBody>;
