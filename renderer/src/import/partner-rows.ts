/** What the preview holds of the server's verdicts, as partnerRows reads it. */
export interface Verdicts {
  rowCount: number;
  /** Rows the dry run found repeating another row of the file (`ofRow`) or a stored location (null). */
  duplicates: ReadonlyMap<number, { ofRow: number | null }>;
  /** Rows the dry run refused. */
  errors: ReadonlyMap<number, unknown>;
  /** A row's store code as the rows are now (edits included), trimmed; null without one. */
  storeCode: (row: number) => string | null;
}

/**
 * The rows whose verdict hangs on the `changed` rows. A dry run of some rows sees no others, so when a
 * row is fixed, left out or put back, the rows the server judged beside it go with it: a row that
 * repeats a changed row or that a changed row repeats, and a refused row with a store code the changed
 * rows had or have now (two rows of one file with one code are both refused: checked alone, the one left
 * of such a pair kept its problem and the import stayed blocked). With `scan`, every row is looked at for
 * those codes (a code typed in may now clash with any row); otherwise only the refused ones are.
 */
export function partnerRows(
  changed: readonly number[],
  codes: ReadonlySet<string>,
  verdicts: Verdicts,
  scan: boolean,
): number[] {
  const changedSet = new Set(changed);
  const partners = new Set<number>();
  for (const row of changed) {
    const of = verdicts.duplicates.get(row)?.ofRow;
    if (of !== undefined && of !== null) partners.add(of);
  }
  for (const [row, { ofRow }] of verdicts.duplicates) if (ofRow !== null && changedSet.has(ofRow)) partners.add(row);
  if (codes.size > 0) {
    const sharesCode = (row: number) => {
      const code = verdicts.storeCode(row);
      return code !== null && codes.has(code);
    };
    if (scan) {
      for (let row = 0; row < verdicts.rowCount; row++) if (sharesCode(row)) partners.add(row);
    } else {
      for (const row of verdicts.errors.keys()) if (sharesCode(row)) partners.add(row);
    }
  }
  for (const row of changed) partners.delete(row);
  return [...partners];
}
