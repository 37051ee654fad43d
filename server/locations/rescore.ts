import type { Db } from '../db/open.js';
import { statement } from '../db/sql.js';
import { recordEntry, systemActor } from '../audit/queries.js';
import type { LocationValues } from './fields.js';
import { setDerived, storedLocationsPage } from './queries.js';
import { derived, RULE_VERSION } from './record.js';

const PAGE = 5_000;

/** The trail's action of a rescore: an undo across it works out again what it puts back (rulesChangedSince). */
export const RESCORED = 'locations.rescored';

/**
 * Brings locations stored under older rules (the health score and its notes, the match key) up to the
 * current ones: once after an upgrade (migration 0002 leaves existing rows at version 0), in one
 * transaction, before the server answers anything. Only what the rules derive is written: the fields,
 * updated_at and the revision stay, so that an undo made before the upgrade still finds each location as
 * its operation left it. Each client gets one entry in its History (Agency Desk's own), which is also what
 * tells such an undo that the values it puts back were derived under older rules.
 */
export function rescoreLocations(db: Db, now = Date.now()): void {
  const applied = statement<[], number>(db, "SELECT version FROM rule_versions WHERE feature = 'locations'")
    .pluck()
    .get();
  if (applied === undefined || applied >= RULE_VERSION) return;
  db.transaction(() => {
    const changed = new Map<string, number>();
    for (let after = 0; ;) {
      const page = storedLocationsPage(db, after, PAGE);
      if (page.length === 0) break;
      after = page.at(-1)!.rid;
      for (const location of page) {
        const { id, client_id, health_score: _score, health_status: _status, rid: _rid, ...values } = location;
        if (setDerived(db, id, derived(values as LocationValues, client_id))) {
          changed.set(client_id, (changed.get(client_id) ?? 0) + 1);
        }
      }
    }
    recordRescores(db, changed, now);
    statement(db, "UPDATE rule_versions SET version = ? WHERE feature = 'locations'").run(RULE_VERSION);
  })();
}

/**
 * One entry for each client, in its History: how many of its locations' scores or keys the new rules
 * changed (none, too: the entry also tells an undo that the rules changed since, rulesChangedSince).
 */
function recordRescores(db: Db, changedByClient: Map<string, number>, now: number): void {
  const clients = statement<[], { id: string; organization_id: string; name: string }>(
    db,
    'SELECT id, organization_id, name FROM clients',
  ).all();
  for (const client of clients) {
    recordEntry(
      db,
      {
        organizationId: client.organization_id,
        actor: systemActor('Agency Desk'),
        action: RESCORED,
        target: { type: 'client', id: client.id, name: client.name },
        clientId: client.id,
        summary: { rules: RULE_VERSION, count: changedByClient.get(client.id) ?? 0 },
      },
      now,
    );
  }
}

/**
 * Whether the rules changed after the trail's place `since`: values kept before then were derived under
 * older ones. Asked of the operation's client's entries (each client has one of every rescore), or of the
 * organization's for an operation over several clients.
 */
export function rulesChangedSince(db: Db, scope: { organizationId: string; clientId: string | null }, since: number) {
  const [column, id] =
    scope.clientId === null ? ['organization_id', scope.organizationId] : ['client_id', scope.clientId];
  return (
    statement<[string, string, number], number>(
      db,
      `SELECT EXISTS (SELECT 1 FROM audit_entries WHERE ${column} = ? AND action = ? AND seq > ?)`,
    )
      .pluck()
      .get(id, RESCORED, since) === 1
  );
}
