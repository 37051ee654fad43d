import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app.js';
import { BodyPieces, readBody } from '../http/body.js';
import { CSV_TYPE, TEXT_TYPE, TSV_TYPE, XLS_TYPE, XLSX_TYPE } from '../imports/schemas.js';
import { countryCode } from './country.js';
import { isOldWorkbook, jsonAsText, TABLE_TYPES, tableFormatOf, XLS_REFUSAL } from '../imports/table-request.js';
import type { TableFormat } from '../imports/table-body.js';
import { Forbidden, HttpError, Invalid, NotFound } from '../http/errors.js';
import { canSeeClient, NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors } from '../http/schemas.js';
import { compileValidator } from '../http/validation.js';
import type { DataStore } from '../store/store.js';
import { readBulkEdit } from './edit.js';
import { phoneExtension } from './fields.js';
import {
  BulkEditBody,
  BulkEditQuery,
  PatchAnswer,
  PatchQuery,
  BulkEditResponse,
  CountResponse,
  DeleteResponse,
  DeleteLocationsBody,
  DeleteQuery,
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

/**
 * The bodies that list location ids (bulk edit and delete): room for as many as the schema takes
 * (LocationIds, 100,000 ids of 39 bytes each in JSON) and the values to set, where other JSON bodies take 1 MiB.
 */
const IDS_BODY_LIMIT = 5 * 1024 * 1024;

/** Spec 4.5 and 4.6, and issue 9: list, read, edit and delete a client's locations; import many at once. */
export const locationRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { data } = context;

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
      const client = await data.clients.byId(principal.organizationId, request.query.clientId);
      if (client === undefined) throw NotFound('No client with this id');
      if (!canSeeClient(principal, client.id)) throw Forbidden('You can only see the locations of your own client');
      // The database writes the JSON (store/store.ts); test/server/locations-list.test.ts holds it to the schema.
      const text = await data.locations.listJson(client.id, request.query, request.query.include === 'google_place_id');
      const json = typeof text === 'string' ? text : Readable.from(text, { objectMode: false });
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
      const location = await data.locations.record(principal.organizationId, request.params.id);
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
const editRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  app.patch(
    '/api/locations/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Change fields of a location (Admin); null clears a field; health is recomputed',
        description:
          'Each field follows the import\'s rules (README: "Location fields"). dryRun=true checks the change ' +
          'as it would be made (a store code taken is the 409) and answers the record as it would be, ' +
          'writing nothing: the editor checks each field as the person leaves it.',
        params: LocationParams,
        querystring: PatchQuery,
        body: LocationPatch,
        response: { 200: PatchAnswer, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const body = request.body as Record<string, unknown>;
      const { dryRun = false } = request.query;
      const record = await data.locations.patch(principalOf(request), request.params.id, body, clock.now(), dryRun);
      // The extension the stored number cannot keep is said, as the import says it (a walk's was dropped unsaid).
      const extension = phoneExtension(body.phone, record.country);
      // A script can tell the answer of a dry run from a save's (found by a walk).
      return {
        ...record,
        ...(dryRun ? { dry_run: true as const } : {}),
        ...(extension === null ? {} : { phone_extension: extension }),
      };
    },
  );

  app.patch(
    '/api/locations',
    {
      onRequest: requireAccess(NEEDS.import),
      bodyLimit: IDS_BODY_LIMIT,
      schema: {
        tags: ['locations'],
        summary: 'Set the same values on many locations, or add and remove labels, in one transaction (Admin)',
        description:
          'count: the locations whose values changed. An id that is not yours fails the whole request. ' +
          "add_labels and remove_labels change each location's own labels; a location left with more than 10 " +
          'fails the whole request (400). dryRun=true counts the locations it would change and writes nothing.',
        querystring: BulkEditQuery,
        body: BulkEditBody,
        response: { 200: BulkEditResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { ids, ...edit } = request.body;
      // The values are checked here, where a 400 is cheap; the writer reads them again in its transaction.
      readBulkEdit(edit);
      const { count, operation_id } = await data.locations.edit({
        principal: principalOf(request),
        ids,
        edit,
        dryRun: request.query.dryRun ?? false,
        now: clock.now(),
      });
      return { success: true as const, count, operation_id };
    },
  );
};

/** Delete locations, one or many, on the writer thread (Admin). */
const deleteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  app.delete(
    '/api/locations/:id',
    {
      onRequest: requireAccess(NEEDS.import),
      schema: {
        tags: ['locations'],
        summary: 'Delete a location, permanently (Admin)',
        params: LocationParams,
        response: { 200: DeleteResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const ids = [request.params.id];
      const { operation_id } = await data.locations
        .delete({ principal: principalOf(request), ids, now: clock.now() })
        .catch(oneLocation);
      // Not a dry run: the deletion has its operation.
      return { success: true as const, operation_id: operation_id! };
    },
  );

  app.post(
    '/api/locations/delete',
    {
      onRequest: requireAccess(NEEDS.import),
      bodyLimit: IDS_BODY_LIMIT,
      schema: {
        tags: ['locations'],
        summary: 'Delete many locations in one transaction (Admin)',
        description:
          'An id that is not yours to delete fails the whole request: nothing is removed. dryRun=true checks ' +
          'the ids and counts what it would delete, writing nothing.',
        querystring: DeleteQuery,
        body: DeleteLocationsBody,
        response: { 200: CountResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { ids } = request.body;
      const { count, operation_id } = await data.locations.delete({
        principal: principalOf(request),
        ids,
        now: clock.now(),
        dryRun: request.query.dryRun === true,
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
const uploadRoute: FastifyPluginAsyncTypebox<AppContext> = async (plugin, { data, clock, bodies }) => {
  const upload = plugin.withTypeProvider<TypeBoxTypeProvider>();
  // The body's bytes count in the server's body budget from the first byte read until the writer has
  // answered (or the request ends otherwise): parallel imports cannot make the server hold more.
  const held = new WeakMap<object, number>();
  const release = async (request: { raw: object }) => {
    const bytes = held.get(request.raw);
    held.delete(request.raw);
    if (bytes !== undefined) bodies.give(bytes);
  };
  upload.addHook('onResponse', release);
  upload.addHook('onRequestAbort', release);
  upload.removeContentTypeParser(['application/json', 'text/plain']);
  // JSON rows, or a CSV or .xlsx file (server/imports/): read as bytes, parsed on the writer thread.
  upload.addContentTypeParser(['application/json', ...TABLE_TYPES], (request, payload, done) => {
    const length = request.headers['content-length'];
    readBody(payload, MAX_IMPORT_BYTES, length === undefined ? undefined : Number(length), bodies).then(
      (body) => {
        held.set(request.raw, body.byteLength);
        // Windows names a .csv file's type application/vnd.ms-excel: only a real .xls is refused as one.
        const type = request.headers['content-type']?.toLowerCase() ?? '';
        if (type.startsWith(XLS_TYPE) && isOldWorkbook(body.pieces[0])) return done(XLS_REFUSAL, undefined);
        const json = jsonAsText(type, body.pieces[0]);
        if (json !== null) return done(json, undefined);
        done(null, body);
      },
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
          '(text/csv, any charset; text/tab-separated-values or text/plain as Excel\'s "Unicode Text") or an .xlsx workbook, with ?clientId=: its headers are matched to fields, ' +
          'placeholders blanked and rows that are not locations left out; the answer adds columns and ' +
          'left_out (README: "Import a CSV or Excel file"). placeholders=none reads no placeholder ' +
          '(the caller blanked its own); mapping=<id> on JSON rows says a saved mapping mapped them, and ' +
          'marks it used.',
        querystring: UploadQuery,
        body: UploadBody,
        consumes: ['application/json', CSV_TYPE, TSV_TYPE, TEXT_TYPE, XLSX_TYPE],
        response: { 200: DryRunResponse, 201: UploadResponse, ...errors(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const outcome = await runUpload(data, request, request.query, reply.raw, clock.now()).finally(() =>
        release(request),
      );
      // The store wrote the answer as UTF-8 JSON and moved its bytes here without a copy: this event loop
      // neither copies nor encodes the answer of 100,000 rows (test/server/import-modes.test.ts holds it to
      // the schemas).
      const pieces = outcome.bytes.map((piece) => Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
      return reply
        .code(outcome.statusCode as 201)
        .type('application/json; charset=utf-8')
        .header(
          'content-length',
          pieces.reduce((length, piece) => length + piece.length, 0),
        )
        .send(Readable.from(pieces, { objectMode: false }) as unknown as UploadResponse);
    },
  );
};

/**
 * One upload, JSON rows or a CSV/.xlsx file (with a saved mapping when `?mapping=` names one), handed to
 * the store; an answer in the API's words, or the store's refusal thrown as an HTTP error.
 */
async function runUpload(
  data: DataStore,
  request: FastifyRequest,
  query: Static<typeof UploadQuery>,
  response: ServerResponse,
  now: number,
) {
  const body = request.body as unknown;
  const { dryRun = false, duplicates = 'skip', mode = 'create', blanks = 'keep', fileName = null } = query;
  const { placeholders = 'default', mapping: mappingId } = query;
  const principal = principalOf(request);
  const asked = tableFormatOf(request.headers['content-type'] ?? '', query, blanks);
  const format = await data.mappings.withSaved(principal.organizationId, asked, mappingId);
  if (format !== undefined && (!(body instanceof BodyPieces) || body.byteLength === 0))
    throw Invalid('The body is empty: send the CSV or .xlsx file itself');
  if (!(body instanceof BodyPieces)) throw Invalid('Send the import as a JSON body: {"clientId": ..., "rows": [...]}');
  const outcome = await data.locations.import({
    principal,
    organizationId: principal.organizationId,
    body: body.pieces,
    dryRun,
    duplicates,
    mode,
    blanks,
    fileName,
    now,
    cancel: cancelOnClose(response),
    placeholders,
    ...countryOption(query.country, format),
    ...bodyOptions(format, mappingId, query),
  });
  if (!('bytes' in outcome)) throw new HttpError(outcome.statusCode, outcome.message, outcome.details);
  return outcome;
}

/** ?country=, else the saved mapping's, read by the country rule of a row (locations/country.ts) into its ISO code. */
function countryOption(given: string | undefined, format: TableFormat | undefined): { country?: string } {
  const text = given ?? format?.mapping?.options.country;
  if (text === undefined) return {};
  // A script's empty variable: said in the words of a wrong country, not the schema's (a walk).
  if (text.trim() === '') throw Invalid('?country= is empty: give a country name or ISO code (US), or leave it out');
  const code = countryCode(text);
  if (code === null) throw Invalid(`?country=: "${text}" is not a country name or ISO code`);
  return { country: code };
}

/** The table format (CSV, .xlsx) and its saved mapping; or what the query says of JSON rows. */
function bodyOptions(
  format: TableFormat | undefined,
  mappingId: string | undefined,
  query: Static<typeof UploadQuery>,
) {
  // A CSV has no sheets: a ?sheet= is refused rather than ignored, as on JSON rows (a probe).
  if (format?.kind === 'csv' && query.sheet !== undefined)
    throw Invalid('?sheet= names a sheet of an .xlsx workbook; a CSV file has none: leave it out');
  const options = format !== undefined ? { format } : jsonQuery(query);
  return mappingId !== undefined ? { ...options, mappingId } : options;
}

/**
 * What the query says of a JSON import, whose body names its client itself: a ?clientId= beside it must
 * agree (import.ts); a CSV's or workbook's options are refused rather than ignored.
 */
function jsonQuery(query: Static<typeof UploadQuery>): { queryClientId?: string } {
  if (query.sheet !== undefined || query.keep_flagged !== undefined)
    throw Invalid('?sheet= and ?keep_flagged= are for a CSV or .xlsx upload; JSON rows are imported as sent');
  return query.clientId === undefined ? {} : { queryClientId: query.clientId.toLowerCase() };
}

/**
 * A flag shared with the writer thread, set when the connection closes before the answer is sent: the
 * import checks it between pieces and rolls back, so a cancelled upload is never written (issue 12).
 */
function cancelOnClose(response: ServerResponse): Int32Array {
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  response.once('close', () => {
    if (!response.writableFinished) Atomics.store(cancel, 0, 1);
  });
  return cancel;
}
