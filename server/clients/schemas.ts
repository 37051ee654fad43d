import { Type, type Static } from '@sinclair/typebox';
import { PlainText, Timestamp, Uuid } from '../http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const Client = Type.Object({
  id: Uuid,
  name: Type.String(),
  industry: Type.Union([Type.String(), Type.Null()]),
  website: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  locations_count: Type.Integer(),
});
export type Client = Static<typeof Client>;

export const CreateClientBody = Type.Object(
  {
    name: PlainText({ maxLength: 200, description: 'Client or brand name; not blank' }),
    industry: Type.Optional(Nullable(PlainText({ maxLength: 100 }))),
    website: Type.Optional(Nullable(PlainText({ maxLength: 2048, description: 'Primary domain or http(s) address' }))),
  },
  { additionalProperties: false },
);
export type CreateClientBody = Static<typeof CreateClientBody>;

export const CreatedClient = Type.Object({ id: Uuid, name: Type.String() });
export type CreatedClient = Static<typeof CreatedClient>;

export const ClientParams = Type.Object({ clientId: Uuid });

export const UpdateClientBody = Type.Object(
  {
    name: Type.Optional(CreateClientBody.properties.name),
    industry: CreateClientBody.properties.industry,
    website: CreateClientBody.properties.website,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateClientBody = Static<typeof UpdateClientBody>;
