import type { Health, LocationRow } from '../api/types.js';

/** The table's columns, each sortable. */
export type LocationColumn =
  'name' | 'store_code' | 'address' | 'city' | 'state' | 'zip' | 'country' | 'health_score' | 'created_at';

export interface LocationSort {
  key: LocationColumn;
  direction: 'ascending' | 'descending';
}

export type HealthFilter = Health | 'all';

/** What the table shows: which rows (search text, health) in which order. */
export interface ViewRequest {
  sort: LocationSort;
  /** The search text as foldForSearch makes it; empty for none. */
  query: string;
  health: HealthFilter;
}

// Natural order ("#2" before "#10"), case, accents and punctuation aside (Northwind Coffee "The Pearl"
// among the T's, not before every other name), in the user's language.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base', ignorePunctuation: true });

type Value = string | number | null;

const valueOf = (row: LocationRow, column: LocationColumn): Value => row[column];
const isEmpty = (value: Value): boolean => value === null || value === '';

function valueComparator(rows: readonly LocationRow[], column: LocationColumn): (a: number, b: number) => number {
  if (column === 'health_score') return (a, b) => rows[a]!.health_score - rows[b]!.health_score;
  // ISO 8601 timestamps sort as plain text, far faster than through the collator.
  if (column === 'created_at') {
    return (a, b) => {
      const x = rows[a]!.created_at;
      const y = rows[b]!.created_at;
      return x < y ? -1 : x > y ? 1 : 0;
    };
  }
  return (a, b) => collator.compare(valueOf(rows[a]!, column) as string, valueOf(rows[b]!, column) as string);
}

/** Row numbers by `sort`; equal values keep the rows' arrival order whichever the direction. */
function comparatorFor(rows: readonly LocationRow[], sort: LocationSort): (a: number, b: number) => number {
  const compare = valueComparator(rows, sort.key);
  return sort.direction === 'ascending' ? (a, b) => compare(a, b) || a - b : (a, b) => compare(b, a) || a - b;
}

/** Letters with no accent to take off in Unicode's decomposition, as people type them without it. */
const PLAIN_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i' };
// The accents of Latin letters alone: Cyrillic's й or Japanese's バ are letters of their own (a review).
const LATIN_ACCENTS = /([a-z])[\u0300-\u036f]+/g;
const OUTSIDE_ASCII = /[\u0080-\uffff]/;

/**
 * Text as a search compares it: lower-cased, accents off ("Crème" and "creme", "Zürich" and "zurich",
 * "Straße" and "strasse", "Łódź" and "lodz" find each other: a walk typed names without their accents
 * and found nothing). The table's texts and the typed search go through it alike.
 */
export function foldForSearch(text: string): string {
  const lower = text.toLowerCase();
  // Most locations' texts are ASCII: nothing to take off.
  if (!OUTSIDE_ASCII.test(lower)) return lower;
  return (
    lower
      .normalize('NFD')
      .replace(LATIN_ACCENTS, '$1')
      .replace(/[ßæœøłđı]/g, (letter) => PLAIN_LETTERS[letter]!)
      // The marks kept (й's breve) back on their letters, as typed text has them.
      .normalize('NFC')
  );
}

/** The text a search looks in, per location, folded once (foldForSearch). */
export function searchTextOf(location: LocationRow): string {
  const { name, store_code, address, city, state, zip, country, primary_category, labels } = location;
  // The category and the labels too: "all the locations labelled flagship", then a bulk change (a walk).
  return foldForSearch(
    [name, store_code, address, city, state, zip, country, primary_category, ...(labels ?? [])]
      .filter((value) => value !== null)
      .join('\u0000'),
  );
}

interface ColumnOrder {
  sort: LocationSort;
  /** Row numbers with a value, in the sort's order. */
  sorted: number[];
  /** Row numbers without a value, in arrival order: last whichever the direction. */
  empty: number[];
}

/**
 * A client's locations as they arrive, with their order by each sort asked for so far. Each new
 * piece is sorted on its own and merged in (V8's TimSort finds the two runs), so a list that grows
 * by pieces is never sorted from scratch.
 */
export class LocationIndex {
  readonly rows: LocationRow[] = [];
  private readonly texts: string[] = [];
  private readonly orders = new Map<string, ColumnOrder>();

  add(rows: readonly LocationRow[]): void {
    const from = this.rows.length;
    for (const row of rows) {
      this.rows.push(row);
      this.texts.push(searchTextOf(row));
    }
    for (const order of this.orders.values()) this.extend(order, from);
  }

  /** Row numbers (in arrival order) of the rows the request shows, in its order. */
  view(request: ViewRequest): Int32Array {
    const { sorted, empty } = this.orderBy(request.sort);
    const out = new Int32Array(this.rows.length);
    let count = 0;
    const keep = this.filterOf(request);
    for (const row of sorted) if (keep(row)) out[count++] = row;
    for (const row of empty) if (keep(row)) out[count++] = row;
    return out.slice(0, count);
  }

  private filterOf({ query, health }: ViewRequest): (row: number) => boolean {
    const rows = this.rows;
    const texts = this.texts;
    if (health === 'all' && query === '') return () => true;
    if (query === '') return (row) => rows[row]!.health_status === health;
    if (health === 'all') return (row) => texts[row]!.includes(query);
    return (row) => rows[row]!.health_status === health && texts[row]!.includes(query);
  }

  private orderBy(sort: LocationSort): ColumnOrder {
    const key = `${sort.key} ${sort.direction}`;
    let order = this.orders.get(key);
    if (order) return order;
    const opposite = this.orders.get(`${sort.key} ${sort.direction === 'ascending' ? 'descending' : 'ascending'}`);
    if (opposite) {
      // The other direction reversed is nearly in order already: TimSort finishes it in about n steps.
      order = { sort, sorted: opposite.sorted.slice().reverse(), empty: opposite.empty.slice() };
      order.sorted.sort(comparatorFor(this.rows, sort));
    } else {
      order = { sort, sorted: [], empty: [] };
      this.extend(order, 0);
    }
    this.orders.set(key, order);
    return order;
  }

  private extend(order: ColumnOrder, from: number): void {
    const compare = comparatorFor(this.rows, order.sort);
    const fresh: number[] = [];
    for (let row = from; row < this.rows.length; row++) {
      (isEmpty(valueOf(this.rows[row]!, order.sort.key)) ? order.empty : fresh).push(row);
    }
    fresh.sort(compare);
    const hadRows = order.sorted.length > 0;
    for (const row of fresh) order.sorted.push(row);
    if (hadRows && fresh.length > 0) order.sorted.sort(compare);
  }
}
