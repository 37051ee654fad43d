import { randomBytes } from 'node:crypto';

const HEX = Buffer.from('0123456789abcdef', 'latin1');
const UUID_LENGTH = 36;
/** The counter's bits (RFC 9562 §6.2, method 1): rand_a's 12, then the first 5 of rand_b. */
const COUNTER_BITS = 17;
const MAX_COUNT = 2 ** COUNTER_BITS;

/**
 * `count` version-7 UUIDs (RFC 9562 §5.7), handed out in ascending order: the time `now` (Unix
 * milliseconds) in their first 48 bits, then a 17-bit counter from 0 (§6.2, method 1: a fixed-length
 * dedicated counter in rand_a and the top of rand_b), then 57 random bits. An import's ids thus follow
 * every id made before them, and its inserts add to the end of the id index: random version-4 ids, even
 * sorted within the import, went to pages all over an index that grows with every location the file
 * holds (in-process, an import's inserts into a file of 800,000 locations took 0.67x the time with these,
 * 0.94x with 100,000). The time they hold is the locations' created_at, which the API shows anyway.
 * Two imports' ids within one millisecond would interleave (the import runs one at a time, for longer
 * than that) and stay different by their random bits. Written as text only when taken, a few thousand at a
 * time.
 */
export class SortedUuids {
  private readonly bytes: Buffer;
  private next = 0;

  constructor(
    readonly count: number,
    now: number = Date.now(),
  ) {
    if (count > MAX_COUNT) throw new RangeError(`SortedUuids: at most ${MAX_COUNT.toLocaleString('en')} ids at a time`);
    this.bytes = randomBytes(16 * count);
    const time = Buffer.alloc(8);
    time.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(now))));
    for (let at = 0; at < this.bytes.length; at += 16) time.copy(this.bytes, at, 2, 8);
  }

  /** The next `wanted` ids (fewer at the end), written into one string and sliced from it. */
  take(wanted: number): string[] {
    const n = Math.min(wanted, this.count - this.next);
    const text = Buffer.allocUnsafe(n * UUID_LENGTH);
    const { bytes } = this;
    for (let k = 0; k < n; k++) {
      const counter = this.next + k;
      const at = 16 * counter;
      bytes[at + 6] = 0x70 | (counter >> 13); // version 7, the counter's first 4 bits
      bytes[at + 7] = (counter >> 5) & 0xff;
      bytes[at + 8] = 0x80 | ((counter & 0x1f) << 1) | (bytes[at + 8]! & 1); // variant 10, its last 5 bits
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
