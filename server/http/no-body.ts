import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { Invalid } from './errors.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A route that reads no body refuses one (400 naming its fields) instead of ignoring it: POST
 * /api/operations/:id/undo with `{"dryRun": true}` would otherwise undo, as if the script had not asked
 * for a dry run, and POST /api/backups with `{"label": …}` would make a backup without the label. No
 * body, an empty body, `null` and `{}` are no body. Registered before the routes (onRoute sees only
 * the routes added after it).
 */
export function registerNoBodyRule(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema?.body !== undefined) return;
    if (![route.method].flat().some((method) => BODY_METHODS.has(method))) return;
    const queryNames = propertyNames(route.schema?.querystring);
    const refuse = async (request: FastifyRequest) => refuseBody(request, queryNames);
    route.preValidation = [...[route.preValidation ?? []].flat(), refuse] as RouteOptions['preValidation'];
  });
}

function refuseBody(request: FastifyRequest, queryNames: ReadonlySet<string>): void {
  const { body } = request;
  if (body === undefined || body === null) return;
  const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : null;
  if (fields?.length === 0) return;
  const route = `${request.method} ${request.url.split('?')[0]}`;
  if (fields === null) throw Invalid(`${route} takes no body: nothing was done`);
  const inQuery = fields.filter((field) => queryNames.has(field)).slice(0, 5);
  const verb = inQuery.length === 1 ? 'goes' : 'go';
  const hint = inQuery.length === 0 ? '' : ` ${inQuery.join(', ')} ${verb} in the query string (?${inQuery[0]}=…).`;
  const named = fields.slice(0, 5).join(', ') + (fields.length > 5 ? ` and ${fields.length - 5} more` : '');
  throw Invalid(`${route} takes no body, and this one has ${named}: nothing was done.${hint}`);
}

function propertyNames(schema: unknown): ReadonlySet<string> {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return new Set(Object.keys(properties ?? {}));
}
