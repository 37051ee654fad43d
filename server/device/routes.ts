import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { makeAuthenticate } from '../auth/session.js';
import type { Client } from '../clients/schemas.js';
import type { DataStore } from '../store/store.js';
import { HttpError, Invalid, nameOrRefusal, NotFound, TooManyRequests } from '../http/errors.js';
import { canSeeClient, NEEDS, principalOf, requireAccess, type Principal } from '../http/guards.js';
import { errors, Success } from '../http/schemas.js';
import { parseScopes, ROLE_SCOPES, scopesInWords, scopeString } from '../tokens/scopes.js';
import { DeviceRequests, type DeviceRequest } from './requests.js';
import {
  DEVICE_GRANT_TYPE,
  DeviceAccessToken,
  DeviceAuthorization,
  DeviceAuthorizationBody,
  DeviceTokenBody,
  OAuthError,
  PendingDeviceRequest,
  UserCodeBody,
} from './schemas.js';

// The two OAuth endpoints take small bodies only (issue 13: unauthenticated routes hold little memory).
const OAUTH_BODY_LIMIT = 4096;
// ... in JSON or in OAuth's form encoding (the parser below), as the OpenAPI document says.
const OAUTH_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

function oauthError(reply: FastifyReply, error: OAuthError['error'], description: string): OAuthError {
  reply.code(400);
  return { error, error_description: description };
}

/** RFC 6749 §5.2 on the token endpoint: every refused request is a 400 with an OAuth error code. */
function oauthErrorHandler(error: FastifyError | HttpError, _request: unknown, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status >= 500) throw error;
  return reply.code(400).send({ error: 'invalid_request', error_description: error.message });
}

/** What a person may approve: scopes its role allows, on a client it sees. */
async function mayApprove(data: DataStore, principal: Principal, request: DeviceRequest): Promise<boolean> {
  if (!request.scopes.every((scope) => ROLE_SCOPES[principal.role].includes(scope))) return false;
  if (request.clientId === null) return true;
  return (
    (await data.clients.byId(principal.organizationId, request.clientId)) !== undefined &&
    canSeeClient(principal, request.clientId)
  );
}

async function clientOf(data: DataStore, principal: Principal, request: DeviceRequest) {
  return request.clientId === null ? undefined : data.clients.byId(principal.organizationId, request.clientId);
}

function shown(client: Client | undefined, principal: Principal, request: DeviceRequest): PendingDeviceRequest {
  const where = client !== undefined ? client.name : principal.clientId !== null ? 'your client' : 'all clients';
  return {
    user_code: request.userCode,
    client_name: request.clientName,
    scopes: request.scopes,
    client: client === undefined ? null : { id: client.id, name: client.name },
    description: `A script called "${request.clientName}" asks to ${scopesInWords(request.scopes)} on ${where}`,
    created_at: new Date(request.createdAt).toISOString(),
    expires_at: new Date(request.expiresAt).toISOString(),
  };
}

/** Issue 10, section 2: a script asks, a person approves (OAuth 2.0 device authorization grant, RFC 8628). */
/** What each answer of a poll before approval says (RFC 8628 §3.5). */
const POLL_WORDS: Partial<Record<string, string>> = {
  authorization_pending: 'Waiting for a person to approve the request in Agency Desk',
  slow_down: 'Polling too fast: wait 5 more seconds between polls',
  access_denied: 'The request was denied',
  expired_token: 'The request expired: ask again',
};

export const deviceRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  const { clock, data } = context;
  const requests = new DeviceRequests(clock);

  // OAuth clients send forms (RFC 6749 §4.1.3); scripts written against this API send JSON. Both, here only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    '/auth/device',
    {
      bodyLimit: OAUTH_BODY_LIMIT,
      schema: {
        tags: ['device'],
        summary: 'A script asks for an API token; a signed-in person approves it in the dashboard (RFC 8628)',
        body: DeviceAuthorizationBody,
        consumes: OAUTH_BODY_TYPES,
        response: { 200: DeviceAuthorization, ...errors(400, 415, 429) },
      },
    },
    async (request) => {
      const { clientName, scopes } = checkedRequest(request.body);
      // A request for no client could never be approved (no one sees it): the script is told now.
      const { clientId } = request.body;
      if (clientId != null && !(await data.clients.exists(clientId))) {
        throw Invalid('clientId names no client: ask your Admin for the id of the client the script is for', [
          { path: '/body/clientId', message: 'names no client' },
        ]);
      }
      const made = requests.create({ clientName, scopes, clientId: clientId ?? null });
      if (made.kind === 'flooded') {
        throw TooManyRequests(
          'Too many device requests are waiting: approve or deny them, or try later',
          made.retryAfterSeconds,
        );
      }
      const base = `http://${request.headers.host}/device`;
      return {
        device_code: made.deviceCode,
        user_code: made.request.userCode,
        verification_uri: base,
        verification_uri_complete: `${base}?user_code=${made.request.userCode}`,
        expires_in: Math.round((made.request.expiresAt - made.request.createdAt) / 1000),
        interval: made.request.interval,
      };
    },
  );

  app.post(
    '/auth/token',
    {
      bodyLimit: OAUTH_BODY_LIMIT,
      errorHandler: oauthErrorHandler,
      schema: {
        tags: ['device'],
        summary: 'Poll for the token of a device request (RFC 8628 §3.4, answers as §3.5 and RFC 6749 §5)',
        body: DeviceTokenBody,
        consumes: OAUTH_BODY_TYPES,
        response: { 200: DeviceAccessToken, 400: OAuthError },
      },
    },
    async (request, reply) => {
      if (request.body.grant_type !== DEVICE_GRANT_TYPE) {
        return oauthError(reply, 'unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE}`);
      }
      const code = request.body.device_code;
      if (code === undefined) return oauthError(reply, 'invalid_request', 'device_code is required');
      const outcome = requests.poll(code);
      if (outcome.kind !== 'approved') {
        const words = POLL_WORDS[outcome.kind];
        if (words === undefined) return oauthError(reply, 'invalid_grant', 'This device code is not valid');
        return oauthError(reply, outcome.kind, words);
      }
      // Once: a second poll, even one already under way, finds the code used.
      requests.finish(outcome.request);
      const { request: asked } = outcome;
      const grant = { name: asked.clientName, scopes: asked.scopes, clientId: asked.clientId };
      const created = await data.devices.grantApproved(outcome.approver.userId, grant, clock.now());
      if (created === undefined) return oauthError(reply, 'access_denied', 'The approver can no longer grant this');
      const { token, scopes, client_id } = created;
      return { access_token: token, token_type: 'bearer' as const, scope: scopeString(scopes), client_id };
    },
  );

  await app.register(approvalRoutes(requests), context);
};

/** The dashboard's side (signed in): the requests waiting for the caller, approved or denied. */
function approvalRoutes(requests: DeviceRequests): FastifyPluginAsyncTypebox<AppContext> {
  return async (plugin, context) => {
    const { clock, data } = context;
    const api = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // The dashboard's routes take JSON only, as every /api route.
    api.removeContentTypeParser('application/x-www-form-urlencoded');
    api.addHook('onRequest', makeAuthenticate(context));
    api.addHook('onRequest', requireAccess(NEEDS.ownTokens));

    api.get(
      '/api/device',
      {
        schema: {
          tags: ['device'],
          summary: 'Device requests waiting for the caller to approve or deny, oldest first',
          querystring: Type.Object(
            { user_code: Type.Optional(Type.String({ maxLength: 20 })) },
            { additionalProperties: false },
          ),
          response: { 200: Type.Array(PendingDeviceRequest), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const wanted = request.query.user_code;
        const pending =
          wanted === undefined
            ? requests.pending()
            : [requests.pendingByUserCode(wanted)].filter((r) => r !== undefined);
        const shownOnes: PendingDeviceRequest[] = [];
        for (const asked of pending) {
          if (await mayApprove(data, principal, asked))
            shownOnes.push(shown(await clientOf(data, principal, asked), principal, asked));
        }
        return shownOnes;
      },
    );

    for (const decision of ['approve', 'deny'] as const) {
      api.post(
        `/api/device/${decision}`,
        {
          schema: {
            tags: ['device'],
            summary:
              decision === 'approve'
                ? 'Approve a device request: the script gets an API token of the caller'
                : 'Deny a device request: the script gets access_denied',
            body: UserCodeBody,
            response: { 200: Success, ...errors(400, 401, 403, 404) },
          },
        },
        async (request) => {
          const principal = principalOf(request);
          const asked = requests.pendingByUserCode(request.body.user_code);
          if (asked === undefined || !(await mayApprove(data, principal, asked))) {
            throw NotFound('No device request waiting with this code: it may have expired or been answered');
          }
          const grant = { name: asked.clientName, scopes: asked.scopes, clientId: asked.clientId };
          await data.devices.checkApprover(principal, decision === 'approve' ? grant : null, clock.now());
          if (decision === 'deny') requests.deny(asked);
          else requests.approve(asked, { userId: principal.userId });
          return { success: true as const };
        },
      );
    }
  };
}

/** A script's device request, its scope and name checked: what the approval would refuse is refused now. */
function checkedRequest(body: { scope: string; client_name: string; clientId?: string | null }) {
  const scopes = parseScopes(body.scope);
  if (scopes === undefined || scopes.length === 0) {
    throw Invalid('scope must name one or more of read, import, clients, admin, separated by spaces', [
      { path: '/body/scope', message: 'must be space-separated scopes: read import clients admin' },
    ]);
  }
  if (body.clientId != null && scopes.includes('admin')) {
    throw Invalid('A token limited to one client cannot have the admin scope', [
      { path: '/body/scope', message: 'admin is for the whole organization: leave out clientId, or the admin scope' },
    ]);
  }
  return { clientName: nameOrRefusal(body.client_name, 'client_name'), scopes };
}
