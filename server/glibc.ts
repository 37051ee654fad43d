import { createRequire } from 'node:module';
import type { LibraryHandle } from 'koffi';

let handle: LibraryHandle | null | undefined;

/**
 * glibc, opened once a thread through koffi (a maintained FFI library with prebuilt binaries, no compiler
 * needed), for the few calls Node does not offer: the allocator's settings (memory.ts) and a thread's
 * priority (thread-priority.ts). Null on macOS and Windows, and on a Linux without glibc (musl has no
 * libc.so.6) or without a prebuilt koffi: the callers then leave things as they are.
 */
export function glibc(): LibraryHandle | null {
  if (handle !== undefined) return handle;
  handle = null;
  if (process.platform !== 'linux') return handle;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    handle = koffi.load('libc.so.6');
  } catch {
    // Not glibc, or no koffi for this machine.
  }
  return handle;
}
