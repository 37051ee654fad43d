import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryCode } from '../../server/locations/country.js';
import { healthOf, healthScore, statusOf } from '../../server/locations/health.js';
import type { ErrorDetail } from '../../server/http/errors.js';
import {
  DuplicateIndex,
  normalizeRow,
  planRows,
  type ExistingLocation,
  type PlannedRow,
} from '../../server/locations/import-plan.js';
import { SortedUuids } from '../../server/db/uuid.js';

/** Every row planned, and every error, collected: what the dry run lists. */
function planImport(rawRows: unknown[], existing: ExistingLocation[]): { rows: PlannedRow[]; errors: ErrorDetail[] } {
  const plan: { rows: PlannedRow[]; errors: ErrorDetail[] } = { rows: [], errors: [] };
  for (const row of planRows(rawRows, new DuplicateIndex(existing))) {
    if (Array.isArray(row)) plan.errors.push(...row);
    else plan.rows.push(row);
  }
  return plan;
}

/** The pure business rules, each on its own (STYLE rule 2): health, normalization, duplicates. */

const FULL = {
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
  google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
};

describe('healthOf', () => {
  it('a complete valid location -> 100, green, nothing to explain', () => {
    expect(healthOf(FULL)).toEqual({ score: 100, status: 'green', issues: [] });
  });

  it('a name alone -> 0, red, every piece named', () => {
    const none = { address: null, city: null, state: null, zip: null, country: null, google_place_id: null };
    expect(healthOf(none)).toMatchObject({ score: 0, status: 'red' });
    expect(healthOf(none).issues).toHaveLength(6);
  });

  it.each([
    ['no place id', { google_place_id: null }, 80, 'green'],
    ['a malformed place id', { google_place_id: 'abc' }, 80, 'green'],
    ['no state', { state: null }, 90, 'green'],
    ['a zip that does not fit the country', { zip: 'ABCDE' }, 85, 'green'],
    ['no address and no place id', { address: null, google_place_id: null }, 55, 'yellow'],
    ['a zip without a country', { country: null }, 70, 'yellow'],
    ['only a city and a country', { address: null, state: null, zip: null, google_place_id: null }, 30, 'red'],
  ] as const)('%s -> %i, %s', (_case, change, score, status) => {
    const health = healthOf({ ...FULL, ...change });
    expect(health).toMatchObject({ score, status });
    expect(health.issues.length).toBeGreaterThan(0);
  });

  it('the thresholds: green from 80, yellow from 50', () => {
    expect([statusOf(80), statusOf(79), statusOf(50), statusOf(49)]).toEqual(['green', 'yellow', 'yellow', 'red']);
  });

  it('healthScore (the import hot path) always equals healthOf().score', () => {
    const text = fc.option(
      fc.constantFrom('1 Main St', 'X', '62701', 'SW1A 1AA', 'ChIJN1t_tDeuEmsRUsoyG83frY4', 'abc'),
      {
        nil: null,
      },
    );
    fc.assert(
      fc.property(
        fc.record({
          address: text,
          city: text,
          state: text,
          zip: text,
          country: fc.option(fc.constantFrom('US', 'GB', 'DE', 'AQ'), { nil: null }),
          google_place_id: text,
        }),
        (location) => healthScore(location) === healthOf(location).score,
      ),
    );
  });
});

describe('countryCode', () => {
  it.each([
    ['US', 'US'],
    ['us', 'US'],
    ['USA', 'US'],
    ['United States', 'US'],
    ['united states of america', 'US'],
    ['UK', 'GB'],
    ['Deutschland', 'DE'],
    ['Allemagne', 'DE'],
    ['España', 'ES'],
    ['250', 'FR'],
    ['  fr  ', 'FR'],
  ])('%s -> %s', (text, code) => {
    expect(countryCode(text)).toBe(code);
  });

  it.each(['Mars', 'XX', 'ZZZ', '999', 'Atlantis'])('%s -> not a country', (text) => {
    expect(countryCode(text)).toBeNull();
  });
});

describe('normalizeRow', () => {
  it('trims, turns empty optional values into null and codes the country', () => {
    expect(
      normalizeRow({ name: '  Downtown ', address: '', city: ' Springfield', country: 'usa', zip: null }, 3),
    ).toMatchObject({
      index: 3,
      name: 'Downtown',
      address: null,
      city: 'Springfield',
      country: 'US',
      zip: null,
    });
  });

  it('names every wrong field of a row by index and field', () => {
    const errors = normalizeRow({ name: 5, zip: 'x'.repeat(21), phone: '555', country: 'Mars' }, 7);
    expect(Array.isArray(errors)).toBe(true);
    expect((errors as { field: string; row: number }[]).map((error) => [error.row, error.field]).sort()).toEqual([
      [7, 'name'],
      [7, 'phone'],
      [7, 'zip'],
    ]);
  });

  it('a blank name is missing; a country that is none is refused', () => {
    const errors = normalizeRow({ name: '   ', country: 'Mars' }, 0) as { field: string; message: string }[];
    expect(errors.map((error) => error.field)).toEqual(['name', 'country']);
  });

  it.each([null, 5, 'text', [], [{ name: 'A' }]])('a row that is not an object (%j) -> one error', (row) => {
    expect(normalizeRow(row, 0)).toEqual([expect.objectContaining({ row: 0, path: '/rows/0' })]);
  });
});

describe('planImport: duplicates', () => {
  const existing: ExistingLocation[] = [
    { id: 'loc-1', name: 'Pike Place', address: '1912 Pike Pl', google_place_id: 'ChIJexisting00000000000' },
  ];

  it('the same place id as an existing location, or as an earlier row', () => {
    const plan = planImport(
      [
        { name: 'Other name', google_place_id: 'ChIJexisting00000000000' },
        { name: 'New', google_place_id: 'ChIJnewplace000000000000' },
        { name: 'New again', google_place_id: 'ChIJnewplace000000000000' },
      ],
      existing,
    );
    expect(plan.rows.map((row) => row.duplicateOf)).toEqual([
      { reason: 'google_place_id', location_id: 'loc-1' },
      null,
      { reason: 'google_place_id', row: 1 },
    ]);
  });

  it('the same name and address without case or extra spaces; a name alone is never a duplicate', () => {
    const plan = planImport(
      [
        { name: 'PIKE  place', address: ' 1912 pike   PL' },
        { name: 'Kiosk' },
        { name: 'Kiosk' },
        { name: 'Kiosk', address: 'Gate 4' },
        { name: 'kiosk', address: 'gate\t4' },
      ],
      existing,
    );
    expect(plan.rows.map((row) => row.duplicateOf)).toEqual([
      { reason: 'name_and_address', location_id: 'loc-1' },
      null,
      null,
      null,
      { reason: 'name_and_address', row: 3 },
    ]);
  });

  it('two different rows whose hashes collide are not duplicates, and a third finds the right one', () => {
    // "Store 50168" and "Store 1016206" at "1 Main St" have the same 32-bit hash of the duplicate rule.
    const plan = planImport(
      [
        { name: 'Store 50168', address: '1 Main St' },
        { name: 'Store 1016206', address: '1 Main St' },
        { name: 'store 1016206', address: '1 main st' },
      ],
      [],
    );
    expect(plan.rows.map((row) => row.duplicateOf)).toEqual([null, null, { reason: 'name_and_address', row: 1 }]);
  });

  it('existing locations are found by fingerprint: a 32-bit collision with one is no duplicate', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const many: ExistingLocation[] = Array.from({ length: 20_000 }, (_, n) => ({
      id: id(n),
      name: `Store ${n}`,
      address: `${n} High St`,
      google_place_id: `place-${n}`,
    }));
    many.push({ id: id(99_999), name: 'Store 50168', address: '1 Main St', google_place_id: null });
    const plan = planImport(
      [
        { name: 'STORE  1234', address: '1234 high st' },
        { name: 'Elsewhere', google_place_id: 'place-19999' },
        { name: 'Store 1016206', address: '1 Main St' },
        { name: 'store 50168', address: ' 1 MAIN ST ' },
        { name: 'Store 20000', address: '20000 High St', google_place_id: 'place-20000' },
      ],
      many,
    );
    expect(plan.rows.map((row) => row.duplicateOf)).toEqual([
      { reason: 'name_and_address', location_id: id(1234) },
      { reason: 'google_place_id', location_id: id(19_999) },
      null,
      { reason: 'name_and_address', location_id: id(99_999) },
      null,
    ]);
  });

  it('agrees with the rule read literally, on random rows', () => {
    const word = fc.constantFrom('Main', 'main', 'MAIN', 'Oak', 'oak ', ' Oak', 'St', 'st.', 'Café', 'CAFÉ');
    const text = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(' ', '  ', '\t'))
      .map(([words, space]) => words.join(space));
    const row = fc.record({
      name: text,
      address: fc.option(text, { nil: undefined }),
      google_place_id: fc.option(fc.constantFrom('ChIJaaaaaaaaaaaaaaaaaaaa', 'ChIJbbbbbbbbbbbbbbbbbbbb'), {
        nil: undefined,
      }),
    });
    const fold = (value: string) => value.trim().toLowerCase().replace(/\s+/g, ' ');
    type Literal = { name: string; address?: string | null | undefined; google_place_id?: string | null | undefined };
    /** The duplicate rule, read literally. */
    const same = (candidate: Literal, other: Literal) =>
      (candidate.google_place_id != null && other.google_place_id === candidate.google_place_id) ||
      (candidate.address != null &&
        other.address != null &&
        fold(other.name) === fold(candidate.name) &&
        fold(other.address) === fold(candidate.address));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        const plan = planImport(rows, []);
        const kept: typeof rows = [];
        rows.forEach((candidate, index) => {
          const earlier = kept.find((other) => same(candidate, other));
          expect(plan.rows[index]!.duplicateOf !== null).toBe(earlier !== undefined);
          if (earlier === undefined) kept.push(candidate);
        });
      }),
      { numRuns: 300 },
    );
    // The same against existing locations, which are found by fingerprint.
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), fc.array(row, { maxLength: 20 }), (stored, rows) => {
        const existing: ExistingLocation[] = stored.map((location, n) => ({
          id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          name: location.name.trim(),
          address: location.address?.trim() ?? null,
          google_place_id: location.google_place_id ?? null,
        }));
        const plan = planImport(rows, existing);
        rows.forEach((candidate, index) => {
          const repeats = existing.some((other) => same(candidate, other));
          // A row may repeat an earlier row too, which may be the one named.
          if (repeats) expect(plan.rows[index]!.duplicateOf).not.toBeNull();
          else expect(plan.rows[index]!.duplicateOf?.location_id).toBeUndefined();
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('SortedUuids', () => {
  const all = (count: number, piece: number) => {
    const ids = new SortedUuids(count);
    const taken: string[] = [];
    for (let part = ids.take(piece); part.length > 0; part = ids.take(piece)) taken.push(...part);
    return taken;
  };

  it('gives version-4 UUIDs, all different, in ascending order across pieces, and never the same list twice', () => {
    const ids = all(20_000, 3_000);
    expect(ids).toHaveLength(20_000);
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(
      true,
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(all(5, 5)).not.toEqual(all(5, 5));
  });

  it('0 and 1, and no more than asked for', () => {
    expect(all(0, 10)).toEqual([]);
    expect(all(1, 10)).toHaveLength(1);
    const ids = new SortedUuids(3);
    expect(ids.take(2)).toHaveLength(2);
    expect(ids.take(2)).toHaveLength(1);
    expect(ids.take(2)).toEqual([]);
  });

  it('refuses more ids than its sort key can order', () => {
    expect(() => new SortedUuids(131_073)).toThrow(RangeError);
  });
});
