import xxhash from 'xxhash-wasm';

/**
 * The keys an import matches a row on (README: "Import rules"), as the indexed integers the database
 * stores: a location's place id, and its folded name and address (matchKey), each hashed within its
 * client. 21 bits of the client's hash and 32 of the key's make a safe integer (53 bits) that SQLite
 * stores in 8 bytes: an index entry of some 13 bytes, where the texts with the client's id took 70 to
 * 100 (npm run bench: an import's pages). The client's bits come first, so that a client's keys lie
 * together in the index and an import into one client touches only its own part.
 *
 * A hash is no proof: two keys may share one (about one pair in a client of 100,000 locations). A key's
 * hash finds the candidates in SQL, and each is then compared with the key itself (locations/queries.ts,
 * locationsByKey): a match is never a false one.
 *
 * XXH32 (seed 0) of the UTF-8 text, from xxhash-wasm: a standard hash, so that the stored values can be
 * recomputed by any implementation of it (a PostgreSQL store, a script).
 */
const { h32 } = await xxhash();

const KEY_SPAN = 2 ** 32;
const CLIENT_BITS = 0x1f_ffff;

/** The part of every key of a client: its first 21 bits. */
export function clientKeyBase(clientId: string): number {
  return (h32(clientId) & CLIENT_BITS) * KEY_SPAN;
}

/** A key's indexed integer within its client (clientKeyBase). */
export function keyHash(base: number, key: string): number {
  return base + h32(key);
}
