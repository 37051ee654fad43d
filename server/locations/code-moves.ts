import type { Db } from '../db/open.js';
import type { ImportWriteSink } from './import-writes.js';
import { locationsByKey, locationName } from './queries.js';

/** A row's error when the store code it takes stays with the location that holds it: the holder by id and name. */
export function codeKeptWords(db: Db, code: string, holder: string): string {
  return `the store code "${code}" is used by location ${holder} ("${locationName(db, holder)}"), which this file leaves with it; store codes are unique within a client`;
}

/** An update that gives its location a store code another location of the client held when it was read. */
export interface CodeMove {
  /** The row's index in the request, and its line in the sheet when the rows said it. */
  index: number;
  line: number | undefined;
  locationId: string;
  code: string;
  holder: string;
}

/** An update that changes its location's store code (to another, or to none). */
export interface CodeChange {
  index: number;
  line: number | undefined;
  locationId: string;
  to: string | null;
}

/**
 * The store codes an import moves between a client's locations. Codes are unique within a client, and a
 * row may give its location a code another location holds when the same file gives that one another
 * code (a swap, a renumbering): the file's end state is what counts. SQLite's unique index checks each
 * write, so a moved code is written after every row (its location holds none meanwhile), and a code
 * whose holder keeps it is the row's error, in the dry run as in the import.
 */
export class StoreCodeMoves {
  /** The locations whose store code the import changes. */
  private readonly changed = new Set<string>();
  /** By the location that takes the code. */
  private readonly moves = new Map<string, CodeMove>();

  /** Notes a piece's code changes, and finds in SQL who holds each new code. */
  note(db: Db, clientId: string, changes: CodeChange[]): void {
    for (const change of changes) this.changed.add(change.locationId);
    const taking = changes.filter((change) => change.to !== null);
    if (taking.length === 0) return;
    const holders = locationsByKey(
      db,
      clientId,
      'store_code',
      taking.map((change) => change.to!),
    );
    for (const { index, line, locationId, to } of taking) {
      const holder = holders.get(to!);
      if (holder !== undefined && holder !== locationId)
        this.moves.set(locationId, { index, line, locationId, code: to!, holder });
    }
  }

  /** Whether the location's new code waits for the end of the import (it is written without one until then). */
  waits(locationId: string): boolean {
    return this.moves.has(locationId);
  }

  /** The moves whose code stays with its holder, each with the words of its row's error. */
  blocked(db: Db): (CodeMove & { message: string })[] {
    return [...this.moves.values()]
      .filter((move) => !this.changed.has(move.holder))
      .map((move) => ({ ...move, message: codeKeptWords(db, move.code, move.holder) }));
  }

  /** Writes each moved code, once every row has been written. */
  write(writes: ImportWriteSink): void {
    for (const move of this.moves.values()) writes.write(['setStoreCode', move.locationId, move.code]);
  }
}
