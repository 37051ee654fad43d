import { Type, type Static } from '@sinclair/typebox';
import { TableAnswer, TableQuery } from '../imports/schemas.js';
import { ErrorDetail, Page, PlainText, TIME_OF_DAY_PATTERN, Timestamp, Uuid } from '../http/schemas.js';
import { MAX_INTERVALS } from './hours.js';

export const HealthStatus = Type.Union(
  [Type.Literal('green'), Type.Literal('yellow'), Type.Literal('red'), Type.Literal('closed')],
  {
    description:
      'green from 80, yellow from 50, red below; closed for a permanently closed location (README: "Health")',
  },
);
export type HealthStatus = Static<typeof HealthStatus>;

const Text = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const LocationStatus = Type.Union(
  [Type.Literal('open'), Type.Literal('temporarily_closed'), Type.Literal('permanently_closed')],
  { description: 'open (default), temporarily_closed or permanently_closed' },
);

const Interval = Type.Tuple(
  [Type.String({ pattern: TIME_OF_DAY_PATTERN }), Type.String({ pattern: TIME_OF_DAY_PATTERN })],
  {
    description: 'Opening and closing time, HH:MM; a closing time at or before the opening runs past midnight',
  },
);
const Day = Type.Optional(Type.Array(Interval, { description: 'Empty: closed that day' }));
export const Hours = Type.Object(
  { mon: Day, tue: Day, wed: Day, thu: Day, fri: Day, sat: Day, sun: Day },
  { additionalProperties: false, description: 'Regular weekly hours; a day left out is unknown' },
);

/** A day of hours as sent: a text, or at most MAX_INTERVALS intervals, or null. */
const DayInput = Type.Optional(
  Type.Union([Type.String({ maxLength: 200 }), Type.Array(Interval, { maxItems: MAX_INTERVALS }), Type.Null()]),
);

/** The listing fields (issue 9): additions to the spec's location, null when unknown. */
const ListingFields = {
  store_code: Type.Union([Type.String(), Type.Null()], { description: "The agency's own id for the location" }),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'E.164, e.g. +14155550100' }),
  website: Type.Union([Type.String(), Type.Null()], { description: 'An http(s) URL' }),
  latitude: NullableNumber,
  longitude: NullableNumber,
  primary_category: Text,
  labels: Type.Union([Type.Array(Type.String()), Type.Null()]),
  status: LocationStatus,
  hours: Type.Union([Hours, Type.Null()]),
};

export const Location = Type.Object({
  id: Uuid,
  google_place_id: Type.Optional(Text),
  name: Type.String(),
  address: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Type.Union([Type.String({ description: 'ISO 3166-1 alpha-2' }), Type.Null()]),
  health_score: Type.Integer({ minimum: 0, maximum: 100 }),
  health_status: HealthStatus,
  created_at: Timestamp,
  ...ListingFields,
  health_issues: Type.Array(Type.String(), { description: 'What lowers the score (empty when green)' }),
  health_hints: Type.Array(Type.String(), { description: 'For a green location: what would raise it' }),
  updated_at: Timestamp,
});
export type Location = Static<typeof Location>;

/** One location whole: the list's fields and its Google place id (GET /api/locations/:id). */
export const LocationRecord = Type.Composite([Location, Type.Object({ client_id: Uuid, google_place_id: Text })]);
export type LocationRecord = Static<typeof LocationRecord>;

/** PATCH's answer: the record, marked when it is a dry run's (as it would be; nothing was written). */
export const PatchAnswer = Type.Composite([
  LocationRecord,
  Type.Object({
    dry_run: Type.Optional(
      Type.Literal(true, { description: 'With ?dryRun=true: the record as it would be; nothing was written' }),
    ),
    phone_extension: Type.Optional(
      Type.String({
        description:
          'The extension the phone sent carried ("3" of "(512) 555-0177 ext. 3"): the stored E.164 number has ' +
          "none, so it is not kept (as an import row's phone_extension). Only when there was one",
      }),
    ),
  }),
]);

export const LocationsQuery = Type.Composite(
  [
    Type.Object({
      clientId: Uuid,
      include: Type.Optional(
        Type.Literal('google_place_id', {
          description:
            "Adds each location's google_place_id (left out of the list by default, as the spec says): for an export",
        }),
      ),
    }),
    Page,
  ],
  { additionalProperties: false },
);

const optionalText = (maxLength: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength, ...(description ? { description } : {}) }), Type.Null()]));
const optionalNumber = (description: string) =>
  Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 40 }), Type.Null()], { description }));

/**
 * One import row, and the fields of PATCH: text as it comes from a sheet (trimmed; blank is null), the
 * listing fields also in their JSON forms. The rules of each field are in locations/fields.ts.
 */
const InputFields = {
  address: optionalText(500),
  city: optionalText(120),
  state: optionalText(120),
  zip: optionalText(20),
  country: optionalText(100, 'A country name (7 languages) or an ISO 3166-1 code; stored as alpha-2'),
  google_place_id: optionalText(300),
  store_code: optionalText(200, 'At most 60 characters, no URL; unique within the client'),
  phone: optionalText(50, 'Any national or international form; stored as E.164 using the country'),
  website: optionalText(2048, 'An http(s) URL or a bare domain'),
  latitude: optionalNumber(
    '-90 to 90; text may use a decimal comma. With the longitude: a change that leaves a location one of the two is a 400',
  ),
  longitude: optionalNumber(
    '-180 to 180; text may use a decimal comma. With the latitude: a change that leaves a location one of the two is a 400',
  ),
  primary_category: optionalText(100),
  labels: Type.Optional(
    Type.Union(
      [Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 }), Type.Null()],
      {
        description: 'At most 10 labels of 50 characters: an array, or one text separated by commas',
      },
    ),
  ),
  status: optionalText(
    40,
    'open, temporarily_closed or permanently_closed (also "Temporarily closed", CLOSED_TEMPORARILY ...)',
  ),
  hours: Type.Optional(
    Type.Union(
      [
        Type.String({ maxLength: 1000, description: 'The week: "Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed"' }),
        Type.Object(
          {
            mon: DayInput,
            tue: DayInput,
            wed: DayInput,
            thu: DayInput,
            fri: DayInput,
            sat: DayInput,
            sun: DayInput,
          },
          {
            additionalProperties: false,
            description: 'Per day: a text ("09:00-17:00", "9am-12pm, 1pm-5pm", "x" for closed) or intervals',
          },
        ),
        Type.Null(),
      ],
      { description: 'Regular weekly hours (README: "Hours")' },
    ),
  ),
};

export const UploadRow = Type.Object(
  {
    id: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description:
          "A location id of the client, as the export writes it: in upsert and update the row updates that location when it exists (else the row's key decides)",
      }),
    ),
    name: Type.String({ maxLength: 200 }),
    ...InputFields,
    closed: Type.Optional(
      Type.Union([Type.String({ maxLength: 40 }), Type.Boolean(), Type.Null()], {
        description:
          "Yext's closed, read into the status: yes (yes, y, true, 1, x, closed, permanently closed) is " +
          'permanently_closed; no (no, n, false, 0, open) opens a location closed for good and leaves a ' +
          'temporary closure (a new location is open); a status that disagrees is refused, but no ' +
          'keeps temporarily_closed. Blank: the status is left alone (README: "Closed")',
      }),
    ),
    updated_at: Type.Optional(
      Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
        description:
          "The location's updated_at as the export wrote it (its Updated column): not stored. In upsert and " +
          'update, a row that would change a location changed after this time is named in the dry run ' +
          '(changed_since): importing it puts back older values (README: "Changed since the export")',
      }),
    ),
    line: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description: "The row's line in the sheet it was read from: not stored, echoed in this row's error details",
      }),
    ),
  },
  { additionalProperties: false },
);
export type UploadRow = Static<typeof UploadRow>;
/** The fields of an import row, as a file's columns fill them. */
export type RowField = Exclude<keyof UploadRow, 'line'>;

/** PATCH /api/locations/:id: any field; null (or blank) clears it; the name cannot be cleared. */
export const LocationPatch = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 200 })), ...InputFields },
  { additionalProperties: false, minProperties: 1 },
);
export type LocationPatch = Static<typeof LocationPatch>;

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
  description: 'In create mode: skip (default): duplicates are not created; keep: every valid row is created',
});
export type DuplicatePolicy = Static<typeof DuplicatePolicy>;

export const ImportMode = Type.Union([Type.Literal('create'), Type.Literal('upsert'), Type.Literal('update')], {
  description:
    'create (default): new locations only; upsert: a row matching a location by its key updates it, the others ' +
    'are created; update: only matching rows update, the others are reported. The key is the store code, else ' +
    'the Google place id, else the name and address',
});
export type ImportMode = Static<typeof ImportMode>;

export const BlankCells = Type.Union([Type.Literal('keep'), Type.Literal('clear')], {
  description:
    'In upsert and update: keep (default): a blank cell leaves the stored value, and a day the hours leave out ' +
    "keeps that day's stored hours; clear: a blank cell clears it, and the hours given are the whole week",
});
export type BlankCells = Static<typeof BlankCells>;

export const UploadQuery = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ description: 'Validate and normalize only; nothing is written' })),
    duplicates: Type.Optional(DuplicatePolicy),
    mode: Type.Optional(ImportMode),
    blanks: Type.Optional(BlankCells),
    fileName: Type.Optional(
      PlainText({ maxLength: 260, description: "The file's name, for the audit trail (no control characters)" }),
    ),
    country: Type.Optional(
      PlainText({
        maxLength: 60,
        description:
          'The country of a location the import would leave without one (a sheet with no Country column, a blank ' +
          "cell): a name or ISO code, as in a row. A row's own country, and a matched location's, come first; its " +
          'phones and postal codes are read by it',
      }),
    ),
    ...TableQuery,
  },
  { additionalProperties: false },
);
export type UploadQuery = Static<typeof UploadQuery>;

export const ImportedLocation = Type.Object({ id: Uuid, name: Type.String(), city: Text, state: Text });

const Totals = {
  created: Type.Integer({ description: 'Locations created' }),
  updated: Type.Integer({ description: 'Existing locations changed' }),
  unchanged: Type.Integer({ description: 'Rows matching a location whose values were already the same' }),
  skipped: Type.Integer({ description: 'Duplicates skipped, and in update mode rows that match no location' }),
};

/** A row whose phone carried an extension, which the stored E.164 number cannot keep. */
export const DroppedExtension = Type.Object({
  row: Type.Integer({ description: "The row's index in the request" }),
  line: Type.Optional(Type.Integer({ description: "A CSV or .xlsx upload: the row's line in the file" })),
  extension: Type.String({ description: 'The extension left out ("3" of "+1 217-555-0100 ext. 3")' }),
});
export type DroppedExtension = Static<typeof DroppedExtension>;

export const UploadResponse = Type.Object({
  success: Type.Literal(true),
  count: Type.Integer({ description: 'Locations created' }),
  locations: Type.Array(ImportedLocation, { description: 'The locations created' }),
  ...Totals,
  phone_extensions: Type.Array(DroppedExtension, {
    description:
      'The rows created, updated or unchanged whose phone carried an extension: the stored E.164 number has ' +
      "none, so it was left out (the dry run's phone_extension, row by row); empty when none did",
  }),
  operation_id: Type.Union([Uuid, Type.Null()], {
    description:
      'The import in the audit trail: POST /api/operations/:id/undo reverts it; null for an import that created and updated nothing (no rows, or every row unchanged or skipped): there is nothing to undo',
  }),
  ...TableAnswer,
});
export type UploadResponse = Static<typeof UploadResponse>;

export const DuplicateOf = Type.Object({
  reason: Type.Union([
    Type.Literal('id'),
    Type.Literal('store_code'),
    Type.Literal('google_place_id'),
    Type.Literal('name_and_address'),
  ]),
  row: Type.Optional(Type.Integer({ description: 'An earlier row of the same request' })),
  location_id: Type.Optional(Uuid),
});
export type DuplicateOf = Static<typeof DuplicateOf>;

export const RowAction = Type.Union(
  [
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('unchanged'),
    Type.Literal('skipped'),
    Type.Literal('error'),
  ],
  { description: 'What the import does (or would do) with the row' },
);
export type RowAction = Static<typeof RowAction>;

export const Change = Type.Object({ from: Type.Unknown(), to: Type.Unknown() });
export const Changes = Type.Record(Type.String(), Change, { description: '{field: {from, to}}' });
export type Changes = Static<typeof Changes>;

export const PreviewRow = Type.Object({
  index: Type.Integer(),
  action: RowAction,
  location_id: Type.Union([Uuid, Type.Null()], { description: 'The location the row matches' }),
  changes: Type.Union([Changes, Type.Null()], { description: 'For an update: each changed field' }),
  name: Type.String(),
  address: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Text,
  google_place_id: Text,
  ...ListingFields,
  health_score: Type.Integer(),
  health_status: HealthStatus,
  health_issues: Type.Array(Type.String()),
  health_hints: Type.Array(Type.String()),
  duplicate_of: Type.Union([DuplicateOf, Type.Null()]),
  skip_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why a row that is no duplicate is skipped' }),
  note: Type.Union([Type.String(), Type.Null()], {
    description:
      "A warning on a row that is still imported: in upsert and update, its id is not one of the client's locations",
  }),
  same_place_as: Type.Union([Type.String(), Type.Null()], {
    description:
      "In upsert and update: a row that matches none of the client's locations by its key (its store code, else " +
      'its place id), while its place id or its name and address are those of this location (its id): upsert ' +
      'would add a second location there, update skips it. Most often the store code was changed in the sheet ' +
      'or in the app.',
  }),
  place_id_of: Type.Union([Uuid, Type.Null()], {
    description:
      "In upsert and update: an update that gives its location the google_place_id another of the client's " +
      'locations has (its id): the two would then share one Google place',
  }),
  store_code_case_of: Type.Union([Uuid, Type.Null()], {
    description:
      "In upsert and update: a row whose store code matches none of the client's locations while this location " +
      '(its id) has it in other capitals ("sea-001" for SEA-001, "SEA-003" for Sea-003): store ' +
      'codes match exactly, so upsert would add a second location, update skips the row',
  }),
  changed_since: Type.Union([Timestamp, Type.Null()], {
    description:
      "In upsert and update: an update to a location changed after the row's updated_at (the time its export " +
      'wrote): when it was changed. Importing the row puts back the values the location had then, in the ' +
      'fields the row changes',
  }),
  no_key: Type.Boolean({
    description:
      'A row to create with no store code, no place id and no address: no later import can match it to the ' +
      'location it makes, so importing the file again adds it again (give it a store code, or an address)',
  }),
  phone_extension: Type.Union([Type.String(), Type.Null()], {
    description:
      'The extension the row\'s phone carried ("3" of "+1 217-555-0100 ext. 3"): the stored E.164 number has none, ' +
      'so it is not kept',
  }),
  store_code_given: Type.Union([Type.String(), Type.Null()], {
    description:
      "The store code the row gave, when it is the matched location's code but for the leading zeros Excel drops " +
      '("123" for 00123): the stored code is kept (README: "Excel\'s leading zeros")',
  }),
  would_change: Type.Union([Changes, Type.Null()], {
    description:
      'In create mode: a row skipped as the duplicate of a stored location, whose values differ from it: what ' +
      'mode=upsert would change there ({field: {from, to}}); null when nothing would, or the row is no such duplicate',
  }),
});
export type PreviewRow = Static<typeof PreviewRow>;

export const DryRunResponse = Type.Object({
  dry_run: Type.Literal(true),
  valid: Type.Boolean({ description: 'false when any row is invalid: the import would answer 400' }),
  count: Type.Integer({ description: 'Locations the import would create' }),
  duplicates: Type.Integer({ description: 'Valid rows that are duplicates' }),
  totals: Type.Object({ ...Totals, errors: Type.Integer({ description: 'Rows with errors' }) }),
  rows: Type.Array(PreviewRow, {
    description: 'Every row: valid ones as they would be stored, invalid ones (action "error") as sent',
  }),
  errors: Type.Array(ErrorDetail, { description: 'Every invalid field, by row index' }),
  ...TableAnswer,
});
export type DryRunResponse = Static<typeof DryRunResponse>;

export const LocationParams = Type.Object({ id: Uuid });
export const LocationIds = Type.Array(Uuid, { minItems: 1, maxItems: MAX_IMPORT_ROWS, uniqueItems: true });

export const DeleteLocationsBody = Type.Object({ ids: LocationIds }, { additionalProperties: false });

/** A bulk edit's labels to add or to remove: texts, read by the labels rule (trimmed, no comma, 50 characters). */
const LabelList = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50, description }));

/**
 * PATCH /api/locations: the same values on many (the fields a bulk edit makes sense for), and labels
 * added to or removed from each location's own.
 */
export const BulkEditBody = Type.Object(
  {
    ids: LocationIds,
    set: Type.Optional(
      Type.Object(
        {
          status: InputFields.status,
          primary_category: InputFields.primary_category,
          labels: InputFields.labels,
          website: InputFields.website,
          hours: InputFields.hours,
          country: InputFields.country,
          state: InputFields.state,
          city: InputFields.city,
        },
        {
          additionalProperties: false,
          minProperties: 1,
          description: "The same values on every location; set.labels replaces each location's labels",
        },
      ),
    ),
    add_labels: LabelList(
      "Labels added to each location's own, those it has already left alone; a location would end with more " +
        'than 10: the whole request is a 400. Not with set.labels',
    ),
    remove_labels: LabelList(
      'Labels taken off each location that has them, compared as stored: trimmed, case counts ("Bakery" is not ' +
        '"bakery"). Not with set.labels',
    ),
  },
  { additionalProperties: false, description: 'ids, and set, add_labels or remove_labels, or several of them' },
);
export type BulkEditBody = Static<typeof BulkEditBody>;
/** What a bulk edit does to each of its locations: the body without its ids. */
export type BulkEdit = Omit<BulkEditBody, 'ids'>;

const dryRunQuery = (description: string) =>
  Type.Object({ dryRun: Type.Optional(Type.Boolean({ description })) }, { additionalProperties: false });

export const PatchQuery = dryRunQuery('Check the change and answer the record as it would be; write nothing');
export const BulkEditQuery = dryRunQuery('Count the locations the edit would change, and check it; write nothing');
export const DeleteQuery = dryRunQuery('Check the ids and count the locations it would delete; write nothing');

export const BulkEditResponse = Type.Object({
  success: Type.Literal(true),
  count: Type.Integer({ description: 'The locations whose values changed (with dryRun: would change)' }),
  operation_id: Type.Union([Uuid, Type.Null()], {
    description:
      'The change in the audit trail: POST /api/operations/:id/undo reverts it; null for a dry run, and when count is 0 (nothing to undo)',
  }),
});

/** DELETE /api/locations/:id: the spec's `{success: true}`, and the deletion's operation for its undo. */
export const DeleteResponse = Type.Object({
  success: Type.Literal(true),
  operation_id: Type.String({
    format: 'uuid',
    description: 'The deletion in the audit trail: POST /api/operations/:id/undo brings the location back',
  }),
});

export const CountResponse = Type.Object({
  success: Type.Literal(true),
  count: Type.Integer({ description: 'The locations deleted (with dryRun: it would delete)' }),
  operation_id: Type.Union([Uuid, Type.Null()], {
    description: 'The change in the audit trail: POST /api/operations/:id/undo reverts it; null for a dry run',
  }),
});
