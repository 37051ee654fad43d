import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { write } from '../db/write.js';
import { isWholeList } from '../db/sql.js';
import { readBody } from '../http/body.js';
import { CSV_TYPE, XLS_TYPE, XLSX_TYPE } from '../imports/schemas.js';
import { TABLE_TYPES, tableFormatOf, XLS_REFUSAL } from '../imports/table-request.js';
import { Forbidden, HttpError, Invalid, NotFound } from '../http/errors.js';
import { canSeeClient, NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { compileValidator } from '../http/validation.js';
import { clientById } from '../clients/queries.js';
import { withSavedMapping } from '../mappings/apply.js';
import { markMappingUsed } from '../mappings/queries.js';
import { patchLocation, readPatch } from './edit.js';
import { locationRecord, locationsJson, locationsJsonPieces } from './queries.js';
import {
  BulkEditBody,
  CountResponse,
  DeleteLocationsBody,
  DryRunResponse,
  Location,
  LocationParams,
  LocationPatch,
  LocationRecord,
  LocationsQuery,
  MAX_IMPORT_BYTES,
  UploadBody,
  UploadQuery,
  UploadResponse,
} from './schemas.js';

/** Spec 4.5 and 4.6, and issue 9: list, read, edit and delete a client's locations; import many at once. */
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
      // SQLite writes the JSON (locations/queries.ts); test/server/locations-schema.test.ts holds it to the schema.
      const withPlace = request.query.include === 'google_place_id';
      const json = isWholeList(request.query)
        ? Readable.from(locationsJsonPieces(db, client.id, withPlace), { objectMode: false })
        : locationsJson(db, client.id, request.query, withPlace);
      return reply
        .header('x-total-count', client.locations_count)
        .type('application/json; charset=utf-8')
        .send(json as unknown as Location[]);
    },
  );

  app.get(
    '/api/locations/:id',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['locations'],
        summary: 'One location, whole (its Google place id included)',
        params: LocationParams,
        response: { 200: LocationRecord, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const location = locationRecord(db, principal.organizationId, request.params.id);
      if (location === undefined) throw NotFound('No location with this id');
      if (!canSeeClient(principal, location.client_id))
        throw Forbidden('You can only see the locations of your own client');
      return location;
    },
  );

  await app.register(editRoutes, context);
  await app.register(deleteRoutes, context);
  await app.register(uploadRoute, context);
};

/** Issue 9 §2: edit and delete locations, one or many (Admin). */
const editRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, writer, clock }) => {
  const db = store.db;

  app.patch(
    '/api/locations/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Change fields of a location (Admin); null clears a field; health is recomputed',
        description: 'Each field follows the import\'s rules (README: "Location fields").',
        params: LocationParams,
        body: LocationPatch,
        response: { 200: LocationRecord, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params;
      const body = request.body as Record<string, unknown>;
      return write(db, () => {
        patchLocation(db, principal, id, body, clock.now());
        return locationRecord(db, principal.organizationId, id)!;
      });
    },
  );

  app.patch(
    '/api/locations',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Set the same values on many locations at once, in one transaction (Admin)',
        description: 'count: the locations whose values changed. An id that is not yours fails the whole request.',
        body: BulkEditBody,
        response: { 200: CountResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // The values are checked here, where a 400 is cheap; the writer reads them again in its transaction.
      readPatch(request.body.set as Record<string, unknown>, null, 'set');
      const { count, operation_id } = await writer.write('editLocations', {
        principal,
        ids: request.body.ids,
        set: request.body.set,
        now: clock.now(),
      });
      return { success: true as const, count, operation_id };
    },
  );
};

/** Delete locations, one or many, on the writer thread (Admin). */
const deleteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { writer, clock }) => {
  app.delete(
    '/api/locations/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Delete a location, permanently (Admin)',
        params: LocationParams,
        response: { 200: Success, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const ids = [request.params.id];
      await writer
        .write('deleteLocations', { principal: principalOf(request), ids, now: clock.now() })
        .catch(oneLocation);
      return { success: true as const };
    },
  );

  app.post(
    '/api/locations/delete',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Delete many locations in one transaction (Admin)',
        description: 'An id that is not yours to delete fails the whole request: nothing is removed.',
        body: DeleteLocationsBody,
        response: { 200: CountResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { ids } = request.body;
      const { count, operation_id } = await writer.write('deleteLocations', {
        principal: principalOf(request),
        ids,
        now: clock.now(),
      });
      return { success: true as const, count, operation_id };
    },
  );
};

function oneLocation(error: unknown): never {
  if (error instanceof HttpError && error.statusCode === 404) throw NotFound('No location with this id');
  throw error;
}

/** The upload reads its body as bytes: the writer thread parses and checks it off the event loop. */
const uploadRoute: FastifyPluginAsyncTypebox<AppContext> = async (plugin, { writer, clock, store }) => {
  const upload = plugin.withTypeProvider<TypeBoxTypeProvider>();
  upload.removeContentTypeParser('application/json');
  // JSON rows, or a CSV or .xlsx file (server/imports/): read as bytes, parsed on the writer thread.
  upload.addContentTypeParser(['application/json', ...TABLE_TYPES], (request, payload, done) => {
    if (request.headers['content-type']?.toLowerCase().startsWith(XLS_TYPE)) return done(XLS_REFUSAL, undefined);
    const length = request.headers['content-length'];
    readBody(payload, MAX_IMPORT_BYTES, length === undefined ? undefined : Number(length)).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });
  upload.post(
    '/api/locations/upload',
    {
      // A client-limited caller is checked against the body's client inside the write (authorizeWrite).
      onRequest: requireAccess(NEEDS.import),
      bodyLimit: MAX_IMPORT_BYTES,
      // The body schema documents the request and is enforced by the writer thread, row by row.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compileValidator(route)),
      schema: {
        tags: ['locations'],
        summary: 'Import locations for a client, all or nothing (Admin)',
        description:
          'mode=create (default) adds locations; duplicates (same store code, google_place_id, or name and ' +
          'address) of an earlier row or of an existing location are skipped unless duplicates=keep. ' +
          'mode=upsert updates the location a row matches by its key and creates the others; mode=update ' +
          'only updates. blanks=clear makes a blank cell clear the stored value. dryRun=true answers what ' +
          'would happen, row by row, without writing (README: "Import rules"). The body may also be a CSV ' +
          '(text/csv, any charset) or an .xlsx workbook, with ?clientId=: its headers are matched to fields, ' +
          'placeholders blanked and rows that are not locations left out; the answer adds columns and ' +
          'left_out (README: "Import a CSV or Excel file").',
        querystring: UploadQuery,
        body: UploadBody,
        consumes: ['application/json', CSV_TYPE, XLSX_TYPE],
        response: { 200: DryRunResponse, 201: UploadResponse, ...errors(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown;
      const { dryRun = false, duplicates = 'skip', mode = 'create', blanks = 'keep', fileName = null } = request.query;
      const { organizationId } = principalOf(request);
      const asked = tableFormatOf(request.headers['content-type'] ?? '', request.query, blanks);
      const format = withSavedMapping(store.db, organizationId, asked, request.query.mapping);
      if (format !== undefined && (!Buffer.isBuffer(body) || body.byteLength === 0))
        throw Invalid('The body is empty: send the CSV or .xlsx file itself');
      if (!Buffer.isBuffer(body)) throw Invalid('Send the import as a JSON body: {"clientId": ..., "rows": [...]}');
      const own = ownBuffer(body);
      const outcome = await writer.write(
        'importLocations',
        {
          principal: principalOf(request),
          organizationId: principalOf(request).organizationId,
          body: own,
          dryRun,
          duplicates,
          mode,
          blanks,
          fileName,
          now: clock.now(),
          ...(format !== undefined ? { format } : {}),
        },
        [own.buffer as ArrayBuffer],
      );
      if (!('json' in outcome)) throw new HttpError(outcome.statusCode, outcome.message, outcome.details);
      if (request.query.mapping !== undefined && !dryRun) {
        const used = request.query.mapping.toLowerCase();
        write(store.db, () => markMappingUsed(store.db, used, clock.now()));
      }
      // The writer wrote the answer as JSON text (test/server/import-modes.test.ts holds it to the schemas).
      return reply
        .code(outcome.statusCode as 201)
        .type('application/json; charset=utf-8')
        .send(outcome.json as unknown as UploadResponse);
    },
  );
};

/**
 * The body moves to the writer thread without a copy when it has an ArrayBuffer of its own; a small body
 * may share Node's Buffer pool, which must never be detached, so that one is copied first.
 */
function ownBuffer(body: Buffer): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) return body;
  return new Uint8Array(body);
}
