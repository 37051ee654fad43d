import { randomBytes } from 'node:crypto';

/**
 * `count` random version-4 UUIDs (RFC 9562), in ascending order. Inserting a batch in id order makes the
 * id index grow at nearby pages instead of random ones. One buffer of random bytes and a numeric sort
 * cost no more than `count` calls of crypto.randomUUID (npm run bench).
 */
export function sortedRandomUuids(count: number): string[] {
  const bytes = randomBytes(16 * count);
  // Sort key: the first 36 random bits of each id and then its index; 36 + 17 bits fit a double exactly.
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const at = 16 * i;
    const top36 =
      bytes[at]! * 2 ** 28 +
      bytes[at + 1]! * 2 ** 20 +
      bytes[at + 2]! * 2 ** 12 +
      bytes[at + 3]! * 16 +
      (bytes[at + 4]! >> 4);
    keys[i] = top36 * 131072 + i;
  }
  keys.sort();
  const ids = new Array<string>(count);
  for (let n = 0; n < count; n++) {
    const at = 16 * (keys[n]! % 131072);
    bytes[at + 6] = (bytes[at + 6]! & 0x0f) | 0x40; // version 4
    bytes[at + 8] = (bytes[at + 8]! & 0x3f) | 0x80; // variant 10
    const hex = bytes.toString('hex', at, at + 16);
    ids[n] = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return ids;
}
