import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { connectionCache } from '../db/cache.js';
import { isWholeList, nowIso, pageParams, statement, type Page } from '../db/sql.js';
import { principalsChanged } from '../auth/queries.js';
import type { Client } from './schemas.js';

const CLIENT_COLUMNS = 'id, name, industry, website, created_at, locations_count';

/**
 * Each organization's whole client list, kept between requests: it is read on every dashboard page and
 * by scripts, and changes rarely. This connection's client writes clear it; the writer worker's commits
 * (imports change locations_count) clear it through PRAGMA data_version.
 */
const wholeLists = (db: Db) => connectionCache<string, Client[]>(db, 'client lists');

export function clientsChanged(db: Db): void {
  wholeLists(db).clear();
}

/** Ordered by name, case-insensitively, then id: a stable order for paging (README: "Clients"). */
export function listClients(db: Db, organizationId: string, page: Page): { clients: Client[]; total: number } {
  if (!isWholeList(page)) {
    return { clients: selectClients(db, organizationId, page), total: countClients(db, organizationId) };
  }
  const cache = wholeLists(db);
  let clients = cache.get(organizationId);
  if (clients === undefined) {
    clients = selectClients(db, organizationId, page);
    cache.set(organizationId, clients);
  }
  return { clients, total: clients.length };
}

function selectClients(db: Db, organizationId: string, page: Page): Client[] {
  return statement<[string, number, number], Client>(
    db,
    `SELECT ${CLIENT_COLUMNS} FROM clients WHERE organization_id = ?
     ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`,
  ).all(organizationId, ...pageParams(page));
}

export function countClients(db: Db, organizationId: string): number {
  return statement<[string], { n: number }>(db, 'SELECT count(*) AS n FROM clients WHERE organization_id = ?').get(
    organizationId,
  )!.n;
}

export function clientName(db: Db, id: string): string | null {
  return statement<[string], string>(db, 'SELECT name FROM clients WHERE id = ?').pluck().get(id) ?? null;
}

export function clientById(db: Db, organizationId: string, id: string): Client | undefined {
  return statement<[string, string], Client>(
    db,
    `SELECT ${CLIENT_COLUMNS} FROM clients WHERE organization_id = ? AND id = ?`,
  ).get(organizationId, id);
}

export interface NewClient {
  name: string;
  industry: string | null;
  website: string | null;
}

export function insertClient(
  db: Db,
  organizationId: string,
  client: NewClient,
  now: number,
): { id: string; name: string } {
  const id = randomUUID();
  statement(
    db,
    'INSERT INTO clients (id, organization_id, name, industry, website, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(id, organizationId, client.name, client.industry, client.website, nowIso(now));
  clientsChanged(db);
  return { id, name: client.name };
}

/** Writes a client's name, industry and website (the store reads it first: it must be the organization's). */
export function updateClient(db: Db, id: string, client: NewClient): void {
  statement(db, 'UPDATE clients SET name = ?, industry = ?, website = ? WHERE id = ?').run(
    client.name,
    client.industry,
    client.website,
    id,
  );
  clientsChanged(db);
}

/**
 * Removes the client; the schema's ON DELETE CASCADE removes its locations and its Client Viewer
 * accounts with their sessions in the same statement, so their tokens stop working at once.
 */
export function deleteClient(db: Db, organizationId: string, id: string): boolean {
  const deleted =
    statement(db, 'DELETE FROM clients WHERE organization_id = ? AND id = ?').run(organizationId, id).changes === 1;
  if (deleted) {
    clientsChanged(db);
    // Its Client Viewers and their sessions went with it.
    principalsChanged(db);
  }
  return deleted;
}
