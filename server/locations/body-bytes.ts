import { isUtf8 } from 'node:buffer';

/**
 * A request body's bytes in the pieces they came off the socket in, read as one text without joining
 * them: an import body of up to 32 MiB was copied into one buffer first, and for a moment the planner
 * held it twice (npm run bench: the peak as an import began). Offsets are the whole body's. Reads go
 * forward nearly always, so the piece last read is where a read looks first.
 */
export class BodyBytes {
  readonly length: number;
  /** Where each piece begins in the body. */
  private readonly starts: number[] = [];
  /** The piece last read. */
  private current = 0;

  constructor(readonly pieces: readonly Uint8Array[]) {
    let length = 0;
    for (const piece of pieces) {
      this.starts.push(length);
      length += piece.length;
    }
    this.length = length;
  }

  /** Where piece `index` begins in the body. */
  startOf(index: number): number {
    return this.starts[index]!;
  }

  /** The piece holding byte `at` (the last piece for the body's length). */
  pieceOf(at: number): number {
    const { starts } = this;
    let piece = this.current;
    if (at < starts[piece]!) piece = 0;
    while (piece + 1 < starts.length && at >= starts[piece + 1]!) piece++;
    this.current = piece;
    return piece;
  }

  byteAt(at: number): number {
    const piece = this.pieceOf(at);
    return this.pieces[piece]![at - this.starts[piece]!]!;
  }

  /** Where `byte` is next at or after `from`, or -1: each piece searched by the native indexOf. */
  indexOf(byte: number, from: number): number {
    if (from >= this.length) return -1;
    for (let piece = this.pieceOf(from); piece < this.pieces.length; piece++) {
      const start = this.starts[piece]!;
      const found = this.pieces[piece]!.indexOf(byte, Math.max(from - start, 0));
      if (found >= 0) {
        this.current = piece;
        return start + found;
      }
    }
    return -1;
  }

  /** Bytes `from` to `to` (exclusive) as UTF-8 text: one piece's decoded in place, else joined first. */
  text(from: number, to: number): string {
    if (to <= from) return '';
    const first = this.pieceOf(from);
    const start = this.starts[first]!;
    const piece = this.pieces[first]!;
    if (to - start <= piece.length) return bufferOf(piece).toString('utf8', from - start, to - start);
    const parts: Uint8Array[] = [];
    for (let index = first; index < this.pieces.length && this.starts[index]! < to; index++) {
      const begin = Math.max(from - this.starts[index]!, 0);
      parts.push(this.pieces[index]!.subarray(begin, Math.min(to - this.starts[index]!, this.pieces[index]!.length)));
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /** Whether the whole is UTF-8: each piece, and each character split between two pieces. */
  isUtf8(): boolean {
    let carried: Uint8Array = new Uint8Array(0);
    for (const piece of this.pieces) {
      let start = 0;
      if (carried.length > 0) {
        // The rest of the character the last piece began.
        const wanted = sequenceLength(carried[0]!) - carried.length;
        if (wanted > piece.length) {
          carried = Buffer.concat([carried, piece]);
          continue;
        }
        if (!isUtf8(Buffer.concat([carried, piece.subarray(0, wanted)]))) return false;
        start = wanted;
      }
      const tail = unfinishedTail(piece, start);
      if (!isUtf8(piece.subarray(start, piece.length - tail))) return false;
      carried = piece.subarray(piece.length - tail);
    }
    return carried.length === 0;
  }
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** How many bytes a UTF-8 sequence that starts with `lead` takes (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** How many bytes at the end of `bytes` (from `start`) begin a character that the piece does not finish. */
function unfinishedTail(bytes: Uint8Array, start: number): number {
  for (let back = 1; back <= 3 && bytes.length - back >= start; back++) {
    const byte = bytes[bytes.length - back]!;
    // A continuation byte: the lead is further back.
    if ((byte & 0xc0) === 0x80) continue;
    return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}
