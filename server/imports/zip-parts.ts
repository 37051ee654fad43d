import { inflateRawSync } from 'node:zlib';
import { MAX_UNZIPPED_BYTES } from './cell-limits.js';

// The server's alone: the dashboard imports cell-limits.ts, and node:zlib has no place in its bundle.

/** Where a zip's central directory lies, and how many entries it lists. */
interface Directory {
  offset: number;
  entries: number;
}

const MAX32 = 0xffffffff;

/**
 * A zip's (an .xlsx's) parts that `wanted` names, unzipped, or 'too big' when the whole zip unzips to
 * more than `limit` bytes: each part is inflated with a cap (zlib's maxOutputLength) rather than trusting
 * the sizes the file declares, so a zip bomb stops at the cap. The parts kept are inflated once here for
 * every later reading of them (workbook-facts.ts, sheet-reach.ts). Zip64 records are read (some writers
 * put them in every file, however small: a review found such a workbook read as one of no sheets, its
 * reach never checked). A zip whose directory cannot be walked is 'unreadable': the checks this reading
 * makes cannot be skipped, so the upload is refused rather than read by the library unchecked.
 */
export function unzipUnder(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limit = MAX_UNZIPPED_BYTES,
): Record<string, Uint8Array> | 'too big' | 'unreadable' {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const directory = directoryOf(view);
  if (directory === null) return 'unreadable';
  const parts: Record<string, Uint8Array> = {};
  let entry = directory.offset;
  let left = limit;
  for (let count = directory.entries; count > 0; count--) {
    if (entry + 46 > view.length || view.readUInt32LE(entry) !== 0x02014b50) return 'unreadable';
    const { name, method, compressed, local, next } = centralEntry(view, entry);
    if (local + 30 > view.length) return 'unreadable';
    const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
    const data = view.subarray(start, start + compressed);
    const part = method === 0 ? data : inflated(data, left);
    if (part === null || part.length > left) return 'too big';
    left -= part.length;
    if (wanted(name)) parts[name] = part;
    entry = next;
  }
  return parts;
}

/** One central directory entry: its name, method, compressed size and local header, zip64's included. */
function centralEntry(view: Buffer, entry: number) {
  const nameLength = view.readUInt16LE(entry + 28);
  const extraLength = view.readUInt16LE(entry + 30);
  // UTF-8 when the entry says so (bit 11), else code page 437, read as Latin-1 as fflate reads it.
  const utf8 = (view.readUInt16LE(entry + 8) & 0x800) !== 0;
  const name = view.toString(utf8 ? 'utf8' : 'latin1', entry + 46, entry + 46 + nameLength);
  let compressed = view.readUInt32LE(entry + 20);
  let local = view.readUInt32LE(entry + 42);
  if (compressed === MAX32 || local === MAX32 || view.readUInt32LE(entry + 24) === MAX32) {
    // The zip64 extra field (0x0001) holds, in order, each of these that is 0xFFFFFFFF above.
    const wide = zip64Extra(view, entry + 46 + nameLength, extraLength);
    let at = 0;
    const take = () => Number(wide?.readBigUInt64LE((at += 8) - 8) ?? MAX32);
    if (view.readUInt32LE(entry + 24) === MAX32) take();
    if (compressed === MAX32) compressed = take();
    if (local === MAX32) local = take();
  }
  const next = entry + 46 + nameLength + extraLength + view.readUInt16LE(entry + 32);
  return { name, method: view.readUInt16LE(entry + 10), compressed, local, next };
}

/** The data of an entry's zip64 extra field, or null. */
function zip64Extra(view: Buffer, from: number, length: number): Buffer | null {
  for (let at = from; at + 4 <= from + length && at + 4 <= view.length;) {
    const size = view.readUInt16LE(at + 2);
    if (view.readUInt16LE(at) === 0x0001) return view.subarray(at + 4, at + 4 + size);
    at += 4 + size;
  }
  return null;
}

/** The central directory, from the end record, or zip64's record when the end record's fields are full. */
function directoryOf(view: Buffer): Directory | null {
  const end = endOfCentralDirectory(view);
  if (end < 0) return null;
  const entries = view.readUInt16LE(end + 10);
  const offset = view.readUInt32LE(end + 16);
  if (entries !== 0xffff && offset !== MAX32) return { offset, entries };
  // The zip64 locator sits right before the end record and points at zip64's own end record.
  const locator = end - 20;
  if (locator < 0 || view.readUInt32LE(locator) !== 0x07064b50) return null;
  const record = Number(view.readBigUInt64LE(locator + 8));
  if (record + 56 > view.length || view.readUInt32LE(record) !== 0x06064b50) return null;
  return { offset: Number(view.readBigUInt64LE(record + 48)), entries: Number(view.readBigUInt64LE(record + 32)) };
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
