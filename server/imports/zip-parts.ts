import { inflateRawSync } from 'node:zlib';
import { MAX_UNZIPPED_BYTES } from './cell-limits.js';

// The server's alone: the dashboard imports cell-limits.ts, and node:zlib has no place in its bundle.

/**
 * A zip's (an .xlsx's) parts that `wanted` names, unzipped, or 'too big' when the whole zip unzips to
 * more than `limit` bytes: each part is inflated with a cap (zlib's maxOutputLength) rather than trusting
 * the sizes the file declares, so a zip bomb stops at the cap. The parts kept are inflated once here for
 * every later reading of them (workbook-facts.ts, sheet-reach.ts). A zip that cannot be read gives the
 * parts read so far: the workbook reader refuses it in its own words.
 */
export function unzipUnder(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limit = MAX_UNZIPPED_BYTES,
): Record<string, Uint8Array> | 'too big' {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Record<string, Uint8Array> = {};
  const end = endOfCentralDirectory(view);
  if (end < 0) return parts;
  let entry = view.readUInt32LE(end + 16);
  let left = limit;
  for (let count = view.readUInt16LE(end + 10); count > 0; count--) {
    if (entry + 46 > view.length || view.readUInt32LE(entry) !== 0x02014b50) return parts;
    const method = view.readUInt16LE(entry + 10);
    const compressed = view.readUInt32LE(entry + 20);
    const nameLength = view.readUInt16LE(entry + 28);
    const local = view.readUInt32LE(entry + 42);
    if (local + 30 > view.length) return parts;
    const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
    const data = view.subarray(start, start + compressed);
    const part = method === 0 ? data : inflated(data, left);
    if (part === null || part.length > left) return 'too big';
    left -= part.length;
    const name = view.toString('utf8', entry + 46, entry + 46 + nameLength);
    if (wanted(name)) parts[name] = part;
    entry += 46 + nameLength + view.readUInt16LE(entry + 30) + view.readUInt16LE(entry + 32);
  }
  return parts;
}

/** The part inflated, or null past the cap (a broken stream counts as nothing: the reader refuses it). */
function inflated(data: Buffer, cap: number): Buffer | null {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? null : Buffer.alloc(0);
  }
}

function endOfCentralDirectory(view: Buffer): number {
  for (let i = view.length - 22; i >= Math.max(0, view.length - 22 - 65_535); i--) {
    if (view.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}
