import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.js';

const Count = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
  description: 'null when the backup does not open with the current key (made before a passphrase switch)',
});

// Each kind is the start of its files' names (server/backups/folder.ts): `manual-<UTC time>.db`.
export const BackupKind = Type.Union([Type.Literal('auto'), Type.Literal('manual'), Type.Literal('before-restore')], {
  description:
    'auto: made on schedule, removed by the rotation; manual: made by "Back up now"; before-restore: the database a restore replaced. Only auto backups are ever removed by the app',
});
export type BackupKind = Static<typeof BackupKind>;

export const Backup = Type.Object({
  name: Type.String({ description: 'The file name in <data dir>/backups; names the backup in the URLs below' }),
  path: Type.String({
    description:
      "The backup's file on the server's computer, absolute (<data dir>/backups/<name>): the FILE of `agency-desk restore FILE`, in the folder where every backup is kept",
  }),
  kind: BackupKind,
  created_at: Timestamp,
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  clients: Count,
  locations: Count,
});
export type Backup = Static<typeof Backup>;

// No pattern: a name that is no backup's is a 404 found by looking in the folder's list (Backups.fileOf),
// which never reads a path, a partial file or the live database; a pattern would answer a 400 in regex.
export const BackupParams = Type.Object({
  name: Type.String({ description: 'A name from GET /api/backups, such as manual-2026-03-01T09-30-00Z.db' }),
});

// Sent as a stream of the file's bytes: the schema documents it, Fastify never serializes a stream.
export const BackupFile = Type.Unsafe<NodeJS.ReadableStream>({
  type: 'string',
  format: 'binary',
  description: 'The encrypted database file (SQLCipher 4, the same key as the live database)',
});
