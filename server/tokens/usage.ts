import type { Db } from '../db/open.js';
import { PerConnection } from '../db/sql.js';
import { write } from '../db/write.js';
import { touchApiToken } from './queries.js';

// A token's last use is exact to the minute: more often would be a write per request.
const USE_RESOLUTION_MS = 60_000;

/** When each token's use was last written, per connection. */
const lastWritten = new PerConnection<number>();

/**
 * Notes that a token was used. The write happens after the request has moved on (setImmediate) and at
 * most once a minute per token, so a script's GET never waits for a write lock; a lost note (the
 * database busy for 15 s, the server stopping) costs only a less exact last use.
 */
export function recordTokenUse(db: Db, tokenId: string, now: number): void {
  const written = lastWritten.of(db);
  const last = written.get(tokenId);
  if (last !== undefined && now - last < USE_RESOLUTION_MS && now >= last) return;
  written.set(tokenId, now);
  setImmediate(() => {
    if (!db.open) return;
    write(db, () => touchApiToken(db, tokenId, now)).catch(() => undefined);
  });
}

/** The tokens with their last use as recorded, including a note whose write has not happened yet. */
export function withRecordedUse<T extends { id: string; last_used_at: string | null }>(db: Db, tokens: T[]): T[] {
  const written = lastWritten.of(db);
  return tokens.map((token) => {
    const noted = written.get(token.id);
    if (noted === undefined || (token.last_used_at !== null && Date.parse(token.last_used_at) >= noted)) return token;
    return { ...token, last_used_at: new Date(noted).toISOString() };
  });
}
