/** Locations read and changed this many at a time, inside a change's one transaction. */
const PIECE_IDS = 1_000;

/** The ids a piece at a time, as JSON arrays: what a piece's queries take. */
export function* piecesOf(ids: readonly string[]): Generator<string> {
  for (let start = 0; start < ids.length; start += PIECE_IDS) yield JSON.stringify(ids.slice(start, start + PIECE_IDS));
}

/**
 * The ids sorted as SQLite orders text: what operation_rows' key (operation, location) appends in, so
 * that an operation over 100,000 locations adds its rows at the end of the index, not each at a random page.
 */
export function inIdOrder(ids: readonly string[]): string[] {
  // The default sort compares UTF-16 code units: for ids (ASCII), SQLite's BINARY order.
  return [...ids].sort();
}
