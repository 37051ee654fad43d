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
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return doing === 'reading' ? 'there is no such file' : 'its folder does not exist';
  return (code !== undefined && REASONS[code]) || (error as Error).message.split('\n')[0]!;
}
