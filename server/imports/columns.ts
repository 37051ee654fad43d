import { distance } from 'fastest-levenshtein';
import { NOT_IMPORTED, SECOND_LINES, SYNONYMS, WEAK_NAMES, WHOLE_ADDRESS } from './synonyms.js';
import {
  DAY_HOURS,
  TARGETS,
  type ColumnMapping,
  type ColumnTarget,
  type DayHoursTarget,
  type ImportTarget,
} from './targets.js';

/**
 * Column matching, shared by the server's text/csv and xlsx import and the dashboard's import worker
 * (which imports this file as it imports server/locations/schemas.ts): pure, no node: module.
 *
 * API (stable; the dashboard's mapping step builds on it):
 * - `headerKey(header)`: the words of a header ("Address > Postal Code" -> "address postal code").
 * - `matchHeader(header)`: `{field, matched_by, score}` for one header, or field null.
 * - `matchHeaders(headers)`: one match per column, no two columns on one single-valued field.
 * - `mapHeaders(headers)`: the same as a ColumnMapping (targets only).
 * - `remapColumn`, `nameColumnOf`, `fieldOfHeader`, `isKnownButNotImported`, `isDayHours`.
 */

/** How a column's field was found: its name exactly, a known synonym, a near miss of one, or a saved mapping. */
export type MatchedBy = 'name' | 'synonym' | 'fuzzy' | 'mapping';

export interface ColumnMatch {
  field: ColumnTarget;
  /** Null when the column has no field. */
  matched_by: MatchedBy | null;
  /** 1 for an exact name or synonym; the similarity (0..1) of a near miss; 0 for no field. */
  score: number;
}

/**
 * A near miss needs this similarity (1 - Levenshtein distance / longer length): "postal cod" (0.91) and
 * "telephon" (0.89) pass; "status code" against "state code" (0.82) does not.
 */
export const FUZZY_THRESHOLD = 0.85;
/** Keys shorter than this are never guessed: "lat", "cap" and "tel" are one letter from other words. */
const FUZZY_MIN_LENGTH = 5;

const FIELD_BY_KEY = new Map<string, ImportTarget>();
for (const target of TARGETS) for (const word of SYNONYMS[target]) FIELD_BY_KEY.set(word, target);
/** The synonyms with their words sorted, so that "phone number (main)" meets "main phone number". */
const FIELD_BY_SORTED_KEY = new Map<string, ImportTarget>();
for (const [word, target] of FIELD_BY_KEY) FIELD_BY_SORTED_KEY.set(sortedWords(word), target);
const FUZZY_CANDIDATES = [...FIELD_BY_KEY].filter(([word]) => word.length >= FUZZY_MIN_LENGTH);

function sortedWords(key: string): string {
  return key.split(' ').sort().join(' ');
}

/**
 * A header reduced to the words that carry its meaning: lower case, no accents, no punctuation,
 * no "(required)" marks, single spaces. "Country / Region*" -> "country region".
 */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/\((required|optional|mandatory)\)/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Whether headerKey(cell) may be `key` (not empty), told from the cell's first and last letters where plain
 * ASCII says them, without headerKey's normalization and patterns: a cell can only have the key if it starts
 * with its first letter (or with punctuation) and ends with its last. False only when it cannot be.
 */
export function mayHaveKey(cell: string, key: string): boolean {
  const first = keyLetterAt(cell, 0);
  if (first !== null && first !== key.charCodeAt(0)) return false;
  const last = lastKeyLetter(cell);
  return last === null || last === key.charCodeAt(key.length - 1);
}

/**
 * The last letter or digit headerKey keeps of a cell (lower case), when plain ASCII says it: null when a
 * non-ASCII character (an accent, ß) or a ")" (a "(required)" mark it drops) comes first from the end.
 */
function lastKeyLetter(cell: string): number | null {
  for (let at = cell.length - 1; at >= 0; at--) {
    const code = cell.charCodeAt(at);
    if (code >= 0x80 || code === 0x29) return null;
    const letter = keyLetterAt(cell, at);
    if (letter !== null) return letter;
  }
  return null;
}

/** The character at `at` in lower case when it is an ASCII letter or digit (what headerKey keeps as it is); else null. */
function keyLetterAt(cell: string, at: number): number | null {
  const code = cell.charCodeAt(at);
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a)) return code;
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : null;
}

/**
 * The header's key, then its key with camelCase words apart (Uberall's "streetAndNumber", "addressExtra").
 * A "#" reads as "number" ("Location #", "Store #": found by a probe, "Location #" was the name, the
 * location's name column left out); headerKey, which saved mappings key on, still drops it.
 */
function headerKeys(header: string): string[] {
  const words = header.replace(/#/g, ' number ');
  const key = headerKey(words);
  const split = headerKey(words.replace(/([a-z])([A-Z])/g, '$1 $2'));
  return split === key ? [key] : [key, split];
}

function exactField(keys: readonly string[]): { field: ImportTarget; key: string } | undefined {
  for (const key of keys) {
    const field = FIELD_BY_KEY.get(key) ?? FIELD_BY_KEY.get(key.replace(/ /g, ''));
    if (field !== undefined) return { field, key };
  }
  return undefined;
}

/** The field a header names exactly (a name or a synonym), or null. */
export function fieldOfHeader(header: string): ColumnTarget {
  return exactField(headerKeys(header))?.field ?? null;
}

/** The synonym most like `key`, when it is alike enough and no other field is as alike (ties are never guessed). */
function fuzzyField(key: string): { field: ImportTarget; score: number } | null {
  if (key.length < FUZZY_MIN_LENGTH) return null;
  const sorted = FIELD_BY_SORTED_KEY.get(sortedWords(key));
  // The same words in another order: nearly sure, but below an exact match when two columns want the field.
  if (sorted !== undefined) return { field: sorted, score: 0.99 };
  let best: { field: ImportTarget; score: number } | null = null;
  let tied = false;
  for (const [word, field] of FUZZY_CANDIDATES) {
    const score = 1 - distance(key, word) / Math.max(key.length, word.length);
    if (score < FUZZY_THRESHOLD || (best !== null && score < best.score)) continue;
    if (best !== null && score === best.score) tied ||= best.field !== field;
    else tied = false;
    if (best === null || score > best.score) best = { field, score };
  }
  return best === null || tied ? null : { field: best.field, score: Math.round(best.score * 100) / 100 };
}

const NO_MATCH: ColumnMatch = { field: null, matched_by: null, score: 0 };

/** The field one header names: by the field's own name, a synonym, or a near miss of one. */
export function matchHeader(header: string): ColumnMatch {
  const keys = headerKeys(header);
  const key = keys[keys.length - 1]!;
  if (key === '') return NO_MATCH;
  const exact = exactField(keys);
  if (exact !== undefined) {
    return { field: exact.field, matched_by: isOwnName(exact.field, exact.key) ? 'name' : 'synonym', score: 1 };
  }
  if (keys.some((each) => NOT_IMPORTED.has(each))) return NO_MATCH;
  const near = fuzzyField(key);
  return near === null ? NO_MATCH : { field: near.field, matched_by: 'fuzzy', score: near.score };
}

function isOwnName(target: ImportTarget, key: string): boolean {
  return key === target.replace(/_/g, ' ') || key.replace(/ /g, '_') === target;
}

/** Whether a header names something a sheet carries that Agency Desk has no field for (e.g. GBP's "Additional phones"). */
export function isKnownButNotImported(header: string): boolean {
  return headerKeys(header).some((key) => NOT_IMPORTED.has(key));
}

export function isDayHours(target: ColumnTarget): target is DayHoursTarget {
  return target !== null && target in DAY_HOURS;
}

/**
 * Whether two columns cannot both feed their targets: a single-valued field fed twice, or the whole
 * week's hours beside per-day hours (one replaces the other on the server).
 */
function clashes(a: ImportTarget, b: ImportTarget): boolean {
  if (a === b) return a !== 'address';
  return (a === 'hours' && isDayHours(b)) || (b === 'hours' && isDayHours(a));
}

const NONE_HIDDEN: ReadonlySet<number> = new Set();

/**
 * One match per column. Each target but `address` takes one column: a column shown before one the
 * workbook hides (a stale column kept out of sight, found by a probe), an exact match before a near
 * miss, a sure name before a weak one (WEAK_NAMES: "Location Name" before "Location"), else the first.
 * Every column naming `address` joins into it, in file order ("Address line 1", "Address line 2"), but
 * for those that would say it twice (addressParts).
 */
export function matchHeaders(headers: readonly string[], hidden = NONE_HIDDEN): ColumnMatch[] {
  const matches = headers.map(matchHeader);
  const taken: ImportTarget[] = [];
  const shownFirst = (a: number, b: number) => Number(hidden.has(a)) - Number(hidden.has(b));
  const weak = headers.map((header) => headerKeys(header).some((key) => WEAK_NAMES.has(key)));
  const surerFirst = (a: number, b: number) => Number(weak[a]) - Number(weak[b]);
  // A synonym gives way to another column named by the field's own name: "Store Code" before "Location #"
  // (found by a review). A key of each column's own, so that the order stays one order.
  const ownNamed = new Set(matches.filter((match) => match.matched_by === 'name').map((match) => match.field));
  const demoted = matches.map((match) => match.matched_by === 'synonym' && ownNamed.has(match.field));
  const ownNameFirst = (a: number, b: number) => Number(demoted[a]) - Number(demoted[b]);
  const order = matches
    .map((_, index) => index)
    .sort(
      (a, b) =>
        shownFirst(a, b) || matches[b]!.score - matches[a]!.score || surerFirst(a, b) || ownNameFirst(a, b) || a - b,
    );
  const kept = new Set<number>();
  for (const index of order) {
    const target = matches[index]!.field;
    if (target === null || taken.some((other) => clashes(other, target))) continue;
    taken.push(target);
    kept.add(index);
  }
  for (const index of addressLeftOut(headers, matches, kept, hidden)) kept.delete(index);
  return matches.map((match, index) => (kept.has(index) ? match : NO_MATCH));
}

/**
 * The address columns that would say the address twice (found by a probe: "Street", "House number" and
 * a "Full address" made "Hauptstraße 12, Hauptstraße 12, 10115 Berlin"): a column the workbook hides
 * when a shown one gives the address, and a whole address (WHOLE_ADDRESS: "Full address") beside its parts.
 */
function addressLeftOut(
  headers: readonly string[],
  matches: readonly ColumnMatch[],
  kept: ReadonlySet<number>,
  hidden: ReadonlySet<number>,
): number[] {
  const lines = [...kept].filter((index) => matches[index]!.field === 'address');
  const shown = lines.filter((index) => !hidden.has(index));
  const left = shown.length > 0 ? lines.filter((index) => hidden.has(index)) : [];
  const rest = lines.filter((index) => !left.includes(index));
  const keysOf = (index: number) => headerKeys(headers[index]!);
  const whole = (index: number) => keysOf(index).some((key) => WHOLE_ADDRESS.has(key));
  // Only a column that gives the street makes a whole address say it twice: "Suite" or "Address 2" beside
  // "Full address" would leave the street out (found by a review).
  const street = (index: number) => !whole(index) && !keysOf(index).some((key) => SECOND_LINES.has(key));
  if (rest.some(street)) left.push(...rest.filter(whole));
  return left;
}

/** The mapping the headers suggest (matchHeaders' fields). */
export function mapHeaders(headers: readonly string[], hidden = NONE_HIDDEN): ColumnMapping {
  return matchHeaders(headers, hidden).map((match) => match.field);
}

/**
 * The mapping after the user points `column` at `target`: a column whose target clashes with it
 * loses its own, so no two columns ever feed the same single-valued field.
 */
export function remapColumn(mapping: ColumnMapping, column: number, target: ColumnTarget): ColumnMapping {
  return mapping.map((current, index) => {
    if (index === column) return target;
    if (target !== null && current !== null && clashes(current, target)) return null;
    return current;
  });
}

export function nameColumnOf(mapping: ColumnMapping): number {
  return mapping.indexOf('name');
}

/**
 * The key of a header set, to find a saved mapping for a file with the same columns: the headers' keys,
 * blank ones left out, sorted, joined by "|". Column order and spelling of case or accents do not matter.
 */
export function headerSetKey(headers: readonly string[]): string {
  return [...new Set(headers.map(headerKey).filter((key) => key !== ''))].sort().join('|');
}
