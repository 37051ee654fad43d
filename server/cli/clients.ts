import { listClients, insertClient } from '../clients/queries.js';
import { isWebsite, WEBSITE_WORDS } from '../locations/website.js';
import { CreateClientBody } from '../clients/schemas.js';
import { write } from '../db/write.js';
import { textOrNull } from '../http/body.js';
import { bodyErrors, detailsInWords } from '../http/validation.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { cliActor, theOrganization, withStore } from './store.js';
import { recordEntry } from '../audit/queries.js';
import { printTable } from './table.js';
import { isBlank } from '../http/control-characters.js';

/** The same rules as POST /api/clients (README: "Clients"). */
function newClient(options: Record<string, string | boolean | undefined>) {
  const body = Object.fromEntries(
    ['name', 'industry', 'website'].filter((name) => options[name] !== undefined).map((name) => [name, options[name]]),
  );
  const details = bodyErrors(CreateClientBody, body);
  if (details.length > 0) throw new UsageError(detailsInWords(details));
  const name = (options.name as string).trim();
  if (isBlank(name)) throw new UsageError('--name must not be blank');
  const website = textOrNull(options.website as string | undefined);
  if (website !== null && !isWebsite(website)) {
    throw new UsageError(`--website ${WEBSITE_WORDS}`);
  }
  return { name, industry: textOrNull(options.industry as string | undefined), website };
}

export const clientAdd: Command = {
  name: 'client add',
  summary: 'create a client; prints its id (for "user add --client")',
  options: {
    name: { type: 'string', value: 'NAME', description: 'client or brand name', required: true },
    industry: { type: 'string', value: 'TEXT', description: 'industry' },
    website: { type: 'string', value: 'URL', description: 'a domain (example.com) or an http(s) address' },
  },
  async run({ options, config }) {
    const client = newClient(options);
    await withStore(config(), async (store) => {
      const organizationId = theOrganization(store);
      const created = await write(store.db, () => {
        const now = Date.now();
        const inserted = insertClient(store.db, organizationId, client, now);
        recordEntry(
          store.db,
          {
            organizationId,
            actor: cliActor(),
            action: 'client.created',
            target: { type: 'client', id: inserted.id, name: inserted.name },
            clientId: inserted.id,
          },
          now,
        );
        return inserted;
      });
      // The id alone on standard output, so that CLIENT=$(agency-desk client add ...) works.
      console.error(`Created the client "${created.name}"`);
      console.log(created.id);
    });
  },
};

export const clientList: Command = {
  name: 'client list',
  summary: "list the organization's clients with their ids",
  options: { json: { type: 'boolean', description: 'print JSON, as GET /api/clients answers' } },
  async run({ options, config }) {
    await withStore(config(), (store) => {
      const { clients } = listClients(store.db, theOrganization(store), {});
      if (options.json) return console.log(JSON.stringify(clients, null, 2));
      printTable(
        ['ID', 'NAME', 'LOCATIONS'],
        clients.map((client) => [client.id, client.name, String(client.locations_count)]),
      );
    });
  },
};
