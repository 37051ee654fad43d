import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryCode } from '../../server/locations/country.js';
import { healthOf, statusOf } from '../../server/locations/health.js';
import { normalizeRow } from '../../server/locations/rows.js';
import { SortedUuids } from '../../server/db/uuid.js';

/**
 * The pure business rules, each on its own (STYLE rule 2): health, normalization. Duplicates and keys
 * are matched in SQL: test/server/import-rules.test.ts runs them on a real database.
 */

const FULL = {
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
  google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
  phone: '+12175550100',
  primary_category: 'Coffee shop',
  website: 'https://example.com/',
  hours: { mon: [['09:00', '17:00']] },
};
const NONE = {
  address: null,
  city: null,
  state: null,
  zip: null,
  country: null,
  google_place_id: null,
  phone: null,
  primary_category: null,
  website: null,
  hours: null,
};

describe('healthOf', () => {
  it('a location complete in every field -> 100, green, nothing to explain or raise', () => {
    expect(healthOf(FULL)).toEqual({ score: 100, status: 'green', issues: [], hints: [] });
  });

  it("complete in the spec's fields only -> 80, still green, the listing fields as hints", () => {
    const spec = { ...FULL, phone: null, primary_category: null, website: null, hours: null };
    expect(healthOf(spec)).toEqual({
      score: 80,
      status: 'green',
      issues: [],
      hints: ['No phone number', 'No primary category', 'No website', 'No opening hours'],
    });
  });

  it('a name alone -> 0, red, every piece named', () => {
    expect(healthOf(NONE)).toMatchObject({ score: 0, status: 'red', hints: [] });
    expect(healthOf(NONE).issues).toHaveLength(10);
  });

  it.each([
    ['no place id', { google_place_id: null }, 80, 'green'],
    ['a malformed place id', { google_place_id: 'abc' }, 80, 'green'],
    ['no state', { state: null }, 90, 'green'],
    ['a zip that does not fit the country', { zip: 'ABCDE' }, 88, 'green'],
    ['no phone', { phone: null }, 90, 'green'],
    ['no address and no place id', { address: null, google_place_id: null }, 60, 'yellow'],
    ['a zip without a country', { country: null }, 80, 'green'],
    ['only a city and a country', { ...NONE, city: 'X', country: 'US' }, 18, 'red'],
  ] as const)('%s -> %i, %s', (_case, change, score, status) => {
    const health = healthOf({ ...FULL, ...change });
    expect(health).toMatchObject({ score, status });
    expect(health.issues.length + health.hints.length).toBeGreaterThan(0);
  });

  it('the thresholds: green from 80, yellow from 50', () => {
    expect([statusOf(80), statusOf(79), statusOf(50), statusOf(49)]).toEqual(['green', 'yellow', 'yellow', 'red']);
  });

  it('the score is the points of what is there, and every piece missing is named once', () => {
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
          phone: text,
          primary_category: text,
          website: text,
          hours: fc.option(fc.constant({}), { nil: null }),
        }),
        (location) => {
          const health = healthOf(location);
          return health.score <= 100 && (health.score === 100) === (health.issues.length + health.hints.length === 0);
        },
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
      normalizeRow({ name: '  Downtown ', address: '', city: ' Springfield', country: 'usa', zip: null }, 3, false),
    ).toEqual({
      index: 3,
      id: null,
      input: { name: 'Downtown', address: null, city: 'Springfield', country: 'US', zip: null },
      phoneText: null,
      phoneExtension: null,
    });
  });

  it('names every wrong field of a row by index and field, worded from the schema', () => {
    const errors = normalizeRow({ name: 5, zip: 'x'.repeat(21), shoe: '555', country: 'Mars' }, 7, false);
    expect(Array.isArray(errors)).toBe(true);
    expect(
      (errors as { field: string; row: number; message: string }[]).map((error) => [error.field, error.message]).sort(),
    ).toEqual([
      ['name', 'must be text'],
      ['shoe', '"shoe" is not a field of a location'],
      ['zip', 'is longer than 20 characters'],
    ]);
  });

  it('a blank name is missing; a country that is none is refused', () => {
    const errors = normalizeRow({ name: '   ', country: 'Mars' }, 0, false) as { field: string; message: string }[];
    expect(errors.map((error) => error.field).sort()).toEqual(['country', 'name']);
  });

  it.each([null, 5, 'text', [], [{ name: 'A' }]])('a row that is not an object (%j) -> one error', (row) => {
    expect(normalizeRow(row, 0, false)).toEqual([expect.objectContaining({ row: 0, path: '/rows/0' })]);
  });

  it('a national phone number on a row without a country waits for the matched location in upsert', () => {
    expect(normalizeRow({ name: 'A', phone: '(415) 555-0100' }, 0, true)).toMatchObject({
      phoneText: '(415) 555-0100',
    });
    expect(normalizeRow({ name: 'A', phone: '(415) 555-0100' }, 0, false)).toEqual([
      expect.objectContaining({ field: 'phone', message: expect.stringMatching(/needs a country/) }),
    ]);
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
