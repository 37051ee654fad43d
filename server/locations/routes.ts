import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { readBody } from '../http/body.js';
import { Forbidden, Invalid, NotFound } from '../http/errors.js';
import { canSeeClient, NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors } from '../http/schemas.js';
import { compileValidator } from '../http/validation.js';
import { isWholeList } from '../db/sql.js';
import { clientById } from '../clients/queries.js';
import { locationsJson, locationsJsonPieces } from './queries.js';
import {
  DryRunResponse,
  Location,
  LocationsQuery,
  MAX_IMPORT_BYTES,
  UploadBody,
  UploadQuery,
  UploadResponse,
} from './schemas.js';

/** Spec 4.5 and 4.6: list a client's locations; import many at once. */
export const locationRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const db = context.store.db;

  app.get(
    '/api/locations',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['locations'],
        summary: "A client's locations, in import order",
        querystring: LocationsQuery,
        response: { 200: Type.Array(Location), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const client = clientById(db, principal.organizationId, request.query.clientId);
      if (client === undefined) throw NotFound('No client with this id');
      if (!canSeeClient(principal, client.id)) throw Forbidden('You can only see the locations of your own client');
      // SQLite writes the JSON (see locations/queries.ts); the schema above documents it and types the client.
      const json = isWholeList(request.query)
        ? Readable.from(locationsJsonPieces(db, client.id), { objectMode: false })
        : locationsJson(db, client.id, request.query);
      return reply
        .header('x-total-count', client.locations_count)
        .type('application/json; charset=utf-8')
        .send(json as unknown as Location[]);
    },
  );

  // The upload reads its body as bytes: the import worker parses and checks it off the event loop.
  await app.register(async (plugin) => {
    const upload = plugin.withTypeProvider<TypeBoxTypeProvider>();
    upload.removeContentTypeParser('application/json');
    upload.addContentTypeParser('application/json', (request, payload, done) => {
      const length = request.headers['content-length'];
      readBody(payload, MAX_IMPORT_BYTES, length === undefined ? undefined : Number(length)).then(
        (body) => done(null, body),
        (error: Error) => done(error, undefined),
      );
    });
    upload.post(
      '/api/locations/upload',
      {
        // Whole organization until the import's write checks the body's client against a client-limited
        // token (authorizeWrite with need.clientId, in the writer): refused before the body is read meanwhile.
        onRequest: requireAccess({ ...NEEDS.import, wholeOrganization: true }),
        bodyLimit: MAX_IMPORT_BYTES,
        // The body schema documents the request and is enforced by the worker, row by row.
        validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compileValidator(route)),
        schema: {
          tags: ['locations'],
          summary: 'Import locations for a client, all or nothing (Admin)',
          description:
            'Duplicates (same google_place_id, or same name and address) of an earlier row or of an existing ' +
            'location are skipped unless duplicates=keep. dryRun=true validates and normalizes without writing.',
          querystring: UploadQuery,
          body: UploadBody,
          response: { 200: DryRunResponse, 201: UploadResponse, ...errors(400, 401, 403, 404, 413, 415) },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        if (!Buffer.isBuffer(body)) throw Invalid('Send the import as a JSON body: {"clientId": ..., "rows": [...]}');
        const result = await context.writer.run({
          kind: 'import',
          organizationId: principalOf(request).organizationId,
          body,
          dryRun: request.query.dryRun ?? false,
          duplicates: request.query.duplicates ?? 'skip',
          now: context.clock.now(),
        });
        // A long answer comes in pieces (db/writer-jobs.ts, 'piece').
        const { payload } = result;
        return reply
          .code(result.statusCode as 201)
          .type('application/json; charset=utf-8')
          .send(
            (typeof payload === 'string'
              ? payload
              : Readable.from(payload, { objectMode: false })) as unknown as UploadResponse,
          );
      },
    );
  });
};
