import { randomBytes } from 'node:crypto';

/** Entries at first (a power of two), and bytes of keys. */
const INITIAL_ENTRIES = 1024;
/**
 * How far from its home slot a key may lie: a key that would lie farther goes to a Map instead (V8's
 * string hash, seeded per process). However a file's keys hash, a look-up reads at most this many slots.
 */
const MAX_PROBES = 32;
const INITIAL_BYTES = 64 * 1024;

declare global {
  interface String {
    /** ES2024 (Node 20 has it; TypeScript's ES2023 library does not name it). */
    isWellFormed(): boolean;
  }
}

/**
 * Keys of a file's rows (an import's store codes, place ids, names and addresses, location ids), each with
 * a number (the first row that gave it): how an import finds a file's own duplicates, exactly. Maps of
 * 100,000 strings a kind kept some 45 MB of the planner's heap alive to the end of a big upsert, promoted
 * and marked again and again by V8 (npm run bench: the process's peak, and the planner's collections).
 * Here each key is kept as UTF-8 bytes in one growing buffer outside V8's heap, found by its hash in an
 * open-addressing table of integers, and compared byte for byte with the key asked for: two keys that
 * share a hash are two keys. A key with a lone surrogate (not well-formed UTF-16, which UTF-8 cannot hold:
 * it would be read as another such key) is kept as it is, in a Map.
 *
 * The hash is FNV-1a over the key's UTF-16 code units, made in JS in the same pass that copies an ASCII
 * key's bytes, from a random seed of each table and then mixed (murmur3's finalizer): a hash of this
 * process's memory only, never stored. xxhash-wasm (keys.ts, the stored hashes) and Buffer's UTF-8 writes
 * each cross into native code for every key, and a V8 Map of 300,000 numbers costs more than the table:
 * those took most of the upsert planner's time for keys (npm run bench). The seed and MAX_PROBES are for
 * files made to collide: with a fixed FNV-1a, 2^17 addresses of 85 letters can share one hash, and a review
 * measured 28 s for 40,000 such keys, the import's transaction open all the while.
 */
export class FileKeys {
  /** Slots of the table: an entry + 1, 0 empty; linear probing, never more than half full. */
  private table = new Int32Array(INITIAL_ENTRIES * 2);
  private hashes = new Int32Array(INITIAL_ENTRIES);
  private starts = new Int32Array(INITIAL_ENTRIES);
  private lengths = new Int32Array(INITIAL_ENTRIES);
  private values = new Int32Array(INITIAL_ENTRIES);
  private count = 0;
  /** Entries still in the table (a growth moves one that would lie too far from home to `others`). */
  private inTable = 0;
  private readonly seed = randomBytes(4).readInt32LE(0);
  /** The keys' bytes; the key asked for is written after them (`used`), and kept there when it is new. */
  private bytes = new Uint8Array(INITIAL_BYTES);
  private used = 0;
  /** Keys with a lone surrogate, and keys that would lie more than MAX_PROBES from their home slot. */
  private readonly others = new Map<string, number>();

  /** `hashOf`: another hash, for tests of keys that share one. */
  constructor(private readonly hashOf?: (key: string) => number) {}

  get size(): number {
    return this.inTable + this.others.size;
  }

  /** How many keys are kept in the Map rather than the table (for tests). */
  get outsideTable(): number {
    return this.others.size;
  }

  /** The number kept with the key, or undefined. */
  get(key: string): number | undefined {
    if (!key.isWellFormed()) return this.others.get(key);
    const slot = this.find(key);
    const entry = slot < 0 ? -1 : this.table[slot]! - 1;
    if (entry >= 0) return this.values[entry];
    return this.others.size === 0 ? undefined : this.others.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Keeps the key with `value`, or gives a key kept already its new value. */
  set(key: string, value: number): void {
    this.keep(key, value, true);
  }

  /** Keeps the key with `value` unless it is kept already (then its number stays). */
  add(key: string, value: number): void {
    this.keep(key, value, false);
  }

  private keep(key: string, value: number, replace: boolean): void {
    const slot = key.isWellFormed() ? this.find(key) : -1;
    const found = slot < 0 ? -1 : this.table[slot]! - 1;
    if (found >= 0) {
      if (replace) this.values[found] = value;
      return;
    }
    if (slot < 0 || (this.others.size > 0 && this.others.has(key))) {
      if (replace || !this.others.has(key)) this.others.set(key, value);
      return;
    }
    const entry = this.count++;
    this.inTable++;
    this.starts[entry] = this.used;
    this.lengths[entry] = this.keyLength;
    this.hashes[entry] = this.keyHash;
    this.values[entry] = value;
    this.used += this.keyLength;
    this.table[slot] = entry + 1;
    if (this.count === this.hashes.length) this.grow();
  }

  /** The key's bytes and hash, left by `find`. */
  private keyLength = 0;
  private keyHash = 0;

  /**
   * The slot of the key: its entry's, or the empty one where it would go; -1 when neither is within
   * MAX_PROBES of its home (the key is then not in the table). Writes the key after the others.
   */
  private find(key: string): number {
    const hash = this.encode(key);
    const length = this.keyLength;
    const mask = this.table.length - 1;
    for (let probe = 0, slot = hash & mask; probe < MAX_PROBES; probe++, slot = (slot + 1) & mask) {
      const entry = this.table[slot]! - 1;
      if (entry < 0 || (this.hashes[entry] === hash && this.lengths[entry] === length && this.same(entry))) return slot;
    }
    return -1;
  }

  /** Whether the entry's bytes are the key's (just written after the others). */
  private same(entry: number): boolean {
    const { bytes, used } = this;
    const start = this.starts[entry]!;
    for (let at = 0; at < this.keyLength; at++) if (bytes[start + at] !== bytes[used + at]) return false;
    return true;
  }

  /** Writes the key's UTF-8 after the kept bytes (not yet kept) and returns its hash. */
  private encode(key: string): number {
    if (this.used + key.length * 3 > this.bytes.length) this.growBytes(key.length * 3);
    const { bytes, used } = this;
    let hash = (0x811c9dc5 ^ this.seed) | 0;
    let ascii = true;
    for (let at = 0; at < key.length; at++) {
      const code = key.charCodeAt(at);
      hash = Math.imul(hash ^ code, 0x01000193);
      if (code > 0x7f) ascii = false;
      else bytes[used + at] = code;
    }
    this.keyLength = ascii ? key.length : encoder.encodeInto(key, bytes.subarray(used)).written;
    this.keyHash = this.hashOf === undefined ? mixed(hash) : this.hashOf(key) | 0;
    return this.keyHash;
  }

  private growBytes(length: number): void {
    const bytes = new Uint8Array(Math.max(this.bytes.length * 2, this.used + length));
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }

  /** Twice the entries, and the table made again at twice its size. */
  private grow(): void {
    const size = this.hashes.length * 2;
    this.hashes = grown(this.hashes, size);
    this.starts = grown(this.starts, size);
    this.lengths = grown(this.lengths, size);
    this.values = grown(this.values, size);
    const old = this.table;
    this.table = new Int32Array(size * 2);
    const mask = this.table.length - 1;
    for (const held of old) {
      if (held === 0) continue;
      const entry = held - 1;
      let slot = this.hashes[entry]! & mask;
      let probe = 0;
      while (this.table[slot] !== 0 && probe < MAX_PROBES) {
        slot = (slot + 1) & mask;
        probe++;
      }
      if (probe < MAX_PROBES) this.table[slot] = entry + 1;
      else this.moveOut(entry);
    }
  }

  /** An entry that would lie too far from its home slot, moved to `others` with its key as text. */
  private moveOut(entry: number): void {
    const start = this.starts[entry]!;
    this.others.set(decoder.decode(this.bytes.subarray(start, start + this.lengths[entry]!)), this.values[entry]!);
    this.inTable--;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** murmur3's 32-bit finalizer: every bit of the hash moves every bit of the slot. */
function mixed(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
