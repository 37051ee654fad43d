import { Type, type Static } from '@sinclair/typebox';
import { PlainText, Timestamp, Uuid } from '../http/schemas.js';
import { Scope } from './scopes.js';

export const ApiToken = Type.Object({
  id: Uuid,
  name: Type.String(),
  scopes: Type.Array(Scope),
  client_id: Type.Union([Uuid, Type.Null()], { description: 'The one client the token is limited to, or null' }),
  user_id: Uuid,
  user_email: Type.String({ description: "The owner's e-mail address" }),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'Exact to the minute; null when never used' }),
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'null: never expires' }),
});
export type ApiToken = Static<typeof ApiToken>;

export const CreatedApiToken = Type.Composite([
  ApiToken,
  Type.Object({
    token: Type.String({
      description: 'The secret (adk_pat_…), shown this once: send it as Authorization: Bearer <token>',
    }),
  }),
]);
export type CreatedApiToken = Static<typeof CreatedApiToken>;

export const CreateApiTokenBody = Type.Object(
  {
    name: PlainText({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(Scope, { minItems: 1, maxItems: 4, uniqueItems: true }),
    clientId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'Limit the token to this client' })),
    expiresInDays: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], { description: 'Absent or null: never' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBody>;

export const ApiTokenParams = Type.Object({ id: Uuid });

export const ApiTokenListQuery = Type.Object(
  {
    all: Type.Optional(Type.Boolean({ description: 'true: every token of the organization (Admin)' })),
  },
  { additionalProperties: false },
);
