import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { databaseFileIn } from '../start.js';
import { CliError } from './errors.js';

/** A path as the file system sees it: its folder's real path (symlinks followed) and its name. */
export function realPathOf(file: string): string {
  const resolved = path.resolve(file);
  try {
    return fs.realpathSync.native(resolved);
  } catch {
    const folder = path.dirname(resolved);
    try {
      return path.join(fs.realpathSync.native(folder), path.basename(resolved));
    } catch {
      return resolved;
    }
  }
}

/** The files of this installation that hold its data or its key: no copy is ever written over one. */
function protectedFiles(config: Config): Map<string, string> {
  const database = databaseFileIn(config.dataDir);
  const files = new Map<string, string>([
    [database, 'the live database'],
    [`${database}-wal`, "the live database's write-ahead log"],
    [`${database}-shm`, "the live database's shared memory"],
    [`${database}-journal`, "the live database's journal"],
    [path.join(config.dataDir, 'db.key'), "the database's key"],
  ]);
  if (config.keyFile !== undefined) files.set(config.keyFile, "the database's key");
  return new Map([...files].map(([file, words]) => [realPathOf(file), words]));
}

/**
 * Refuses a target a backup or an export would be written over that must never be (a walk found both):
 * the live database or its journals (the copy, renamed over it, lost the writes of the running server
 * and left a malformed file), the key file (a backup over it lost the key, and with it every backup),
 * and anything that is not a regular file (a device, a pipe: /dev/full became a file). A target that
 * ends with a slash names a folder: when there is none, it is not taken as a file's name.
 */
export function refuseProtectedTarget(target: string, file: string, config: Config): void {
  if (/[\\/]$/.test(target) && !fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError(`${target} names a folder, and there is no such folder`);
  }
  const protectedAs = protectedFiles(config).get(realPathOf(file));
  if (protectedAs !== undefined) {
    throw new CliError(`${file} is ${protectedAs}: write the copy somewhere else (nothing was written)`);
  }
  const existing = fs.statSync(file, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile()) {
    throw new CliError(`${file} is not a regular file (a device, a pipe or a socket): nothing was written`);
  }
}
