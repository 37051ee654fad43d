import fs from 'node:fs';
import path from 'node:path';

/** Why a file could not be read or written, in words: the same for both but for a missing one. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'the disk is full',
  EROFS: 'the disk is read-only',
};

/**
 * Why a file could not be read or written, in words, without Node's code and a temporary file's name
 * (the command line's backup and export, the key file): a file missing is said as what it means there.
 */
export function fileErrorInWords(error: unknown, doing: 'reading' | 'writing' = 'writing'): string {
  const { code, path: file } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT' && doing === 'reading') return 'there is no such file';
  // A folder that is there but takes no new file (/proc, /sys) says ENOENT too (a walk read "does not exist").
  if (code === 'ENOENT')
    return folderExists(file) ? 'no file can be created in that folder' : 'its folder does not exist';
  return (code !== undefined && REASONS[code]) || (error as Error).message.split('\n')[0]!;
}

function folderExists(file: string | undefined): boolean {
  if (file === undefined) return false;
  try {
    return fs.statSync(path.dirname(file)).isDirectory();
  } catch {
    return false;
  }
}
