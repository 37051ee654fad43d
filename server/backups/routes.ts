import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { HttpError, NotFound } from '../http/errors.js';
import { NEEDS, requireAccess } from '../http/guards.js';
import { errors } from '../http/schemas.js';
import { BackupFailedError, type Backups } from './backups.js';
import { Backup, BackupFile, BackupParams } from './schemas.js';

/** Issue 11 §3: the automatic and manual backups, for Admins (README: "Automatic backups"). */
export const backupRoutes: FastifyPluginAsyncTypebox<AppContext & { backups: Backups }> = async (app, { backups }) => {
  // A backup holds every client, location and user: the whole organization's data.
  const admin = { onRequest: requireAccess(NEEDS.admin) };

  app.get(
    '/api/backups',
    {
      ...admin,
      schema: {
        tags: ['backups'],
        summary: 'The backups in the data folder, newest first, with what each holds (Admin)',
        response: { 200: Type.Array(Backup), ...errors(401, 403) },
      },
    },
    async () => backups.list(),
  );

  app.post(
    '/api/backups',
    {
      ...admin,
      schema: {
        tags: ['backups'],
        summary:
          'Back up now: a manual backup (manual-<UTC time>.db), an encrypted, consistent copy made while the server keeps answering, never removed by the rotation (Admin)',
        response: { 201: Backup, ...errors(400, 401, 403, 500, 507) },
      },
    },
    async (_request, reply) => {
      let made;
      try {
        made = await backups.backUpNow();
      } catch (error) {
        throw backupFailure(error);
      }
      reply.code(201);
      return made;
    },
  );

  app.get(
    '/api/backups/:name/download',
    {
      ...admin,
      schema: {
        tags: ['backups'],
        summary: 'The encrypted backup file; it opens with the same key as the database (Admin)',
        params: BackupParams,
        response: { 200: BackupFile, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const backup = backups.fileOf(request.params.name);
      if (backup === undefined) throw NotFound('No backup with this name');
      reply
        .type('application/octet-stream')
        .header('content-length', backup.size)
        .header('content-disposition', `attachment; filename="${backup.name}"`);
      return reply.send(fs.createReadStream(backup.file));
    },
  );
};

/**
 * Why a backup could not be made, said (it was "Something went wrong on the server", where the command
 * line said "database or disk is full": a walk): 507 for a full disk, a 500 naming the cause otherwise.
 */
function backupFailure(error: unknown): unknown {
  // Failed on the backup thread, or in making its file here (mkdir of the backups folder).
  const fileError = error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
  if (!(error instanceof BackupFailedError) && !fileError) return error;
  if (/disk is full|ENOSPC/i.test(error.message))
    return new HttpError(507, 'The backup could not be made: the disk is full. Nothing was changed.');
  const cause = /EEXIST|ENOTDIR/.test(error.message)
    ? 'the backups folder of the data folder is not a folder'
    : error.message.split('\n')[0]!;
  return new HttpError(500, `The backup could not be made: ${cause}. Nothing was changed.`);
}
