import { keyHash32 } from './keys.js';

const INITIAL_ENTRIES = 1024;
const INITIAL_BYTES = 64 * 1024;

/**
 * Keys of a file's rows (an import's store codes, place ids, names and addresses, location ids), each with
 * a number (the first row that gave it): how an import finds a file's own duplicates, exactly. Maps of
 * 100,000 strings a kind kept some 45 MB of the planner's heap alive to the end of a big upsert, promoted
 * and marked again and again by V8 (npm run bench: the process's peak, and the planner's collections).
 * Here each key is kept as UTF-8 bytes in one growing buffer outside V8's heap, found by its XXH32 in a Map
 * of small integers, and compared byte for byte with the key asked for: two keys that share a hash are
 * two keys. Some 24 bytes of heap a key, and its bytes.
 */
export class FileKeys {
  /** Each hash's first entry; an entry's next one of the same hash is `next[entry]` (-1: none). */
  private readonly first = new Map<number, number>();
  private next = new Int32Array(INITIAL_ENTRIES);
  private starts = new Int32Array(INITIAL_ENTRIES);
  private lengths = new Int32Array(INITIAL_ENTRIES);
  private values = new Int32Array(INITIAL_ENTRIES);
  private count = 0;
  private bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  private used = 0;
  /** The key asked for, as UTF-8 (a key of a location is at most some 3 KB of it; grown when one is longer). */
  private scratch = Buffer.allocUnsafeSlow(4096);

  constructor(private readonly hashOf: (key: string) => number = keyHash32) {}

  get size(): number {
    return this.count;
  }

  /** The number kept with the key, or undefined. */
  get(key: string): number | undefined {
    const entry = this.find(key, this.hashOf(key) | 0);
    return entry < 0 ? undefined : this.values[entry];
  }

  has(key: string): boolean {
    return this.find(key, this.hashOf(key) | 0) >= 0;
  }

  /** Keeps the key with `value`, or gives a key kept already its new value. */
  set(key: string, value: number): void {
    const hash = this.hashOf(key) | 0;
    const found = this.find(key, hash);
    if (found >= 0) {
      this.values[found] = value;
      return;
    }
    const length = this.encode(key);
    this.grow(length);
    const entry = this.count++;
    this.scratch.copy(this.bytes, this.used, 0, length);
    this.starts[entry] = this.used;
    this.lengths[entry] = length;
    this.values[entry] = value;
    this.used += length;
    this.next[entry] = this.first.get(hash) ?? -1;
    this.first.set(hash, entry);
  }

  /** The entry of the key (its hash `hash`), or -1; the key's bytes are in the scratch buffer after it. */
  private find(key: string, hash: number): number {
    let entry = this.first.get(hash);
    if (entry === undefined) return -1;
    const length = this.encode(key);
    for (; entry >= 0; entry = this.next[entry]!) {
      const start = this.starts[entry]!;
      if (this.lengths[entry] === length && this.scratch.compare(this.bytes, start, start + length, 0, length) === 0)
        return entry;
    }
    return -1;
  }

  /** The key's UTF-8 bytes into the scratch buffer; their length. */
  private encode(key: string): number {
    if (key.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(key.length * 3);
    return this.scratch.write(key, 0, 'utf8');
  }

  private grow(length: number): void {
    if (this.count === this.next.length) {
      const size = this.next.length * 2;
      this.next = grown(this.next, size);
      this.starts = grown(this.starts, size);
      this.lengths = grown(this.lengths, size);
      this.values = grown(this.values, size);
    }
    if (this.used + length > this.bytes.length) {
      const bytes = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(bytes, 0, 0, this.used);
      this.bytes = bytes;
    }
  }
}

function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
