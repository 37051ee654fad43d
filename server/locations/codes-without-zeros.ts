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
    { operationId, fileCodes }: { operationId: string | null; fileCodes: ReadonlyMap<string, string | null> },
  ): void {
    const unmatched = [...new Set(codes.filter((code) => WITHOUT_ZEROS.test(code) && !found.has(code)))];
    if (unmatched.length === 0) return;
    const fits = new Map<string, { id: string; code: string }[]>();
    // A location an earlier piece of the file updated is judged by the code the file gave it, not by the
    // database's, which the import has rewritten and its dry run has not (the review: the two disagreed).
    for (const [code, stored] of locationsByCodeWithoutZeros(db, clientId, JSON.stringify(unmatched), operationId)) {
      const kept = stored.filter((location) => !fileCodes.has(location.id));
      if (kept.length > 0) fits.set(code, kept);
    }
    const wanted = new Set(unmatched);
    for (const [id, code] of fileCodes) {
      const bare = code?.replace(/^0+/, '');
      if (code == null || bare === code || !wanted.has(bare!)) continue;
      fits.set(bare!, [...(fits.get(bare!) ?? []), { id, code }]);
    }
    for (const [code, stored] of fits) {
      this.fits.set(code, stored);
      if (stored.length === 1) found.set(code, stored[0]!.id);
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
