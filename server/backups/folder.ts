import fs from 'node:fs';
import path from 'node:path';
import { backupFileName, freeBackupFile } from '../db/backup.js';
import { BackupKind } from './schemas.js';

export type { BackupKind } from './schemas.js';

/** `<data dir>/backups`: the automatic and manual backups, and the database a restore replaced. */
export function backupsDirIn(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** Made by the server on its schedule; only these are ever deleted by the rotation. */
export const AUTOMATIC = 'auto' satisfies BackupKind;
/** Made when a person asked ("Back up now"): kept until the user deletes it. */
export const MANUAL = 'manual' satisfies BackupKind;
/** The database as it was just before a restore replaced it: kept until the user deletes it. */
export const BEFORE_RESTORE = 'before-restore' satisfies BackupKind;

// The kinds from the schema, so that a kind added there is named, listed and downloadable here too.
const KINDS = BackupKind.anyOf.map((kind) => kind.const).join('|');
// A second backup of one kind within a second takes the next free number: `manual-<time>-2.db`.
const NAME = new RegExp(`^(${KINDS})-(\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ)(?:-([2-9]|[1-9]\\d+))?\\.db$`);

export interface BackupFile {
  name: string;
  file: string;
  kind: BackupKind;
  /** When it was made, from its name (to the second). */
  at: Date;
  /** 1, or the number a later backup of that second took in its name. */
  sequence: number;
  size: number;
}

/**
 * A free name for a new backup: two made within one second (two clicks on "Back up now") are two files,
 * never one replacing the other. The server makes its backups one at a time, so the name stays free.
 */
export function newBackupFile(dataDir: string, kind: BackupKind, at: Date): string {
  const dir = backupsDirIn(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return freeBackupFile(dir, backupFileName(at, kind));
}

/** The backup a name means, or undefined: never a path outside the folder, a partial file or a stranger. */
export function parseBackupName(dataDir: string, name: string): Omit<BackupFile, 'size'> | undefined {
  const match = NAME.exec(name);
  if (match === null) return undefined;
  const at = new Date(match[2]!.replace(/T(\d\d)-(\d\d)-(\d\d)Z$/, 'T$1:$2:$3Z'));
  const sequence = match[3] === undefined ? 1 : Number(match[3]);
  return { name, file: path.join(backupsDirIn(dataDir), name), kind: match[1] as BackupKind, at, sequence };
}

/** Whole backups only (a temporary `.partial-<pid>` file of a backup under way is not one), newest first. */
export function listBackupFiles(dataDir: string): BackupFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(backupsDirIn(dataDir));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const parsed = parseBackupName(dataDir, name);
      const stat = parsed && fs.statSync(parsed.file, { throwIfNoEntry: false });
      return parsed && stat?.isFile() ? [{ ...parsed, size: stat.size }] : [];
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.sequence - a.sequence || b.name.localeCompare(a.name));
}
