/**
 * Named schemas in the API document (issue 10 §4): the route schemas are inlined by @fastify/swagger, so
 * the error body appeared once per answer and no generated client had a `Client` or `Location` type.
 * Each named schema is taken, already converted, from one answer that has it, and every identical
 * schema in the document becomes a `$ref` to it.
 */
type Node = Record<string, unknown>;

interface Document {
  paths?: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Node }> }> }>
  >;
  components?: Node & { schemas?: Record<string, Node> };
}

/** Where each name is found: path, method, status, and whether it is the array's items. */
const NAMED: [name: string, path: string, method: string, status: string, items?: 'items'][] = [
  ['Error', '/api/clients', 'get', '401'],
  ['Success', '/api/users/{id}', 'delete', '200'],
  ['Session', '/auth/callback', 'post', '200'],
  ['Me', '/api/me', 'get', '200'],
  ['Client', '/api/clients', 'get', '200', 'items'],
  ['Location', '/api/locations', 'get', '200', 'items'],
  ['LocationRecord', '/api/locations/{id}', 'get', '200'],
  ['ImportResult', '/api/locations/upload', 'post', '201'],
  ['DryRunResult', '/api/locations/upload', 'post', '200'],
  ['User', '/api/users', 'get', '200', 'items'],
  ['ApiToken', '/api/tokens', 'get', '200', 'items'],
  ['CreatedApiToken', '/api/tokens', 'post', '201'],
  ['DeviceRequest', '/api/device', 'get', '200', 'items'],
  ['Backup', '/api/backups', 'post', '201'],
];

/** JSON with sorted keys: two schemas are the same when this is. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The key a schema is matched by: its canonical JSON without its own top-level description, which for a
 * response's schema is the response's description ("Conflict: the error body").
 */
function shape(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return canonical(value);
  const { description: _description, ...rest } = value as Node;
  return canonical(rest);
}

function schemaAt(document: Document, [, path, method, status, items]: (typeof NAMED)[number]): Node | undefined {
  const schema = document.paths?.[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
  return items ? (schema?.items as Node | undefined) : schema;
}

/**
 * Every schema identical to a named one, anywhere below `value`, replaced by its $ref. OpenAPI 3.0 has no
 * `additionalItems` (TypeBox writes it for a tuple, such as a day's opening hours): it goes.
 */
function referTo(value: unknown, names: Map<string, string>, inside?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => referTo(item, names, inside));
  if (value === null || typeof value !== 'object') return value;
  const name = names.get(shape(value));
  if (name !== undefined && name !== inside) return { $ref: `#/components/schemas/${name}` };
  return Object.fromEntries(
    Object.entries(value as Node)
      .filter(([key]) => key !== 'additionalItems')
      .map(([key, inner]) => [key, referTo(inner, names, inside)]),
  );
}

export function nameSchemas<T extends Document>(document: T): T {
  const schemas: Record<string, Node> = {};
  const names = new Map<string, string>();
  for (const entry of NAMED) {
    const schema = schemaAt(document, entry);
    if (schema === undefined || names.has(shape(schema))) continue;
    const { description: _description, ...named } = schema;
    schemas[entry[0]] = entry[0] === 'Error' ? { ...named, description: 'Every error the API sends' } : named;
    names.set(shape(schema), entry[0]);
  }
  const named = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, referTo(schema, names, name) as Node]),
  );
  return {
    ...document,
    paths: referTo(document.paths, names) as Document['paths'],
    components: { ...document.components, schemas: { ...document.components?.schemas, ...named } },
  };
}
