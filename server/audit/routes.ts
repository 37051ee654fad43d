import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app.js';
import { canSeeClient, NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { Forbidden } from '../http/errors.js';
import { errors, utcTimestamp } from '../http/schemas.js';
import { AuditPage, AuditQuery, OperationParams, UndoQuery, UndoResponse } from './schemas.js';

/** Issue 11: the audit trail and the change feed; undo of an operation. */
export const auditRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  app.get(
    '/api/audit',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['audit'],
        summary: 'The audit trail, newest first; with order=asc and a cursor, the change feed since it',
        description:
          "A Client Viewer (or a client-limited token) sees its client's entries only, without other users' e-mails. " +
          'Pass next_cursor as cursor for the next page; null means the last page.',
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // As GET /api/locations: asking for another client's entries is refused, not answered with one's own.
      const asked = request.query.clientId;
      if (asked !== undefined && !canSeeClient(principal, asked.toLowerCase()))
        throw Forbidden('You can only see the history of your own client');
      const { since } = request.query;
      const query = since === undefined ? request.query : { ...request.query, since: utcTimestamp(since) };
      return data.audit.list(principal.organizationId, query, {
        userId: principal.userId,
        clientId: principal.clientId,
      });
    },
  );

  app.post(
    '/api/operations/:id/undo',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['audit'],
        summary: 'Undo an import, a bulk edit, a bulk delete or an undo, in one transaction (Admin)',
        description:
          'Locations changed again since the operation are left as they are and listed in conflicts. ' +
          'dryRun=true answers the same without writing.',
        params: OperationParams,
        querystring: UndoQuery,
        response: { 200: UndoResponse, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      data.audit.undo({
        principal: principalOf(request),
        operationId: request.params.id,
        dryRun: request.query.dryRun ?? false,
        now: clock.now(),
      }),
  );
};
