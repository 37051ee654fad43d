import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Type } from '@sinclair/typebox';
import fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { systemClock, type Clock } from './auth/tokens.js';
import { authRoutes } from './auth/routes.js';
import { Backups, DEFAULT_SCHEDULE, type BackupSchedule } from './backups/backups.js';
import { backupRoutes } from './backups/routes.js';
import { makeAuthenticate } from './auth/session.js';
import { prepareDummyHash } from './auth/passwords.js';
import { SignInThrottle } from './auth/throttle.js';
import { auditRoutes } from './audit/routes.js';
import { clientEditRoutes, clientRoutes } from './clients/routes.js';
import type { Store } from './db/store.js';
import { DatabaseBusyError } from './db/write.js';
import { Writer } from './store/writer.js';
import { sqliteStore } from './store/sqlite-store.js';
import type { DataStore } from './store/store.js';
import { dashboard, sendDashboardPage } from './http/dashboard.js';
import { registerShadowedPaths, sendWrongMethod, shortPath, type RouteMethods } from './http/shadowed-paths.js';
import { errorBody, HttpError } from './http/errors.js';
import { processAllocator } from './memory.js';
import {
  BodyBudget,
  loneSurrogateError,
  loneSurrogatePath,
  parseJson,
  readJsonText,
  repeatedKeyError,
  repeatedKeyPointer,
} from './http/body.js';
import { registerLocalhostGuard } from './http/localhost.js';
import { registerNoBodyRule } from './http/no-body.js';
import { registerIdentityBodiesOnly } from './http/content-encoding.js';
import { openApi } from './http/openapi.js';
import { compileValidator } from './http/validation.js';
import { PLAIN_TEXT } from './http/schemas.js';
import { locationRoutes } from './locations/routes.js';
import { mappingRoutes } from './mappings/routes.js';
import { userRoutes } from './users/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { deviceRoutes } from './device/routes.js';

/**
 * A request Node's HTTP parser could not read (bytes past its Content-Length read as a next request,
 * a malformed header), its time out, or its headers too large: answered with the API's error body in
 * words, where Fastify's own said "Client Error" (a probe), and the connection closed.
 */
function answerUnreadableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long to arrive; send it again']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, "The request's headers are too large"]
        : [
            400,
            'The request could not be read as HTTP: its Content-Length, its chunks or a header does not match what was sent',
          ];
  const body = JSON.stringify(errorBody(status, message));
  const reason = STATUS_CODES[status] ?? '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The router's limit of a path's parameter (an id), in characters. */
const MAX_PARAM_LENGTH = 200;

export interface AppOptions {
  store: Store;
  clock?: Clock;
  /** Fastify's logger: false for none, or pino options with the stream to write to. */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  /** The built dashboard to serve at `/`; null serves none. */
  dashboardDir?: string | null;
  /** Start the writer worker with the app rather than at the first import (the served app; tests need not). */
  warmWriter?: boolean;
  /** Host names besides loopback that the server answers (a configured non-loopback listen address). */
  extraHosts?: readonly string[];
  /** Automatic backups on this schedule (the served app); without it, only "Back up now" makes one. */
  backupSchedule?: BackupSchedule;
  /** The backups of this data folder, when the caller wants them too (the desktop's restore menu). */
  backups?: Backups;
  /** How long one request may take to arrive, headers and body (README: "Limits"); tests shorten it. */
  requestTimeoutMs?: number;
}

/** What every feature plugin receives. */
export interface AppContext {
  /** The data, for the routes: every read and write through it, awaited (store/store.ts). */
  data: DataStore;
  clock: Clock;
  loginThrottle: SignInThrottle;
  /** Request body bytes held at once, JSON bodies and import bodies alike (README: "Limits"). */
  bodies: BodyBudget;
}

export type App = FastifyInstance;

/** A JSON body of a signed-in caller's request (README: "Limits"). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The query of an API route that takes none. */
const NO_QUERY = Type.Object({}, { additionalProperties: false });
// Every route open to callers who are not signed in (sign-in, refresh, setup, sign-out, unknown routes):
// the longest valid sign-in or setup body, every character escaped as \uXXXX, fits.
export const PUBLIC_BODY_LIMIT = 16 * 1024;
/** JSON bodies being received at once, all requests together (the import's body has its own limit). */
export const JSON_BODY_BUDGET = 32 * 1024 * 1024;
/** Connections open at once; beyond, new ones are closed as they come (Node's server.maxConnections). */
export const MAX_CONNECTIONS = 512;
export const REQUEST_TIMEOUT_MS = 120_000;

/** Builds the whole API as a Fastify instance; it never listens (server/start.ts does). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = fastify({
    logger: options.logger ?? false,
    logController: new OneLineRequestLog(),
    // Signed-in callers get JSON_BODY_LIMIT (below): they are known before their body is read.
    bodyLimit: PUBLIC_BODY_LIMIT,
    // Slow or stuck clients cannot hold a connection for ever. Node checks the request timeout every
    // connectionsCheckingInterval (30 s by default: slow bodies lasted 150 s); checked every second, a
    // request ends within a second of its limit. Its headers must come within half of it (at most 60 s,
    // Node's default), and Node ignores a request timeout shorter than the headers timeout.
    requestTimeout,
    connectionTimeout: requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.min(60_000, Math.ceil(requestTimeout / 2)),
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(requestTimeout / 10)),
    },
    // Responses of a union type are told apart by Ajv inside fast-json-stringify, which warned on the
    // console, among the JSON log lines, of the format it does not know (a walk): checked on the way in.
    serializerOpts: { ajv: { formats: { [PLAIN_TEXT]: true } } },
    return503OnClosing: true,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerUnreadableRequest,
    // A malformed URL is answered by the one error handler too, not by Fastify's own body (which adds `code`).
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode ?? 400;
      // Answered before any hook runs: the onSend headers are set here.
      void (reply as FastifyReply)
        .code(status)
        .headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
        .send(errorBody(status, clientErrorMessage(error, undefined, request.url)));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = MAX_CONNECTIONS;
  app.setValidatorCompiler(compileValidator);
  app.decorateRequest('principal', null);

  const clock = options.clock ?? systemClock;
  // Set already when the CLI started (tune-allocator.ts); here for a server built otherwise (the desktop
  // app, the tests), before the writer's threads start at least.
  const allocator = processAllocator();
  // The writer worker: imports and other long writes, off the event loop (behind the store).
  const writer = new Writer(options.store, app.log, allocator);
  const context: AppContext = {
    data: sqliteStore(options.store.db, writer),
    clock,
    loginThrottle: new SignInThrottle(clock),
    bodies: new BodyBudget(JSON_BODY_BUDGET, () => allocator.releaseSoon()),
  };
  app.addHook('onClose', async () => writer.close());
  // The full collection after a burst waits for a moment when no body is coming in and no write runs.
  const notBusy = allocator.busyWhile(() => context.bodies.inUse > 0 || writer.busy);
  app.addHook('onClose', async () => void notBusy());
  // An unknown e-mail's sign-in verifies against this hash: made now, so that even the first such
  // sign-in takes as long as a wrong password (no timing tells an unknown address from a known one).
  await prepareDummyHash();
  if (options.warmWriter) app.addHook('onReady', async () => writer.warmUp());
  const backups = options.backups ?? new Backups(options.store, options.backupSchedule ?? DEFAULT_SCHEDULE, app.log);
  app.addHook('onClose', async () => backups.close());
  if (options.backupSchedule) app.addHook('onReady', async () => backups.start());

  registerLocalhostGuard(app, options.extraHosts ?? []);
  registerIdentityBodiesOnly(app);
  registerJsonParser(app, context.bodies);
  registerNoBodyRule(app);
  registerErrorHandlers(app, registerShadowedPaths(app), Boolean(options.dashboardDir));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    // API answers carry tokens and client data: no cache may keep them.
    if (/^\/(api|auth)\//.test(request.url) && !request.url.startsWith('/api/docs'))
      reply.header('cache-control', 'no-store');
  });

  await app.register(openApi);
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  await app.register(authRoutes, context);
  await app.register(deviceRoutes, context);
  await app.register(async (api) => {
    api.addHook('onRequest', makeAuthenticate(context));
    api.addHook('onRoute', (route) => {
      route.bodyLimit ??= JSON_BODY_LIMIT;
      // A route that reads no query parameter refuses them (400 naming it): PATCH ...?dryRun=true would
      // otherwise write, as if the script had not asked for a dry run.
      if (route.schema !== undefined) route.schema.querystring ??= NO_QUERY;
    });
    await api.register(clientRoutes, context);
    await api.register(clientEditRoutes, context);
    await api.register(auditRoutes, context);
    await api.register(locationRoutes, context);
    await api.register(mappingRoutes, context);
    await api.register(userRoutes, context);
    await api.register(tokenRoutes, context);
    await api.register(backupRoutes, { ...context, backups });
  });
  if (options.dashboardDir) await app.register(dashboard, { root: options.dashboardDir });
  return app;
}

/**
 * JSON bodies: strict UTF-8, read within the route's limit and the shared budget, parsed by
 * secure-json-parse (prototype poisoning is refused), and refused when a string holds a lone surrogate
 * (never rewritten). An empty body is no body.
 */
function registerJsonParser(app: FastifyInstance, budget: BodyBudget): void {
  // JSON only: text/plain and every other type get 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const length = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit ?? PUBLIC_BODY_LIMIT;
    readJsonText(payload, limit, Number.isFinite(length) ? length : undefined, budget)
      .then(jsonBody)
      .then(
        (body) => done(null, body),
        (error: HttpError) => done(error, undefined),
      );
  });
}

function jsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  const body = parseJson(text);
  // A lone surrogate can only come from an escape (backslash, u): the text was decoded as strict UTF-8.
  const lone = text.includes('\\u') ? loneSurrogatePath(body) : null;
  if (lone !== null) throw loneSurrogateError(lone);
  const repeated = repeatedKeyPointer(text);
  if (repeated !== null) throw repeatedKeyError(repeated);
  return body;
}

/**
 * One log line a request, when it is answered, with what Fastify's "incoming request" line said: not
 * Fastify's two. The log goes to standard error, which Node writes synchronously on Linux, and the two
 * lines were a quarter of the server's CPU under a stream of small GETs (a profile of `serve` under
 * autocannon). Fastify's extension point for its own request lines (LogController).
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

function registerErrorHandlers(app: FastifyInstance, routes: RouteMethods, withDashboard: boolean): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.toBody());
    }
    if (error instanceof DatabaseBusyError) {
      return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).send(errorBody(503, error.message));
    }
    if (cutOff(error, request.raw)) {
      // The client closed the connection while its body was arriving: nothing went wrong here, and no
      // one is left to read an answer. Said at info, not as a server error with a stack.
      request.log.info({ url: request.url }, 'the client closed the connection before its body arrived');
      return reply.code(400).send(errorBody(400, 'The request was cut off before its body arrived'));
    }
    const status = error.statusCode ?? 500;
    // The dashboard's files refuse a path they will not look up ("//", an encoded "..") with a bare 403:
    // no route and no file is there, so it is the not-found answer (a probe).
    if (status === 403 && request.routeOptions.url === '/*') return notFound(request, reply);
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send(errorBody(status, clientErrorMessage(error, request.routeOptions.bodyLimit, request.url)));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(500, 'Something went wrong on the server; nothing was changed'));
  });
  app.setNotFoundHandler((request, reply) => {
    // A GET whose id is past the router's limit fell through to the dashboard's files: it is the 414
    // that the other methods get (a probe: GET /api/locations/<250 characters> said "No route").
    if (tooLongParam(routes, request.method, request.url)) {
      return reply.code(414).send(errorBody(414, tooLongWords(request.url)));
    }
    // A path the API has, asked with a method it does not take there (a walk: PUT to the upload).
    const allowed = routes.allowed(request.url);
    if (allowed.length > 0 && !allowed.includes(request.method))
      return sendWrongMethod(reply, request.method, request.url, allowed);
    if (withDashboard && sendDashboardPage(request, reply)) return reply;
    return notFound(request, reply);
  });
}

/** Whether a path the router did not match would have matched a route but for a parameter past its limit. */
function tooLongParam(routes: RouteMethods, method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  if (!path.split('/').some((part) => part.length > MAX_PARAM_LENGTH)) return false;
  return routes.matchesWithParam(method, path);
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorBody(404, `No route ${request.method} ${shortPath(request.url)}`));
}

/**
 * Node's errors for a request whose connection closed before its body ended: `aborted` as the body is
 * read, ERR_STREAM_PREMATURE_CLOSE where a stream of it was still being read (seen by a probe: an upsert
 * cut off; its exact path was not reproduced in a test).
 */
function cutOff(error: FastifyError, raw: { destroyed: boolean; readableAborted: boolean }): boolean {
  if (error.code === 'ECONNRESET' && error.message === 'aborted') return true;
  // Only when the request itself was cut: a stream of the server's own that closes early is a fault.
  return error.code === 'ERR_STREAM_PREMATURE_CLOSE' && (raw.destroyed || raw.readableAborted);
}

/** An address with an id past the router's limit, in the API's words (the router's 414, and a GET's). */
function tooLongWords(url: string): string {
  return `The address ${shortPath(url)} is too long: an id in it is at most ${MAX_PARAM_LENGTH} characters`;
}

/** Fastify's own 4xx errors, in the API's words. */
function clientErrorMessage(error: FastifyError, bodyLimit: number | undefined, url: string): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return url.startsWith('/api/locations/upload')
        ? 'Send JSON rows (application/json), a CSV file (text/csv) or an .xlsx workbook: the Content-Type must name one'
        : 'Send JSON: the Content-Type must be application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than the limit of ${((bodyLimit ?? JSON_BODY_LIMIT) / 1048576).toFixed(0)} MiB`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body';
    // Fastify's words repeated the whole path, and named its router's limit.
    case 'FST_ERR_BAD_URL':
      return `The address ${shortPath(url)} holds a % that is not followed by two hexadecimal digits (write % as %25)`;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return tooLongWords(url);
    default:
      return error.message;
  }
}
