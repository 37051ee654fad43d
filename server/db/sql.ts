import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './open.js';

/** Things kept beside each connection by name (its statements, its caches), gone with the connection. */
export class PerConnection<V> {
  private readonly byConnection = new WeakMap<Db, Map<string, V>>();

  of(db: Db): Map<string, V> {
    let kept = this.byConnection.get(db);
    if (kept === undefined) {
      kept = new Map();
      this.byConnection.set(db, kept);
    }
    return kept;
  }
}

const statements = new PerConnection<Statement>();

/** A statement prepared once per connection and reused: every query of the app goes through here. */
export function statement<Params extends unknown[] = unknown[], Row = unknown>(
  db: Db,
  sql: string,
): Statement<Params, Row> {
  const cache = statements.of(db);
  let prepared = cache.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared as unknown as Statement<Params, Row>;
}

/** Every statement this connection has prepared through statement(): for the query-plan test. */
export function preparedSql(db: Db): string[] {
  return [...statements.of(db).keys()];
}

/** A page of a list: at most `limit` rows after the first `offset` (http/schemas.ts's Page validates them). */
export interface Page {
  limit?: number | undefined;
  offset?: number | undefined;
}

/** No limit and no offset: the whole list, which the server caches or streams. */
export function isWholeList(page: Page): boolean {
  return page.limit === undefined && !page.offset;
}

/** LIMIT and OFFSET for a page; SQLite reads LIMIT -1 as "no limit". */
export function pageParams(page: Page): [number, number] {
  return [page.limit ?? -1, page.offset ?? 0];
}

export function nowIso(clockNow: number): string {
  return new Date(clockNow).toISOString();
}
