import { dropOperation, recordEntry, startOperation } from '../audit/queries.js';
import type { Db } from '../db/open.js';
import { markMappingUsed } from '../mappings/queries.js';
import { addToLocationsCount, insertLocations, setStoreCode, updateColumns } from './queries.js';
import { rememberRow } from './snapshots.js';

/**
 * An import's writes, each named by the `(db, ...)` query function that makes it. The import's plan
 * (import.ts) reads the database as it was when the import began and decides every write; the writes are
 * made after it, in order, on the connection that holds the import's transaction: a piece at a time while
 * the plan goes on on a thread of its own (store/planned-import.ts), or all at once after it on one
 * connection (importLocations). The plan never reads what it wrote: a dry run, which writes nothing, and
 * the import itself decide alike.
 */
const WRITES = {
  startOperation,
  markMappingUsed,
  insertLocations,
  updateColumns,
  rememberRow,
  setStoreCode,
  addToLocationsCount,
  dropOperation,
  recordEntry,
} as const;

type Writes = typeof WRITES;
type AfterDb<F> = F extends (db: Db, ...args: infer A) => unknown ? A : never;

/** One write: the query function's name and its arguments after the connection (plain data: it may cross threads). */
export type ImportWrite = { [K in keyof Writes]: [K, ...AfterDb<Writes[K]>] }[keyof Writes];

/** Makes the writes, in order, on `db` (inside the caller's transaction). */
export function applyImportWrites(db: Db, writes: readonly ImportWrite[]): void {
  for (const [name, ...args] of writes) (WRITES[name] as (db: Db, ...args: unknown[]) => unknown)(db, ...args);
}

/** Where an import's plan puts its writes. */
export interface ImportWriteSink {
  write(write: ImportWrite): void;
  /** The end of a piece of rows: what was written so far may be made now. */
  endPiece(): void;
}

/** The writes kept until the plan is done: one connection, which must not read what it has written. */
export class ImportWriteLog implements ImportWriteSink {
  readonly writes: ImportWrite[] = [];

  write(write: ImportWrite): void {
    this.writes.push(write);
  }

  endPiece(): void {}
}

/** A dry run's: nothing is written. */
export const NO_WRITES: ImportWriteSink = { write: () => undefined, endPiece: () => undefined };
