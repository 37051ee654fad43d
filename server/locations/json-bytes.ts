/** A chunk's size: above the allocator's mmap threshold (server/memory.ts), so each goes back when freed. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * JSON text written as UTF-8 bytes as it is made, in chunks: an import's answer of 100,000 locations
 * never exists as strings, then one joined string, then its bytes (three copies at the moment the
 * writer thread's heap is at its fullest: npm run bench, peak RSS). The chunks move to the main thread
 * as they are (their buffers are the writer thread's own) and are sent one after the other.
 */
export class JsonBytes {
  private readonly chunks: Uint8Array[] = [];
  private current = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  private used = 0;

  write(text: string): void {
    // At most 3 bytes for each UTF-16 unit.
    if (this.used + text.length * 3 > this.current.length) {
      this.flush();
      this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, text.length * 3));
    }
    this.used += this.current.write(text, this.used, 'utf8');
  }

  /** The bytes written, in order; the writer is done. */
  finish(): Uint8Array[] {
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    if (this.used > 0) this.chunks.push(this.current.subarray(0, this.used));
    this.used = 0;
  }
}
