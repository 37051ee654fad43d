import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.js';
import { nowIso, statement } from '../db/sql.js';
import type { CreateMappingBody, Mapping, MappingOptions } from './schemas.js';

interface MappingRow {
  id: string;
  client_id: string | null;
  name: string;
  header_key: string;
  columns: string;
  options: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

const COLUMNS = 'id, client_id, name, header_key, columns, options, created_at, updated_at, last_used_at';

function rowToMapping(row: MappingRow): Mapping {
  return {
    ...row,
    columns: JSON.parse(row.columns) as Mapping['columns'],
    options: JSON.parse(row.options) as MappingOptions,
  };
}

/**
 * The organization's mappings: of one client and the shared ones (clientId given), or all of them
 * (null); only those for one header set when `headerKey` is given. Newest use first.
 */
export function listMappings(
  db: Db,
  organizationId: string,
  clientId: string | null,
  headerKey: string | undefined,
): Mapping[] {
  const byHeaders = headerKey !== undefined;
  const sql =
    `SELECT ${COLUMNS} FROM mappings WHERE organization_id = ?` +
    (byHeaders ? ' AND header_key = ?' : '') +
    (clientId !== null ? ' AND (client_id = ? OR client_id IS NULL)' : '') +
    ' ORDER BY coalesce(last_used_at, updated_at) DESC, id';
  const params = [organizationId, ...(byHeaders ? [headerKey] : []), ...(clientId !== null ? [clientId] : [])];
  return statement<unknown[], MappingRow>(db, sql)
    .all(...params)
    .map(rowToMapping);
}

export function mappingById(db: Db, organizationId: string, id: string): Mapping | undefined {
  const row = statement<[string, string], MappingRow>(
    db,
    `SELECT ${COLUMNS} FROM mappings WHERE id = ? AND organization_id = ?`,
  ).get(id, organizationId);
  return row === undefined ? undefined : rowToMapping(row);
}

export function insertMapping(
  db: Db,
  organizationId: string,
  body: CreateMappingBody & { header_key: string },
  now: number,
): Mapping {
  const id = randomUUID();
  const at = nowIso(now);
  statement(db, `INSERT INTO mappings (${COLUMNS}, organization_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`).run(
    id,
    body.client_id,
    body.name.trim(),
    body.header_key,
    JSON.stringify(body.columns),
    JSON.stringify(body.options ?? {}),
    at,
    at,
    organizationId,
  );
  return mappingById(db, organizationId, id)!;
}

export function updateMapping(db: Db, mapping: Mapping, now: number): void {
  statement(
    db,
    'UPDATE mappings SET name = ?, header_key = ?, columns = ?, options = ?, updated_at = ? WHERE id = ?',
  ).run(
    mapping.name,
    mapping.header_key,
    JSON.stringify(mapping.columns),
    JSON.stringify(mapping.options),
    nowIso(now),
    mapping.id,
  );
}

export function markMappingUsed(db: Db, id: string, now: number): void {
  statement(db, 'UPDATE mappings SET last_used_at = ? WHERE id = ?').run(nowIso(now), id);
}

export function deleteMapping(db: Db, id: string): void {
  statement(db, 'DELETE FROM mappings WHERE id = ?').run(id);
}
