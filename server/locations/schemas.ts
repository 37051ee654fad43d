import { Type, type Static } from '@sinclair/typebox';
import { ErrorDetail, Page, Timestamp, Uuid } from '../http/schemas.js';

export const HealthStatus = Type.Union([Type.Literal('green'), Type.Literal('yellow'), Type.Literal('red')], {
  description: 'green from 80, yellow from 50, red below (README: "Health")',
});
export type HealthStatus = Static<typeof HealthStatus>;

const Text = Type.Union([Type.String(), Type.Null()]);

export const Location = Type.Object({
  id: Uuid,
  name: Type.String(),
  address: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Type.Union([Type.String({ description: 'ISO 3166-1 alpha-2' }), Type.Null()]),
  health_score: Type.Integer({ minimum: 0, maximum: 100 }),
  health_status: HealthStatus,
  created_at: Timestamp,
});
export type Location = Static<typeof Location>;

export const LocationsQuery = Type.Composite([Type.Object({ clientId: Uuid }), Page], { additionalProperties: false });

/** Field limits of one import row; values are strings, trimmed, and an empty optional value becomes null. */
export const ROW_FIELDS = {
  name: 200,
  address: 500,
  city: 120,
  state: 120,
  zip: 20,
  country: 100,
  google_place_id: 300,
} as const;
export type RowField = keyof typeof ROW_FIELDS;

const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

export const UploadRow = Type.Object(
  {
    name: Type.String({ maxLength: ROW_FIELDS.name }),
    address: optionalText(ROW_FIELDS.address),
    city: optionalText(ROW_FIELDS.city),
    state: optionalText(ROW_FIELDS.state),
    zip: optionalText(ROW_FIELDS.zip),
    country: optionalText(ROW_FIELDS.country),
    google_place_id: optionalText(ROW_FIELDS.google_place_id),
  },
  { additionalProperties: false },
);
export type UploadRow = Static<typeof UploadRow>;

export const MAX_IMPORT_ROWS = 100_000;
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export const UploadBody = Type.Object(
  {
    clientId: Uuid,
    rows: Type.Array(UploadRow, {
      description: `At most ${MAX_IMPORT_ROWS} rows and ${MAX_IMPORT_BYTES / 1048576} MiB a request`,
    }),
  },
  { additionalProperties: false },
);
export type UploadBody = Static<typeof UploadBody>;

export const DuplicatePolicy = Type.Union([Type.Literal('skip'), Type.Literal('keep')], {
  description: 'skip (default): duplicates are not created; keep: every valid row is created',
});
export type DuplicatePolicy = Static<typeof DuplicatePolicy>;

export const UploadQuery = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ description: 'Validate and normalize only; nothing is written' })),
    duplicates: Type.Optional(DuplicatePolicy),
  },
  { additionalProperties: false },
);
export type UploadQuery = Static<typeof UploadQuery>;

export const ImportedLocation = Type.Object({ id: Uuid, name: Type.String(), city: Text, state: Text });

export const UploadResponse = Type.Object({
  success: Type.Literal(true),
  count: Type.Integer({ description: 'Locations created' }),
  locations: Type.Array(ImportedLocation),
});
export type UploadResponse = Static<typeof UploadResponse>;

export const DuplicateOf = Type.Object({
  reason: Type.Union([Type.Literal('google_place_id'), Type.Literal('name_and_address')]),
  row: Type.Optional(Type.Integer({ description: 'An earlier row of the same request' })),
  location_id: Type.Optional(Uuid),
});
export type DuplicateOf = Static<typeof DuplicateOf>;

export const PreviewRow = Type.Object({
  index: Type.Integer(),
  name: Type.String(),
  address: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Text,
  google_place_id: Text,
  health_score: Type.Integer(),
  health_status: HealthStatus,
  health_issues: Type.Array(Type.String()),
  duplicate_of: Type.Union([DuplicateOf, Type.Null()]),
});
export type PreviewRow = Static<typeof PreviewRow>;

export const DryRunResponse = Type.Object({
  dry_run: Type.Literal(true),
  valid: Type.Boolean({ description: 'false when any row is invalid: the import would answer 400' }),
  count: Type.Integer({ description: 'Locations the import would create' }),
  duplicates: Type.Integer({ description: 'Valid rows that are duplicates' }),
  rows: Type.Array(PreviewRow, { description: 'Every valid row, normalized' }),
  errors: Type.Array(ErrorDetail, { description: 'Every invalid field, by row index' }),
});
export type DryRunResponse = Static<typeof DryRunResponse>;
