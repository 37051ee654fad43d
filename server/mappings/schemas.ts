import { Type, type Static } from '@sinclair/typebox';
import { COUNTRY_CODE_PATTERN, PlainText, Timestamp, Uuid } from '../http/schemas.js';
import { TARGETS } from '../imports/targets.js';

/** A field a saved mapping may send a column to (server/imports/targets.ts), or null: left out. */
export const MappingField = Type.Union([...TARGETS.map((target) => Type.Literal(target)), Type.Null()], {
  description:
    'A location field, street_number or suite (joined to the address), hours_mon..hours_sun, closed (read into the status), or null',
});

export const MappingColumn = Type.Object(
  { header: PlainText({ minLength: 1, maxLength: 200 }), field: MappingField },
  { additionalProperties: false },
);

export const MappingOptions = Type.Object(
  {
    separator: Type.Optional(
      PlainText({ minLength: 1, maxLength: 10, description: 'Between address lines; ", " by default' }),
    ),
    placeholders: Type.Optional(
      Type.Array(PlainText({ minLength: 1, maxLength: 50 }), {
        maxItems: 100,
        description: 'The values read as blank, instead of the default list (README: "Location fields")',
      }),
    ),
    country: Type.Optional(
      Type.String({
        pattern: COUNTRY_CODE_PATTERN,
        description:
          "The country of a location the import would leave without one (the upload's ?country=, which comes first), an ISO code",
      }),
    ),
  },
  { additionalProperties: false },
);
export type MappingOptions = Static<typeof MappingOptions>;

const Columns = Type.Array(MappingColumn, { minItems: 1, maxItems: 500 });
const MappingName = PlainText({ minLength: 1, maxLength: 200 });

export const Mapping = Type.Object({
  id: Uuid,
  client_id: Type.Union([Uuid, Type.Null()], { description: 'null: shared by every client' }),
  name: Type.String(),
  header_key: Type.String({ description: "The file's header set it applies to (normalized words, sorted)" }),
  columns: Columns,
  options: MappingOptions,
  created_at: Timestamp,
  updated_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
});
export type Mapping = Static<typeof Mapping>;

export const CreateMappingBody = Type.Object(
  {
    client_id: Type.Union([Uuid, Type.Null()], { description: 'The client it is for; null: shared by every client' }),
    name: MappingName,
    columns: Columns,
    options: Type.Optional(MappingOptions),
  },
  { additionalProperties: false },
);
export type CreateMappingBody = Static<typeof CreateMappingBody>;

export const UpdateMappingBody = Type.Object(
  {
    name: Type.Optional(MappingName),
    columns: Type.Optional(Columns),
    options: Type.Optional(MappingOptions),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateMappingBody = Static<typeof UpdateMappingBody>;

export const MappingParams = Type.Object({ id: Uuid });

export const MappingsQuery = Type.Object(
  {
    clientId: Type.Optional(Type.String({ ...Uuid, description: "This client's mappings and the shared ones" })),
    headers: Type.Optional(
      Type.String({
        maxLength: 20_000,
        description: 'A file\'s headers separated by "|": only the mappings for that header set',
      }),
    ),
  },
  { additionalProperties: false },
);
