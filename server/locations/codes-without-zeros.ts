import type { Db } from '../db/open.js';
import { locationsByCodeWithoutZeros } from './queries.js';

/**
 * Excel's leading zeros (README: "Excel's leading zeros"): Excel reads a store code of digits as a
 * number, so a sheet's 00123 comes back as 123. Such a code that names no location is matched to the
 * client's location whose code is the same digits after zeros, when one alone is (two stored codes that
 * Excel would both save as 123, 0123 and 00123, make the row an error: found by a probe, the first by
 * rowid was updated with the other's data).
 */

/** A store code as Excel writes a code of digits: no leading zero. */
const WITHOUT_ZEROS = /^[1-9][0-9]*$/;

/** Whether a row's store code is the stored one but for the leading zeros Excel drops (123 for 00123). */
export function lostItsZeros(code: string | null | undefined, stored: string | null): stored is string {
  if (code == null || stored === null || !WITHOUT_ZEROS.test(code) || stored.length <= code.length) return false;
  return stored.endsWith(code) && /^0+$/.test(stored.slice(0, stored.length - code.length));
}

export class CodesWithoutZeros {
  /** Each code looked up: the stored codes that fit it, with their locations. */
  private readonly fits = new Map<string, { id: string; code: string }[]>();
  /** The locations an earlier piece of the file gave a code (noteFileCode): their database code is not theirs. */
  private readonly fileIds = new Set<string>();
  /** Those of their codes that have leading zeros, by the code without them: what lookUp reads for them. */
  private readonly fileCodes = new Map<string, { id: string; code: string }[]>();

  /**
   * The code the file leaves a location with, once its piece is worked out. A later piece judges that
   * location by it, not by the database's, which the import has rewritten and its dry run has not (the
   * review: the two disagreed). Indexed by the code without zeros as noted, not scanned at every lookUp.
   */
  noteFileCode(id: string, code: string | null): void {
    this.fileIds.add(id);
    if (code === null || !code.startsWith('0')) return;
    const bare = code.replace(/^0+/, '');
    this.fileCodes.set(bare, [...(this.fileCodes.get(bare) ?? []), { id, code }]);
  }

  /**
   * Looks up, in SQL, the codes of digits that matched no location exactly; a code one location fits is
   * `found`. A location this import created (`operationId`, an earlier piece of the file) is never one
   * (found by a review: row 1001's 123 replaced the location row 1's 0123 had just created).
   */
  lookUp(
    db: Db,
    clientId: string,
    codes: readonly string[],
    found: Map<string, string>,
    operationId: string | null,
  ): void {
    const unmatched = [...new Set(codes.filter((code) => WITHOUT_ZEROS.test(code) && !found.has(code)))];
    if (unmatched.length === 0) return;
    const inDatabase = locationsByCodeWithoutZeros(db, clientId, JSON.stringify(unmatched), operationId);
    for (const code of unmatched) {
      // The database's fits, but for the locations the file gave a code (noteFileCode): theirs are the file's.
      const stored = (inDatabase.get(code) ?? []).filter((location) => !this.fileIds.has(location.id));
      const fits = [...stored, ...(this.fileCodes.get(code) ?? [])];
      if (fits.length === 0) continue;
      this.fits.set(code, fits);
      if (fits.length === 1) found.set(code, fits[0]!.id);
    }
  }

  /** The row's error when more than one stored code fits its code. */
  ambiguity(code: string): string | undefined {
    const stored = this.fits.get(code);
    if (stored === undefined || stored.length < 2) return undefined;
    const codes = stored.map((each) => each.code).join(' and ');
    return `the store code "${code}" may be ${codes}, which Excel would both save as ${code}: write the code with its zeros`;
  }

  /** Whether `code` named location `id` without its zeros. */
  matched(code: string, id: string): boolean {
    const stored = this.fits.get(code);
    return stored?.length === 1 && stored[0]!.id === id;
  }

  /** The stored code `code` was read as. */
  storedCode(code: string): string | undefined {
    return this.fits.get(code)?.[0]?.code;
  }
}
