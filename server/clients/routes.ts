import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../app.js';
import { authorizeWrite } from '../auth/authorize.js';
import { write } from '../db/write.js';
import { Invalid, NotFound } from '../http/errors.js';
import { textOrNull } from '../http/body.js';
import { NEEDS, principalOf, requireAccess } from '../http/guards.js';
import { errors, Page, Success } from '../http/schemas.js';
import { clientById, insertClient, listClients } from './queries.js';
import { Client, ClientParams, CreateClientBody, CreatedClient } from './schemas.js';

// A bare domain (example.com) or an http(s) address (https://www.example.com/shop).
const WEBSITE = /^(https?:\/\/)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?::(\d{1,5}))?([/?#]\S*)?$/i;

export function isWebsite(value: string): boolean {
  const match = WEBSITE.exec(value);
  return match !== null && (match[4] === undefined || Number(match[4]) <= 65535);
}

/** Spec 4.2-4.4: list, create and delete the organization's clients. */
export const clientRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store, clock, writer }) => {
  const db = store.db;

  app.get(
    '/api/clients',
    {
      onRequest: requireAccess(NEEDS.read),
      schema: {
        tags: ['clients'],
        summary: "The organization's clients (a Client Viewer's own client only), by name",
        querystring: Type.Composite([Page], { additionalProperties: false }),
        response: { 200: Type.Array(Client), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.clientId !== null) {
        const own = clientById(db, principal.organizationId, principal.clientId);
        const page = own === undefined || (request.query.offset ?? 0) > 0 ? [] : [own];
        reply.header('x-total-count', own === undefined ? 0 : 1);
        return page;
      }
      const { clients, total } = listClients(db, principal.organizationId, request.query);
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
      const name = request.body.name.trim();
      if (name === '') throw Invalid('name must not be blank', [{ path: '/body/name', message: 'must not be blank' }]);
      const website = textOrNull(request.body.website);
      if (website !== null && !isWebsite(website)) {
        throw Invalid('website must be a domain such as example.com or an http(s) address', [
          { path: '/body/website', message: 'must be a domain such as example.com or an http(s) address' },
        ]);
      }
      const industry = textOrNull(request.body.industry);
      reply.code(201);
      const principal = principalOf(request);
      return write(db, () => {
        authorizeWrite(db, principal, NEEDS.createClient, clock.now());
        return insertClient(db, principal.organizationId, { name, industry, website }, clock.now());
      });
    },
  );

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
      const { deleted } = await writer.write('deleteClient', {
        principal: principalOf(request),
        clientId: request.params.clientId,
        now: clock.now(),
      });
      if (!deleted) throw NotFound('No client with this id');
      return { success: true as const };
    },
  );
};
