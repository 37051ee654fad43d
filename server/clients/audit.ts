import { actorOf, recordEntry } from '../audit/queries.js';
import type { Db } from '../db/open.js';
import type { Principal } from '../http/guards.js';
import type { Client } from './schemas.js';

/** Each field of a client that changed: {field: {from, to}}. */
export function clientChanges(before: Client, after: Client): Record<string, { from: unknown; to: unknown }> | null {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['name', 'industry', 'website'] as const) {
    if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** A client's change in the audit trail, in the change's transaction. */
export function recordClientEntry(
  db: Db,
  principal: Principal,
  action: string,
  client: { id: string; name: string },
  changes: Record<string, { from: unknown; to: unknown }> | null,
  now: number,
): void {
  recordEntry(
    db,
    {
      organizationId: principal.organizationId,
      actor: actorOf(db, principal),
      action,
      target: { type: 'client', id: client.id, name: client.name },
      clientId: client.id,
      changes,
    },
    now,
  );
}
