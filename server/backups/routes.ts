import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { NotFound } from '../http/errors.js';
import { NEEDS, requireAccess } from '../http/guards.js';
import { errors } from '../http/schemas.js';
import type { Backups } from './backups.js';
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
        response: { 201: Backup, ...errors(400, 401, 403) },
      },
    },
    async (_request, reply) => {
      const made = await backups.backUpNow();
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
