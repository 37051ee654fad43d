import type { Db } from './open.js';
import { PerConnection, statement } from './sql.js';

/**
 * A map kept beside a connection, for answers read on every request. It forgets everything when another
 * connection commits (PRAGMA data_version changes: the writer worker, the CLI) and when this connection's
 * own writes call clear().
 */
export class ConnectionCache<K, V> {
  private readonly entries = new Map<K, V>();
  private version = -1;

  constructor(
    private readonly db: Db,
    private readonly limit = 10_000,
  ) {}

  get(key: K): V | undefined {
    const version = statement<[], number>(this.db, 'PRAGMA data_version').pluck().get()!;
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

const caches = new PerConnection<ConnectionCache<unknown, unknown>>();

/** The connection's cache of that name, made on first use. */
export function connectionCache<K, V>(db: Db, name: string): ConnectionCache<K, V> {
  let cache = caches.of(db).get(name);
  if (cache === undefined) {
    cache = new ConnectionCache(db);
    caches.of(db).set(name, cache);
  }
  return cache as ConnectionCache<K, V>;
}
