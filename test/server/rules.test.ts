import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryCode } from '../../server/locations/country.js';
import { labelsToChange } from '../../server/locations/fields.js';
import { labelsAfter, tooManyLabelsWords } from '../../server/locations/label-changes.js';
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

  it('a state lowers the score only where addresses need one (Google address data: US, CA, AU, IT, JP, …) or the country is not known', () => {
    const london = { ...FULL, country: 'GB', zip: 'W1D 3QU', state: null };
    expect(healthOf(london)).toMatchObject({ score: 100, issues: [], hints: [] });
    for (const country of ['DE', 'FR', 'NL', 'IE', 'NZ'])
      expect(healthOf({ ...london, zip: null, country }).score).toBe(88);
    for (const country of ['US', 'CA', 'AU', 'IT', 'JP', 'BR', 'IN', 'MX', 'RU'])
      expect(healthOf({ ...london, zip: null, country })).toMatchObject({
        score: 78,
        issues: ['No state or province', 'No postal code'],
      });
    expect(healthOf({ ...london, country: null }).issues).toContain('No state or province');
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
    // The short names of French, Italian and Spanish sheets (a walk's "États-Unis" was refused).
    ['États-Unis', 'US'],
    ['etats-unis', 'US'],
    ['Stati Uniti', 'US'],
    ['EE. UU.', 'US'],
    ['Estados Unidos de América', 'US'],
    ['Grande-Bretagne', 'GB'],
    ['Großbritannien', 'GB'],
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
      notClosedForGood: false,
      seen: null,
    });
  });

  it('names every wrong field of a row by index and field, worded from the schema', () => {
    const errors = normalizeRow({ name: 5, zip: 'x'.repeat(21), shoe: '555', country: 'Mars', City: 'Oslo' }, 7, false);
    expect(Array.isArray(errors)).toBe(true);
    expect(
      (errors as { field: string; row: number; message: string }[]).map((error) => [error.field, error.message]).sort(),
    ).toEqual([
      // A field but for its case: named (a walk's script sent "Country").
      ['City', '"City" is not a field of a location: did you mean "city"?'],
      ['name', 'must be text'],
      ['shoe', '"shoe" is not a field of a location'],
      ['zip', 'is longer than 20 characters'],
    ]);
  });

  it('a C1 control character (what another encoding read as Windows-1252 leaves) is refused, as C0 ones are', () => {
    const errors = normalizeRow({ name: 'Café', city: 'Besan\u008Dcon' }, 0, false) as {
      field: string;
      message: string;
    }[];
    expect(errors).toEqual([expect.objectContaining({ field: 'city', message: 'holds the control character U+008D' })]);
  });

  it("reads a sheet's cells as Excel meant them (found by a probe with real files)", () => {
    const read = (row: Record<string, unknown>) => normalizeRow({ name: 'A', ...row }, 0, false);
    const messages = (row: Record<string, unknown>) =>
      (read(row) as { field: string; message: string }[]).map((error) => [error.field, error.message]);
    // A formula's error is refused, naming it; #N/A is a placeholder (a lookup that found nothing).
    expect(messages({ address: '#REF!', city: '#VALUE!' })).toEqual([
      ['address', '"#REF!" is an Excel formula\'s error: fix the formula in the sheet, or clear the cell'],
      ['city', '"#VALUE!" is an Excel formula\'s error: fix the formula in the sheet, or clear the cell'],
    ]);
    expect(read({ city: '#N/A' })).toMatchObject({ input: { city: null } });
    // Excel's text mark before a number is dropped; before words it is the value's own.
    expect(read({ zip: "'02116", store_code: "'00123", latitude: "'42.35", country: 'US' })).toMatchObject({
      input: { zip: '02116', store_code: '00123', latitude: 42.35 },
    });
    expect(read({ address: "'Round the Corner" })).toMatchObject({ input: { address: "'Round the Corner" } });
    // A store code Excel turned into scientific notation cannot be read back: refused, as such a phone is.
    expect(messages({ store_code: '1.00E+05' })[0]![1]).toMatch(/^"1.00E\+05" is a code Excel turned into a number/);
    expect(messages({ store_code: '1.23457E+11' })[0]![0]).toBe('store_code');
    expect(read({ store_code: '4E2' })).toMatchObject({ input: { store_code: '4E2' } });
    // A code Excel made a date of, shown in its date form (10-01 as 1-Oct): refused, saying so.
    for (const code of ['1-Oct', '14-Mar', 'May-24'])
      expect(messages({ store_code: code })[0]![1], code).toMatch(/is a code Excel turned into a date/);
    expect(read({ store_code: 'OCT-1' })).toMatchObject({ input: { store_code: 'OCT-1' } });
    // Invisible format characters at the ends go as spaces do; inside a value they stay.
    expect(read({ store_code: '\u200B00123\u2060', city: '\u200EKöln\u00AD' })).toMatchObject({
      input: { store_code: '00123', city: 'Köln' },
    });
    expect(read({ name: 'A\u200Db' })).toMatchObject({ input: { name: 'A\u200Db' } });
  });

  it('a phone Excel turned into a number, its "+" or its trunk 0 gone, is read the one way it can be, else refused naming both', () => {
    const read = (row: Record<string, unknown>) => normalizeRow({ name: 'A', ...row }, 0, false);
    const phone = (text: string, country: string) =>
      (read({ phone: text, country }) as { input: { phone: string } }).input.phone;
    // Found by a probe: Excel's number of +493511234567 was stored as +49 4935 11234567, which is valid too;
    // and by a review: Emden's 04921 123456 becomes 4921123456, valid as +49 21123456 too. Neither is guessed.
    for (const [text, international, national] of [
      ['493511234567', '+493511234567', '+49493511234567'],
      ['4921123456', '+4921123456', '+494921123456'],
    ])
      expect(read({ phone: text, country: 'DE' })).toEqual([
        expect.objectContaining({
          field: 'phone',
          message: `"${text}" may be ${international} (an international number, its + dropped) or ${national} (a national one, its leading 0 dropped), as Excel drops both: write it with its + or its leading 0`,
        }),
      ]);
    // One reading alone is valid: that one.
    expect(phone('33142685300', 'FR')).toBe('+33142685300');
    // Italy's 0 is the number's own: Rome's 06 12345678 saved by Excel as 612345678 gets it back (found by a
    // probe); a mobile number, valid as written, stays.
    expect(phone('612345678', 'IT')).toBe('+390612345678');
    expect(phone('3391234567', 'IT')).toBe('+393391234567');
    expect(phone('442079460000', 'GB')).toBe('+442079460000');
    // National numbers as written: with the trunk 0, or without it and not the calling code.
    expect(phone('0351 1234567', 'DE')).toBe('+493511234567');
    expect(phone('3511234567', 'DE')).toBe('+493511234567');
    // Italy dials without a trunk prefix: 390 123 4567 is a mobile number there, read as written.
    expect(phone('3901234567', 'IT')).toBe('+393901234567');
    expect(phone('12175550142', 'US')).toBe('+12175550142');
  });

  it('a blank name is missing; a country that is none is refused', () => {
    const errors = normalizeRow({ name: '   ', country: 'Mars' }, 0, false) as { field: string; message: string }[];
    expect(errors.map((error) => error.field).sort()).toEqual(['country', 'name']);
  });

  it.each([null, 5, 'text', [], [{ name: 'A' }]])('a row that is not an object (%j) -> one error', (row) => {
    expect(normalizeRow(row, 0, false)).toEqual([expect.objectContaining({ row: 0, path: '/rows/0' })]);
  });

  it('labels sent as a list are read as a text field is: controls refused, blanks and placeholders left out', () => {
    const labelsOf = (labels: unknown) => normalizeRow({ name: 'A', labels }, 0, false);
    const refusal = (labels: unknown) => (labelsOf(labels) as { field: string; message: string }[])[0]!.message;
    expect(refusal(['\u0000z'])).toMatch(/control character U\+0000/);
    expect(refusal(['q\u0007'])).toMatch(/control character U\+0007/);
    expect(refusal(['west\neast'])).toBe('"west\neast" holds a tab or a line break; a label is one line');
    expect(refusal('west\neast, north')).toBe('"west\neast" holds a tab or a line break; a label is one line');
    expect(labelsOf(['\u200b', ' ', 'N/A', '-', 'west'])).toMatchObject({ input: { labels: ['west'] } });
    expect(labelsOf('west, \u200b, east')).toMatchObject({ input: { labels: ['west', 'east'] } });
    // A cell's text is read label by label, as a list is: what a CSV column and the editor send.
    expect(labelsOf('summer, N/A, -')).toMatchObject({ input: { labels: ['summer'] } });
    expect(labelsOf(['\u200b', 'N/A'])).toMatchObject({ input: { labels: null } });
    // Repeats are left out before counting: ten labels and a repeat are ten.
    const ten = Array.from({ length: 10 }, (_, n) => `l${n}`);
    expect(labelsOf([...ten, 'l0'])).toMatchObject({ input: { labels: ten } });
    expect(refusal([...ten, 'l10'])).toBe('has 11 labels; a location takes at most 10');
  });

  it('a national phone number on a row without a country waits for the matched location in upsert', () => {
    expect(normalizeRow({ name: 'A', phone: '(415) 555-0100' }, 0, true)).toMatchObject({
      phoneText: '(415) 555-0100',
    });
    expect(normalizeRow({ name: 'A', phone: '(415) 555-0100' }, 0, false)).toEqual([
      expect.objectContaining({ field: 'phone', message: expect.stringMatching(/needs a country/) }),
    ]);
  });

  it('a number written with a calling code no country has is told so, not to write one (a probe)', () => {
    for (const [phone, words] of [
      ['+999 1234', '"+999 1234" starts with +999, which is no country\'s calling code'],
      ['+0 123', '"+0 123" starts with +0, which is no country\'s calling code'],
      ['+ 1', '"+ 1" is too short to be a phone number'],
    ]) {
      expect(normalizeRow({ name: 'A', phone }, 0, false)).toEqual([
        expect.objectContaining({ field: 'phone', message: words }),
      ]);
    }
    // An international prefix of 00 needs the country to be read: it says so, as before.
    expect(normalizeRow({ name: 'A', phone: '0049 30 1234567' }, 0, false)).toEqual([
      expect.objectContaining({ field: 'phone', message: expect.stringMatching(/needs a country/) }),
    ]);
    expect(normalizeRow({ name: 'A', country: 'DE', phone: '0049 30 1234567' }, 0, false)).toMatchObject({
      input: { phone: '+49301234567' },
    });
  });
});

describe('labels a bulk edit adds and removes', () => {
  it("keeps the location's own in their order, adds those it lacks, takes the removed off; none left is null", () => {
    expect(labelsAfter(['flagship', 'café'], { add: ['summer', 'café'], remove: [] })).toEqual([
      'flagship',
      'café',
      'summer',
    ]);
    expect(labelsAfter(null, { add: ['summer'], remove: ['summer'] })).toBeNull();
    expect(labelsAfter(['bakery'], { add: [], remove: ['bakery'] })).toBeNull();
  });

  it('compares as the labels rule keeps them apart: trimmed on reading, case and accents counting', () => {
    const add = labelsToChange([' summer ', 'summer', ''], 'add')!;
    expect(add).toEqual(['summer']);
    expect(labelsAfter(['Bakery', 'cafe'], { add, remove: labelsToChange(['bakery', 'café'], 'remove')! })).toEqual([
      'Bakery',
      'cafe',
      'summer',
    ]);
  });

  it('reads the lists by the labels rule: 10 to add at most, any number to remove', () => {
    const eleven = Array.from({ length: 11 }, (_, n) => `l${n}`);
    expect(() => labelsToChange(eleven, 'add')).toThrow('has 11 labels; a location takes at most 10');
    expect(labelsToChange(eleven, 'remove')).toHaveLength(11);
    expect(() => labelsToChange(['a,b'], 'remove')).toThrow('holds a comma');
    expect(() => labelsToChange(['q\u0007'], 'add')).toThrow(/control character U\+0007/);
    // A placeholder is no label to add; one to remove is a label "N/A" stored before, by its name.
    expect(labelsToChange(['N/A', 'summer'], 'add')).toEqual(['summer']);
    expect(labelsToChange(['N/A'], 'remove')).toEqual(['N/A']);
    expect(labelsToChange(['  '], 'add')).toBeNull();
  });

  it('words a refusal for more than 10 labels with how many locations and the first of them', () => {
    expect(tooManyLabelsWords([{ name: 'Pike Street', labels: 12 }])).toMatch(
      /^1 location would have more than 10 labels \(Pike Street would have 12\): take some off it first/,
    );
    expect(
      tooManyLabelsWords([
        { name: 'Harbor', labels: 11 },
        { name: 'Pike Street', labels: 12 },
      ]),
    ).toMatch(/^2 locations would have more than 10 labels \(Harbor would have 11\): take some off them first/);
  });
});

describe("an import row's Closed read into its status (Yext's closed)", () => {
  /**
   * The status a row stores, or its errors as "field: message"; "not closed for good" for a Closed no
   * with no Status: the import opens a location closed for good and leaves any other as it is.
   */
  const statusOf = (row: Record<string, unknown>) => {
    const read = normalizeRow({ name: 'A', ...row }, 0, false);
    if (Array.isArray(read)) return read.map((error) => `${error.field}: ${error.message}`);
    return read.notClosedForGood ? 'not closed for good' : read.input.status;
  };

  it.each([
    ['Yes', 'permanently_closed'],
    ['y', 'permanently_closed'],
    ['TRUE', 'permanently_closed'],
    ['1', 'permanently_closed'],
    ['x', 'permanently_closed'],
    ['closed', 'permanently_closed'],
    ['Permanently closed', 'permanently_closed'],
    ['CLOSED_PERMANENTLY', 'permanently_closed'],
    ['No', 'not closed for good'],
    ['n', 'not closed for good'],
    ['false', 'not closed for good'],
    ['0', 'not closed for good'],
    ['Open', 'not closed for good'],
  ])('Closed %j alone -> %s', (closed, status) => {
    expect(statusOf({ closed })).toBe(status);
  });

  it.each([
    ['', null],
    ['  ', null],
    ['N/A', null],
    ['-', null],
  ])('a blank Closed (%j) says nothing: the status is blank, and a blank keeps the stored one', (closed, status) => {
    expect(statusOf({ closed })).toBe(status);
    expect(statusOf({ closed, status: 'temporarily closed' })).toBe('temporarily_closed');
  });

  it.each([
    ['open', 'no', 'open'],
    ['temporarily closed', 'no', 'temporarily_closed'],
    ['permanently closed', 'yes', 'permanently_closed'],
    ['', 'yes', 'permanently_closed'],
    ['n/a', 'no', 'not closed for good'],
  ])('Status %j with Closed %j agree -> %s', (status, closed, stored) => {
    expect(statusOf({ status, closed })).toBe(stored);
  });

  it.each([
    ['open', 'yes'],
    ['temporarily closed', 'Yes'],
    ['Inactive', '1'],
    ['permanently closed', 'no'],
    ['CLOSED_PERMANENTLY', 'open'],
  ])('Status %j with Closed %j disagree -> one error on status naming both', (status, closed) => {
    expect(statusOf({ status, closed })).toEqual([
      expect.stringMatching(
        new RegExp(`^status: Status "${status}" and Closed "${closed}" disagree: Closed (yes|no) means`),
      ),
    ]);
  });

  it.each(['maybe', 'temporarily closed', 'unknown yet', 'vielleicht', '2'])(
    'Closed %j, neither yes nor no -> an error on status naming the value and the words',
    (closed) => {
      expect(statusOf({ closed })).toEqual([
        expect.stringMatching(
          new RegExp(`^status: Closed "${closed}" is not a yes or no.*: Closed takes yes, y, true`),
        ),
      ]);
    },
  );

  it("a Status refused on its own is one error, not two; a Closed of the wrong type is the schema's", () => {
    expect(statusOf({ status: 'shut', closed: 'yes' })).toEqual([
      'status: "shut" is not a status: write open, temporarily_closed or permanently_closed (their words, such as "Temporarily closed" or CLOSED_PERMANENTLY, are read too)',
    ]);
    expect(statusOf({ closed: 1 })).toEqual([
      'closed: must be yes or no: text such as "Yes" or "No", true or false, or blank',
    ]);
    expect(statusOf({ closed: 'x'.repeat(41) })).toEqual(['closed: is longer than 40 characters']);
    expect(statusOf({ closed: 'ye\u0000s' })).toEqual([expect.stringMatching(/^status: .*control character/)]);
  });
});

describe('SortedUuids', () => {
  const all = (count: number, piece: number, now?: number) => {
    const ids = new SortedUuids(count, now);
    const taken: string[] = [];
    for (let part = ids.take(piece); part.length > 0; part = ids.take(piece)) taken.push(...part);
    return taken;
  };
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  /** The Unix milliseconds of a version-7 UUID: its first 48 bits. */
  const timeOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

  it('gives version-7 UUIDs of the given time, all different, in ascending order across pieces, and never the same list twice', () => {
    const now = Date.parse('2026-12-06T11:30:00.123Z');
    const ids = all(20_000, 3_000, now);
    expect(ids).toHaveLength(20_000);
    expect(ids.filter((id) => !V7.test(id))).toEqual([]);
    expect(ids.filter((id) => timeOf(id) !== now)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(all(5, 5, now)).not.toEqual(all(5, 5, now));
  });

  it("follows every id made at an earlier time (an import's ids add to the end of the id index)", () => {
    const earlier = all(1_000, 1_000, Date.parse('2026-12-06T11:30:00.000Z'));
    const later = all(1_000, 1_000, Date.parse('2026-12-06T11:30:00.001Z'));
    expect(later[0]! > earlier.at(-1)!).toBe(true);
    // The time now, when none is given.
    const before = Date.now();
    const [id] = all(1, 1);
    expect(timeOf(id!)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id!)).toBeLessThanOrEqual(Date.now());
  });

  it('counts up to its last id without a repeat: the most ids it gives at a time', () => {
    const ids = all(131_072, 50_000);
    expect(ids).toHaveLength(131_072);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.filter((id) => !V7.test(id))).toEqual([]);
  });

  it('0 and 1, and no more than asked for', () => {
    expect(all(0, 10)).toEqual([]);
    expect(all(1, 10)).toHaveLength(1);
    const ids = new SortedUuids(3);
    expect(ids.take(2)).toHaveLength(2);
    expect(ids.take(2)).toHaveLength(1);
    expect(ids.take(2)).toEqual([]);
  });

  it('refuses more ids than its counter can order', () => {
    expect(() => new SortedUuids(131_073)).toThrow(RangeError);
  });
});
