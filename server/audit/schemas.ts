import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../http/schemas.js';
import { Changes } from '../locations/schemas.js';

export const Actor = Type.Object({
  type: Type.Union([Type.Literal('user'), Type.Literal('token'), Type.Literal('system')]),
  id: Type.Union([Uuid, Type.Null()], { description: 'The user (for a token: its owner)' }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: "Left out (null) for a Client Viewer reading others' entries",
  }),
  name: Type.Union([Type.String(), Type.Null()], { description: "The token's name for a token; else the e-mail" }),
  token_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
});

export const AuditEntry = Type.Object({
  id: Uuid,
  at: Timestamp,
  actor: Actor,
  action: Type.String({
    description:
      'client.created, client.updated, client.deleted, location.updated, location.deleted, locations.imported, locations.edited, locations.deleted, locations.rescored (by Agency Desk itself, after an upgrade changed its health or matching rules), operation.undone, mapping.created, mapping.updated, mapping.deleted, user.created, user.updated, user.deleted, user.password_changed, user.signed_in, user.sign_in_throttled, token.created, token.revoked, database.restored (by Agency Desk itself: a backup was restored; a change feed reads everything again)',
  }),
  target: Type.Object({
    type: Type.String({ description: 'client, location, operation, user, token, mapping or backup' }),
    id: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
  }),
  client_id: Type.Union([Uuid, Type.Null()]),
  changes: Type.Union([Changes, Type.Null()], { description: '{field: {from, to}} for an edit' }),
  summary: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: "An operation's counts and details: mode, file name, created, updated, ...",
  }),
  operation_id: Type.Union([Uuid, Type.Null()]),
  undone_by: Type.Union([Uuid, Type.Null()], {
    description: "The undo that reverted this entry's operation, when one did (null otherwise)",
  }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object(
  {
    clientId: Type.Optional(Uuid),
    locationId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "A location's history: its own edits, and the imports, bulk edits and deletes and undos that changed it",
      }),
    ),
    actor: Type.Optional(Uuid),
    action: Type.Optional(Type.String({ maxLength: 60 })),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Entries at or after this time: RFC 3339, any offset (2026-11-24T09:00:00Z, 2026-11-24T10:00:00+01:00)',
      }),
    ),
    cursor: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 100' })),
    order: Type.Optional(
      Type.Union([Type.Literal('desc'), Type.Literal('asc')], {
        description: 'desc (default): newest first; asc with a cursor: the change feed after that cursor',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  next_cursor: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Newest first: the cursor of the next page, null on the last. order=asc: where to poll on from (never null)',
  }),
});

export const OperationParams = Type.Object({ id: Uuid });
export const UndoQuery = Type.Object(
  { dryRun: Type.Optional(Type.Boolean({ description: 'Say what the undo would do; write nothing' })) },
  { additionalProperties: false },
);
export const UndoResponse = Type.Object({
  dry_run: Type.Boolean(),
  operation_id: Type.Union([Uuid, Type.Null()], {
    description:
      "The undo's own operation; null for a dry run, and when every location is a conflict: then nothing is written and the operation can still be undone later",
  }),
  removed: Type.Integer({ description: 'Locations the operation had created, removed' }),
  restored: Type.Integer({ description: 'Locations put back to their values before' }),
  recreated: Type.Integer({ description: 'Locations the operation had deleted, back with their ids' }),
  conflicts: Type.Array(
    Type.Object({
      location_id: Uuid,
      name: Type.String(),
      reason: Type.String(),
      held_by: Type.Optional(
        Type.String({
          format: 'uuid',
          description: 'When the store code the location would get back is held by another location now: its id',
        }),
      ),
    }),
    {
      description: 'Locations changed again since the operation: left as they are',
    },
  ),
});
export type UndoResponse = Static<typeof UndoResponse>;
