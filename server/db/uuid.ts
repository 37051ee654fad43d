import { randomBytes } from 'node:crypto';

const HEX = Buffer.from('0123456789abcdef', 'latin1');
const UUID_LENGTH = 36;

/**
 * `count` random version-4 UUIDs (RFC 9562), handed out in ascending order. Inserting a batch in id
 * order makes the id index grow at nearby pages instead of random ones. The ids are drawn and sorted up
 * front (one buffer of random bytes, one numeric sort) and written as text only when taken, a few
 * thousand at a time: an import's first rows need not wait for the text of its last ids.
 */
export class SortedUuids {
  private readonly bytes: Buffer;
  /** Each id's first 36 random bits and then its index, ascending: 36 + 17 bits fit a double exactly. */
  private readonly order: Float64Array;
  private next = 0;

  constructor(readonly count: number) {
    if (count > 131_072) throw new RangeError('SortedUuids: at most 131,072 ids at a time');
    this.bytes = randomBytes(16 * count);
    const bytes = this.bytes;
    this.order = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const at = 16 * i;
      const top36 =
        bytes[at]! * 2 ** 28 +
        bytes[at + 1]! * 2 ** 20 +
        bytes[at + 2]! * 2 ** 12 +
        bytes[at + 3]! * 16 +
        (bytes[at + 4]! >> 4);
      this.order[i] = top36 * 131072 + i;
    }
    this.order.sort();
  }

  /** The next `wanted` ids (fewer at the end), written into one string and sliced from it. */
  take(wanted: number): string[] {
    const n = Math.min(wanted, this.count - this.next);
    const text = Buffer.allocUnsafe(n * UUID_LENGTH);
    const { bytes } = this;
    for (let k = 0; k < n; k++) {
      const at = 16 * (this.order[this.next + k]! % 131072);
      bytes[at + 6] = (bytes[at + 6]! & 0x0f) | 0x40; // version 4
      bytes[at + 8] = (bytes[at + 8]! & 0x3f) | 0x80; // variant 10
      let out = k * UUID_LENGTH;
      for (let b = 0; b < 16; b++) {
        if (b === 4 || b === 6 || b === 8 || b === 10) text[out++] = 0x2d; // '-'
        const byte = bytes[at + b]!;
        text[out++] = HEX[byte >> 4]!;
        text[out++] = HEX[byte & 15]!;
      }
    }
    this.next += n;
    const all = text.toString('latin1');
    const ids = new Array<string>(n);
    for (let k = 0; k < n; k++) ids[k] = all.slice(k * UUID_LENGTH, (k + 1) * UUID_LENGTH);
    return ids;
  }
}
