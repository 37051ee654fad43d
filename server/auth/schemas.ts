import { Type, type Static } from '@sinclair/typebox';
import { PlainText, Role, Uuid } from '../http/schemas.js';

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

export const Me = Type.Composite([
  SessionUser,
  Type.Object({ organization: Type.Object({ id: Uuid, name: Type.String() }) }),
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
