import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { Invalid, nameOrRefusal, NotFound } from '../http/errors.js';
import { textOrNull } from '../http/body.js';
import { canSeeClient, NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Page, Success } from '../http/schemas.js';
import { isWebsite, WEBSITE_WORDS } from '../locations/website.js';
import { Client, ClientParams, CreateClientBody, CreatedClient, UpdateClientBody } from './schemas.js';

/** Spec 4.2-4.4: list, create and delete the organization's clients. */
export const clientRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, context) => {
  await app.register(clientListRoutes, context);
  await app.register(clientDeleteRoutes, context);
};

/** The organization's clients listed and added. */
const clientListRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  app.get(
    '/api/clients',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['clients'],
        summary: "The organization's clients (a Client Viewer's own client only), by name",
        querystring: Type.Composite(
          [
            Page,
            Type.Object({
              name: Type.Optional(
                Type.String({
                  maxLength: 200,
                  description: 'Only the client of exactly this name, in any case (a script checks before it creates)',
                }),
              ),
            }),
          ],
          { additionalProperties: false },
        ),
        response: { 200: Type.Array(Client), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (request.query.name !== undefined) {
        const wanted = request.query.name.trim().toLowerCase();
        const named = (await data.clients.list(principal.organizationId, {})).clients.filter(
          (client) => client.name.toLowerCase() === wanted && canSeeClient(principal, client.id),
        );
        reply.header('x-total-count', named.length);
        return named;
      }
      if (principal.clientId !== null) {
        const own = await data.clients.byId(principal.organizationId, principal.clientId);
        const page = own === undefined || (request.query.offset ?? 0) > 0 ? [] : [own];
        reply.header('x-total-count', own === undefined ? 0 : 1);
        return page;
      }
      const { clients, total } = await data.clients.list(principal.organizationId, request.query);
      reply.header('x-total-count', total);
      return clients;
    },
  );

  app.post(
    '/api/clients',
    {
      onRequest: requireAccess(NEEDS.createClient),
      schema: {
        tags: ['clients'],
        summary: 'Create a client (Admin)',
        body: CreateClientBody,
        response: { 201: CreatedClient, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { name = '', industry = null, website = null } = clientFields(request.body);
      reply.code(201);
      return data.clients.create(principalOf(request), { name, industry, website }, clock.now());
    },
  );
};

/** A client deleted, with its locations and Client Viewers, on the writer thread (Admin). */
const clientDeleteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { clock, data }) => {
  app.delete(
    '/api/clients/:clientId',
    {
      onRequest: requireAccess(NEEDS.clients),
      schema: {
        tags: ['clients'],
        summary: 'Delete a client with its locations and Client Viewer accounts, permanently (Admin)',
        params: ClientParams,
        response: { 200: Success, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      // A client with 100,000 locations takes a second or two to delete: the writer thread does it.
      const { deleted } = await data.clients.delete(principalOf(request), request.params.clientId, clock.now());
      if (!deleted) throw NotFound('No client with this id');
      return { success: true as const };
    },
  );
};

/** A client's fields as sent: the name not blank, the website a domain or an http(s) address. */
function clientFields(body: { name?: string; industry?: string | null; website?: string | null }) {
  const fields: { name?: string; industry?: string | null; website?: string | null } = {};
  if (body.name !== undefined) {
    fields.name = nameOrRefusal(body.name, 'name');
  }
  if (body.website !== undefined) {
    fields.website = textOrNull(body.website);
    if (fields.website !== null && !isWebsite(fields.website)) {
      throw Invalid(`website ${WEBSITE_WORDS}`, [{ path: '/body/website', message: WEBSITE_WORDS }]);
    }
  }
  if (body.industry !== undefined) fields.industry = textOrNull(body.industry);
  return fields;
}

/** Issue 9 §2: one client, read and edited. */
export const clientEditRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { data, clock }) => {
  app.get(
    '/api/clients/:clientId',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['clients'],
        summary: 'One client',
        params: ClientParams,
        response: { 200: Client, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const client = await data.clients.byId(principalOf(request).organizationId, request.params.clientId);
      if (client === undefined) throw NotFound('No client with this id');
      return client;
    },
  );

  app.patch(
    '/api/clients/:clientId',
    {
      onRequest: requireAccess(NEEDS.clients),
      schema: {
        tags: ['clients'],
        summary: "Change a client's name, industry or website (Admin)",
        params: ClientParams,
        body: UpdateClientBody,
        response: { 200: Client, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const fields = clientFields(request.body);
      return data.clients.update(principalOf(request), request.params.clientId, fields, clock.now());
    },
  );
};
