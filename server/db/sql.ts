import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Static } from '@sinclair/typebox';
import type { Page as PageSchema } from '../http/schemas.js';
import type { Db } from './open.js';

const statements = new WeakMap<Db, Map<string, Statement>>();

/** A statement prepared once per connection and reused: every query of the app goes through here. */
export function statement<Params extends unknown[] = unknown[], Row = unknown>(
  db: Db,
  sql: string,
): Statement<Params, Row> {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared as unknown as Statement<Params, Row>;
}

/** Every statement this connection has prepared through statement(): for the query-plan test. */
export function preparedSql(db: Db): string[] {
  return [...(statements.get(db)?.keys() ?? [])];
}

export type Page = Static<typeof PageSchema>;

/** LIMIT and OFFSET for a page; SQLite reads LIMIT -1 as "no limit". */
export function pageParams(page: Page): [number, number] {
  return [page.limit ?? -1, page.offset ?? 0];
}

export function nowIso(clockNow: number): string {
  return new Date(clockNow).toISOString();
}
