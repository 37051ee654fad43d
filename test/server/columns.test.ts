import { describe, expect, it } from 'vitest';
import { joinAddress, numberBeforeStreet } from '../../server/imports/address.js';
import { headerSetKey, matchHeader, matchHeaders, mapHeaders } from '../../server/imports/columns.js';
import { junkReason, type JunkContext } from '../../server/imports/junk-rows.js';
import { lookOfValues } from '../../server/imports/look.js';
import { isPlaceholder, PLACEHOLDERS, placeholderSet } from '../../server/imports/placeholders.js';
import { fieldValue } from '../../server/locations/fields.js';
import { dayIntervals, weekHours } from '../../server/locations/hours.js';

/** The same intervals Monday to Friday, the rest of the week unknown. */
const weekdays = (intervals: string[][]) => ({
  mon: intervals,
  tue: intervals,
  wed: intervals,
  thu: intervals,
  fri: intervals,
});

describe('matchHeaders: the exports agencies are sent', () => {
  it('maps a Yext entity export by its "Address > ..." paths', () => {
    const headers = [
      'Entity ID',
      'Name',
      'Address > Line 1',
      'Address > Line 2',
      'Address > City',
      'Address > Region',
      'Address > Postal Code',
      'Address > Country Code',
      'Main Phone',
      'Website URL > URL',
      'Display Coordinate > Latitude',
      'Display Coordinate > Longitude',
    ];
    expect(mapHeaders(headers)).toEqual([
      'store_code',
      'name',
      'address',
      'address',
      'city',
      'state',
      'zip',
      'country',
      'phone',
      'website',
      'latitude',
      'longitude',
    ]);
    expect(matchHeader('Name')).toEqual({ field: 'name', matched_by: 'name', score: 1 });
    expect(matchHeader('Main Phone')).toEqual({ field: 'phone', matched_by: 'synonym', score: 1 });
  });

  it("maps Uberall's camelCase columns", () => {
    expect(
      mapHeaders([
        'identifier',
        'name',
        'streetAndNumber',
        'addressExtra',
        'zip',
        'city',
        'province',
        'country',
        'phone',
        'openingHours',
      ]),
    ).toEqual(['store_code', 'name', 'address', 'address', 'zip', 'city', 'state', 'country', 'phone', 'hours']);
  });
});

describe('matchHeaders: other sources and languages', () => {
  it("maps BrightLocal's slashed headers and German, French, Spanish, Italian and Dutch sheets", () => {
    expect(mapHeaders(['Location Name', 'Location Reference', 'State/County', 'Postcode/ZIP', 'Telephone'])).toEqual([
      'name',
      'store_code',
      'state',
      'zip',
      'phone',
    ]);
    expect(mapHeaders(['Filiale', 'Straße', 'Hausnummer', 'PLZ', 'Ort', 'Bundesland', 'Land'])).toEqual([
      'name',
      'address',
      'street_number',
      'zip',
      'city',
      'state',
      'country',
    ]);
    // Found by a probe: a German sheet's "Filialnr." went unmapped, and its codes with it.
    expect(mapHeaders(['Filialnr.', 'Filiale', 'PLZ'])).toEqual(['store_code', 'name', 'zip']);
    expect(mapHeaders(['Filial-Nr.', 'Filialname'])[0]).toBe('store_code');
    expect(mapHeaders(['Nom', 'Adresse', 'Complément', 'Code postal', 'Ville', 'Pays'])).toEqual([
      'name',
      'address',
      'address',
      'zip',
      'city',
      'country',
    ]);
    expect(mapHeaders(['Nombre', 'Dirección', 'Código postal', 'Ciudad', 'Provincia'])).toEqual([
      'name',
      'address',
      'zip',
      'city',
      'state',
    ]);
    expect(mapHeaders(['Nome', 'Indirizzo', 'CAP', 'Città', 'Provincia'])).toEqual([
      'name',
      'address',
      'zip',
      'city',
      'state',
    ]);
    expect(mapHeaders(['Naam', 'Straat', 'Huisnummer', 'Postcode', 'Plaats'])).toEqual([
      'name',
      'address',
      'street_number',
      'zip',
      'city',
    ]);
  });
});

describe('matchHeaders: near misses, one column per field, header sets', () => {
  it('finds near misses with a score, and says so', () => {
    expect(matchHeader('Postal Cod')).toEqual({ field: 'zip', matched_by: 'fuzzy', score: 0.91 });
    expect(matchHeader('Phone Number (main)')).toMatchObject({ field: 'phone', matched_by: 'synonym' });
    expect(matchHeader('Number: main phone')).toEqual({ field: 'phone', matched_by: 'fuzzy', score: 0.99 });
    expect(matchHeader('Telephon')).toEqual({ field: 'phone', matched_by: 'fuzzy', score: 0.89 });
    expect(matchHeader('Zip Cde')).toMatchObject({ field: 'zip', matched_by: 'fuzzy' });
  });

  it('never guesses a short or far header, nor a header Agency Desk has no field for', () => {
    expect(matchHeader('Notes')).toEqual({ field: null, matched_by: null, score: 0 });
    expect(matchHeader('Status code')).toMatchObject({ field: null });
    expect(matchHeader('Fax number')).toMatchObject({ field: null });
    expect(matchHeader('Additional phones')).toMatchObject({ field: null });
    expect(matchHeader('')).toMatchObject({ field: null });
  });

  it('gives a field to one column only, an exact match before a near miss', () => {
    const matches = matchHeaders(['Postal Cod', 'ZIP']);
    expect(matches.map((match) => match.field)).toEqual([null, 'zip']);
  });

  it('keys a header set whatever its order, case or accents', () => {
    expect(headerSetKey(['Name', 'Straße', 'PLZ'])).toBe(headerSetKey(['plz', 'STRASSE', 'name', '']));
    expect(headerSetKey(['Name', 'City'])).not.toBe(headerSetKey(['Name', 'Town']));
  });
});

describe('joinAddress: as the country writes it', () => {
  it('puts the house number after the street in Germany, before it in the US, the UK and France', () => {
    expect(joinAddress({ lines: ['Prager Straße'], houseNumber: '90a', country: 'DE' })).toBe('Prager Straße 90a');
    expect(joinAddress({ lines: ['Main St', 'Suite 4'], houseNumber: '90a', country: 'US' })).toBe(
      '90a Main St, Suite 4',
    );
    expect(joinAddress({ lines: ['Baker Street'], houseNumber: '221b', country: 'England' })).toBe('221b Baker Street');
    expect(joinAddress({ lines: ['rue de la Paix', 'Bât. B'], houseNumber: '12', country: 'France' })).toBe(
      '12 rue de la Paix, Bât. B',
    );
    expect(joinAddress({ lines: ['Damrak'], houseNumber: '1', country: '' })).toBe('Damrak 1');
    expect(numberBeforeStreet('nl')).toBe(false);
  });

  it('joins further lines with the separator asked for, leaving blank parts out', () => {
    expect(
      joinAddress({ lines: ['Hauptstr.', '', 'Hinterhaus'], houseNumber: '3', country: 'AT', separator: ' / ' }),
    ).toBe('Hauptstr. 3 / Hinterhaus');
    expect(joinAddress({ lines: [' ', ''], houseNumber: '', country: 'DE' })).toBe('');
    expect(joinAddress({ lines: [], houseNumber: '7', country: 'DE' })).toBe('7');
  });
});

describe('lookOfValues: an unmapped column that looks like a field', () => {
  it('tells postal codes, country codes, phone numbers and states', () => {
    expect(lookOfValues(['10115', '80331', 'SW1A 1AA', '1012 AB', ''])).toMatchObject({ field: 'zip' });
    expect(lookOfValues(['US', 'GB', 'de', 'FR'])).toMatchObject({ field: 'country', share: 1 });
    expect(lookOfValues(['+49 30 1234567', '(217) 555-0142', '030/12345678'])).toMatchObject({ field: 'phone' });
    expect(lookOfValues(['CA', 'NY', 'TX', 'Ontario'])).toMatchObject({ field: 'state' });
  });

  it('says nothing of a column of words, numbers of another kind, or blanks', () => {
    expect(lookOfValues(['Berlin Mitte', 'Hamburg Altona'])).toBeNull();
    expect(lookOfValues(['12', '7', '3'])).toBeNull();
    expect(lookOfValues(['', ' '])).toBeNull();
    expect(lookOfValues(['10115', 'n/a', 'call us', 'later', 'x'])).toBeNull();
    // Dates are no phones (a walk's "Opening date" column was offered as Phone).
    expect(lookOfValues(['2019-04-01', '2020-11-15', '2018-01-09'])).toBeNull();
    expect(lookOfValues(['01/04/2019', '15.11.2020', '4/1/19'])).toBeNull();
  });
});

describe('junkReason: rows that are not locations', () => {
  const headers = ['Name', 'Street', 'City', 'Phone'];
  const context: JunkContext = { headers, nameColumn: 0, mappedColumns: [0, 1, 2, 3] };

  it('flags a repeated header row, totals rows and a lone number', () => {
    expect(junkReason(['Name', 'Street', 'City', 'Phone'], context)).toBe('repeated header row');
    expect(junkReason(['name', 'STREET', '', ''], context)).toBe('repeated header row');
    expect(junkReason(['Total', '', '', ''], context)).toBe('totals or summary row');
    expect(junkReason(['TOTAL LOCATIONS: 46', '', '', ''], context)).toBe('totals or summary row');
    expect(junkReason(['', '', 'Grand total', '46'], context)).toBe('totals or summary row');
    expect(junkReason(['', '', '', '46'], context)).toBe('totals or summary row');
    // Found by a probe: a count with its word after it, and a colon waiting for the count in the next cell.
    for (const cell of ['Summe: 4 Filialen', 'Gesamt 12 Standorte', 'Total: 46 locations', 'Grand Total:', 'Total 46'])
      expect(junkReason([cell, '', '', '4'], context), cell).toBe('totals or summary row');
    // A header in another order is most of a row; one header word alone is none (Street in the name column).
    expect(junkReason(['Street', '', '', ''], context)).toBe('only a name, nothing else');
    expect(junkReason(['City', 'Name', 'Street', ''], context)).toBe('header in another order');
    // Found by a review: names and an address that start with the word and a number are locations.
    for (const cells of [
      ['Total 24 Fitness', '1 Main St', 'Austin', ''],
      ['Sum 41 Sushi', '', 'Leeds', ''],
      ['Praxis', 'Gesamt 2 Etagen', 'Köln', ''],
    ])
      expect(junkReason(cells, context), cells[0]).toBeNull();
  });

  it('finds a header repeated as headerKey reads it: marks, accents, ß and punctuation at either end', () => {
    const written = ['Name (required)', 'Straße*', 'Ville / Cité', 'Téléphone #'];
    const otherwise = ['NAME (Required)', 'strasse', 'ville cite', 'telephone'];
    const marked: JunkContext = { headers: written, nameColumn: 0, mappedColumns: [0, 1, 2, 3] };
    expect(junkReason(otherwise, marked)).toBe('repeated header row');
    expect(junkReason(['name', 'STRASSE.', 'Ville-Cité', 'Téléphone'], marked)).toBe('repeated header row');
    // Its last letter rules out a data cell that starts as the header does; the first and the last alike still compare whole.
    expect(junkReason(['Nails & Spa', 'Strand 12', 'Villeneuve', 'Tel +33 1'], marked)).toBeNull();
    expect(junkReason(['Name', 'Straße', 'Ville', 'Téléphone'], marked)).toBeNull();
  });

  it('flags a row with only a name, placeholders counting as blank', () => {
    expect(junkReason(['Acme Berlin', '', 'N/A', ' - '], context)).toBe('only a name, nothing else');
    expect(junkReason(['Acme Berlin', '', 'TBD', ''], { ...context, placeholders: ['TBD'] })).toBe(
      'only a name, nothing else',
    );
    expect(junkReason(['Acme Berlin', '', '', ''], { ...context, mappedColumns: [0] })).toBeNull();
  });

  it("flags the Template CSV's example row by its name, spaces around it or not; a longer name is a location", () => {
    expect(junkReason(['Example Coffee Downtown', '123 Main Street', 'Springfield', ''], context)).toBe(
      'the template’s example row',
    );
    expect(junkReason(['  Example Coffee Downtown ', '', '', ''], context)).toBe('the template’s example row');
    expect(junkReason(['Example Coffee Downtown West', '1 Elm St', 'Springfield', ''], context)).toBeNull();
  });

  it('keeps real locations, a chain named "Total ..." among them', () => {
    expect(junkReason(['Total Wine & More', '1 Main St', 'Austin', ''], context)).toBeNull();
    expect(junkReason(['Acme', 'Name', 'Berlin', ''], context)).toBeNull();
    expect(junkReason(['', '', '', ''], context)).toBeNull();
  });
});

describe('placeholders: one list', () => {
  it('lists what the server reads as blank, and the server applies it', () => {
    expect(PLACEHOLDERS).toEqual(expect.arrayContaining(['N/A', 'NA', '#N/A', '-', '--', 'none', 'null', 'TBD']));
    for (const word of ['N/A', 'n/a', 'na', '#N/A', '---', 'None', 'NULL', 'tbd', '??']) {
      expect(isPlaceholder(word)).toBe(true);
      expect(fieldValue('city', word, null)).toBeNull();
    }
    expect(isPlaceholder('NA', 'country')).toBe(false);
    expect(isPlaceholder('Nashville')).toBe(false);
  });

  it('takes an edited list', () => {
    const words = placeholderSet(['TBD', 'ask client']);
    expect(isPlaceholder('Ask Client', undefined, words)).toBe(true);
    expect(isPlaceholder('N/A', undefined, words)).toBe(false);
    expect(isPlaceholder('---', undefined, words)).toBe(false);
    // A run of dashes is a placeholder while "-" is in the list, as in the default one.
    expect(isPlaceholder('---', undefined, placeholderSet(['-']))).toBe(true);
    expect(isPlaceholder('??', undefined, placeholderSet(['-']))).toBe(false);
    // A word of its own may be longer than the default list's words.
    expect(isPlaceholder('Da definire', undefined, placeholderSet(['N/A', 'da definire']))).toBe(true);
    expect(isPlaceholder('Da definire')).toBe(false);
  });
});

describe('headers of numbers and weak names (found by a probe)', () => {
  const fields = (headers: string[]) => matchHeaders(headers).map((match) => match.field);

  it('"#" reads as number: Location # and Store # are store codes, never the name', () => {
    expect(fields(['Location #', 'Location Name', 'Address', 'City', 'State', 'Zip'])).toEqual([
      'store_code',
      'name',
      'address',
      'city',
      'state',
      'zip',
    ]);
    expect(fields(['Store #', 'Name', 'Suite #'])).toEqual(['store_code', 'name', 'suite']);
    for (const header of ['Loc #', 'Location No.', 'Shop ID', 'Kostenstelle'])
      expect(fields([header, 'Name']), header).toEqual(['store_code', 'name']);
    // The field's own name wins over a synonym (found by a review).
    expect(fields(['Name', 'Location #', 'Store Code'])).toEqual(['name', null, 'store_code']);
  });

  it('the address is said once: a whole address beside its parts, or a hidden address column beside a shown one, is left out', () => {
    const headers = ['Store Code', 'Name', 'Street', 'House number', 'Full address', 'City', 'Country'];
    expect(fields(headers)).toEqual(['store_code', 'name', 'address', 'street_number', null, 'city', 'country']);
    expect(fields(['Name', 'Full address', 'City'])).toEqual(['name', 'address', 'city']);
    // A second line is no street: beside it, the whole address stays (found by a review).
    expect(fields(['Name', 'Full address', 'Suite', 'City'])).toEqual(['name', 'address', 'suite', 'city']);
    expect(fields(['Name', 'Full address', 'House number'])).toEqual(['name', 'address', 'street_number']);
    expect(fields(['Name', 'Address line 1', 'Address line 2'])).toEqual(['name', 'address', 'address']);
    const hidden = (headers: string[], columns: number[]) =>
      matchHeaders(headers, new Set(columns)).map((match) => match.field);
    expect(hidden(['Name', 'Address', 'Address 2'], [2])).toEqual(['name', 'address', null]);
    expect(hidden(['Name', 'Address'], [1])).toEqual(['name', 'address']);
    expect(hidden(['Name', 'Street', 'House number'], [2])).toEqual(['name', 'address', 'street_number']);
  });

  it('a weak name ("Location", "Company") gives way to a surer one in any order; alone it is the name', () => {
    expect(fields(['Location', 'Location Name', 'Address'])).toEqual([null, 'name', 'address']);
    expect(fields(['Business Name', 'Company'])).toEqual(['name', null]);
    expect(fields(['Location', 'Address'])).toEqual(['name', 'address']);
    // A store locator's sheet: "Store" alone is the name; "Store #" a code; "Store Name" surer.
    expect(fields(['Store', 'Street', 'City', 'State', 'ZIP', 'Phone'])).toEqual([
      'name',
      'address',
      'city',
      'state',
      'zip',
      'phone',
    ]);
    expect(fields(['Store #', 'Store'])).toEqual(['store_code', 'name']);
    expect(fields(['Shop', 'Store Name'])).toEqual([null, 'name']);
    expect(fields(['Outlet', 'Store Code'])).toEqual(['name', 'store_code']);
  });
});

describe("Yext's legacy hours, d:oh:om:ch:cm (its Locations API and older exports)", () => {
  it('reads 1 (Sunday) to 7 (Saturday), a day twice as split hours, 1:closed, 00:00 to 00:00 all day; a day left out is closed', () => {
    expect(weekHours('2:9:00:17:00,3:9:00:17:00,7:10:00:16:00')).toEqual({
      mon: [['09:00', '17:00']],
      tue: [['09:00', '17:00']],
      wed: [],
      thu: [],
      fri: [],
      sat: [['10:00', '16:00']],
      sun: [],
    });
    expect(weekHours('1:closed, 2:09:00:12:00, 2:13:00:17:00, 7:00:00:00:00')).toMatchObject({
      sun: [],
      mon: [
        ['09:00', '12:00'],
        ['13:00', '17:00'],
      ],
      sat: [['00:00', '24:00']],
    });
  });

  it('refuses a day out of 1-7, a time that is none, and a day both closed and open', () => {
    expect(() => weekHours('8:9:00:17:00')).toThrow(/does not start with a day/);
    expect(() => weekHours('2:25:00:17:00')).toThrow(/"25:00" is not a time/);
    expect(() => weekHours('2:9:00:17:00,2:closed')).toThrow(/Mon is said to be both closed and open/);
  });
});

describe("Uberall's hours and statuses (issue 9's leftovers)", () => {
  it('reads MONDAY=08:00-16:00;... and Mo=...;Sa;Su, a day alone being closed', () => {
    expect(weekHours('MONDAY=08:00-16:00;TUESDAY=08:00-15:00&17:00-19:00;SATURDAY;SUNDAY')).toEqual({
      mon: [['08:00', '16:00']],
      tue: [
        ['08:00', '15:00'],
        ['17:00', '19:00'],
      ],
      sat: [],
      sun: [],
    });
    expect(weekHours('Mo=08:00-16:00;Tu=08:00-16:00;Sa;Su;')).toEqual({
      mon: [['08:00', '16:00']],
      tue: [['08:00', '16:00']],
      sat: [],
      sun: [],
    });
    expect(() => weekHours('Mo=08:00-16:00;Someday=09:00-10:00')).toThrow(/not a day/);
    expect(() => weekHours('Mo=8 till late')).toThrow();
  });

  it('a day named twice keeps both mentions; a day alone after a run of days says how it differs; closed and open is an error', () => {
    const nine = [['09:00', '17:00']];
    expect(weekHours('Mon 9:00-17:00, Mon 18:00-20:00')).toEqual({ mon: [...nine, ['18:00', '20:00']] });
    expect(weekHours('MONDAY=08:00-12:00;MONDAY=13:00-17:00')).toEqual({
      mon: [
        ['08:00', '12:00'],
        ['13:00', '17:00'],
      ],
    });
    expect(weekHours('Daily 9-17, Sun closed')).toMatchObject({ sat: nine, sun: [] });
    expect(weekHours('Mon-Fri 9-17, Fri 9-20')).toMatchObject({ thu: nine, fri: [['09:00', '20:00']] });
    expect(() => weekHours('Mon 9:00-17:00; Mon closed')).toThrow(/Mon is said to be both closed and open/);
    expect(() => weekHours('Mon-Fri 9-17, Mon-Wed closed')).toThrow(/both closed and open/);
    expect(() => weekHours('MONDAY=08:00-16:00;MONDAY')).toThrow(/both closed and open/);
    // A day this reader does not know is named, not the word before it.
    expect(() => weekHours('Mon-Fri 7-19, Sat 8-14, Sun closed, Funday 9-5')).toThrow(
      /^"Funday 9-5" does not start with a day$/,
    );
    expect(() => weekHours('Mon 9-17, Tue noon-18, Wed 24 hours')).not.toThrow();
    // A long value is quoted cut short, not whole (a probe's 1,000 characters came back in the message).
    expect(() => weekHours(`Someday ${'x'.repeat(990)}`)).toThrow(
      new RegExp(`^"Someday ${'x'.repeat(51)}…" does not start with a day$`),
    );
  });

  it('reads US sheets’ shorthands for days: M-F, Weekdays, Weekends; a.m. and p.m. stay times', () => {
    // Found by a walk: "M-F 9-5", the commonest hours a US client writes, was refused as starting with no day.
    const nine = [['09:00', '17:00']];
    expect(weekHours('M-F 9-5')).toEqual({ mon: nine, tue: nine, wed: nine, thu: nine, fri: nine });
    expect(weekHours('M - F 9am-5pm, Sat 10-2')).toMatchObject({ fri: nine, sat: [['10:00', '14:00']] });
    expect(weekHours('Weekdays 9-5; Weekends closed')).toMatchObject({ mon: nine, fri: nine, sat: [], sun: [] });
    expect(weekHours('Weekdays: 9 a.m. - 5 p.m., Weekend: 10 a.m. - 2 p.m.')).toMatchObject({
      wed: nine,
      sun: [['10:00', '14:00']],
    });
  });

  it("reads US sheets' short afternoon (9-5 is 09:00-17:00), and keeps what runs past midnight", () => {
    const read = (text: string) => dayIntervals(text)[0];
    // Found by a walk through the dashboard: "Mon-Fri 9-5" was saved as open 20 hours, all night.
    expect(weekHours('Mon-Fri 9-5, Sat 10-2')).toMatchObject({ mon: [['09:00', '17:00']], sat: [['10:00', '14:00']] });
    expect([read('11-9:30'), read('7-7'), read('12-8'), read('9am-5'), read('9:00-5:00')]).toEqual([
      ['11:00', '21:30'],
      ['07:00', '19:00'],
      ['12:00', '20:00'],
      ['09:00', '17:00'],
      ['09:00', '17:00'],
    ]);
    // The afternoon would close before these open: they run past midnight, as written.
    expect([read('22-2'), read('18-1'), read('9pm-5'), read('20:00-5:00')]).toEqual([
      ['22:00', '02:00'],
      ['18:00', '01:00'],
      ['21:00', '05:00'],
      ['20:00', '05:00'],
    ]);
    // A 24-hour clock's (a leading zero, or 12 and up) and an explicit am are kept.
    expect([read('09:00-05:00'), read('17h-2h'), read('10pm-5am'), read('8-12'), read('5-11')]).toEqual([
      ['09:00', '05:00'],
      ['17:00', '02:00'],
      ['22:00', '05:00'],
      ['08:00', '12:00'],
      ['05:00', '11:00'],
    ]);
    expect(() => read('12-12')).toThrow(/opens and closes at the same time/);
    // An afternoon opening written short, 1 to 4, before a 12-hour closing (a walk's "Sun 1-5" was 01:00-05:00).
    expect(weekHours('Mon-Fri 8-12, 1-5; Sat 9-1, 2-6; Sun 1-5')).toMatchObject({
      mon: [
        ['08:00', '12:00'],
        ['13:00', '17:00'],
      ],
      sat: [
        ['09:00', '13:00'],
        ['14:00', '18:00'],
      ],
      sun: [['13:00', '17:00']],
    });
    expect([read('1-5pm'), read('1:30-5:30'), read('3-11:30')]).toEqual([
      ['13:00', '17:00'],
      ['13:30', '17:30'],
      ['15:00', '23:30'],
    ]);
    // An explicit am, a 24-hour clock's leading zero or closing hour, and 5 and later are kept as written.
    expect([read('1-5am'), read('01:00-05:00'), read('1-17'), read('5-9')]).toEqual([
      ['01:00', '05:00'],
      ['01:00', '05:00'],
      ['01:00', '17:00'],
      ['05:00', '09:00'],
    ]);
  });

  it('reads the week in French, German, Spanish and Italian, and "24/7" as every day', () => {
    // Found by a walk: French headers were read, French hours refused.
    expect(weekHours('Lun-Ven 8h-19h, Sam 9h-12h, Dim fermé')).toEqual({
      ...weekdays([['08:00', '19:00']]),
      sat: [['09:00', '12:00']],
      sun: [],
    });
    expect(weekHours('lundi au vendredi 9:00-18:00')).toEqual(weekdays([['09:00', '18:00']]));
    expect(weekHours('Mo-Fr 09:00-18:00; Sa 10:00-14:00; So geschlossen')).toMatchObject({
      sat: [['10:00', '14:00']],
      sun: [],
    });
    expect(weekHours('Montag bis Freitag 8-16 Uhr')).toEqual(weekdays([['08:00', '16:00']]));
    expect(weekHours('Lunes a viernes 9-17, sáb 10-14')).toMatchObject({
      fri: [['09:00', '17:00']],
      sat: [['10:00', '14:00']],
    });
    expect(weekHours('Lun-Ven 9-13, Sab chiuso')).toMatchObject({ mon: [['09:00', '13:00']], sat: [] });
    expect(weekHours('Di-Sa 10:00-18:00')).toEqual({
      ...weekdays([['10:00', '18:00']]),
      mon: undefined,
      sat: [['10:00', '18:00']],
    });
    const always = [['00:00', '24:00']];
    expect(weekHours('24/7')).toEqual({ ...weekdays(always), sat: always, sun: always });
    expect(weekHours('Open 24 hours')).toEqual(weekHours('24/7'));
  });

  it('reads the forms Yext documents for its hours cells, and all day as sheets in five languages say it', () => {
    const allDay = [['00:00', '24:00']];
    // Yext's "Hours Field Mapping" examples: 24hr, seconds, a 24-hour clock without a colon, and
    // "12:00 AM - 12:00 AM" for a day open around the clock.
    expect(dayIntervals('24hr')).toEqual(allDay);
    expect(dayIntervals('10:00:00-12:00:00, 13:00:00-14:00:00')).toEqual([
      ['10:00', '12:00'],
      ['13:00', '14:00'],
    ]);
    expect(dayIntervals('0930-1730')).toEqual([['09:30', '17:30']]);
    expect(dayIntervals('12:00 AM - 12:00 AM')).toEqual(allDay);
    expect(dayIntervals('00:00-00:00')).toEqual(allDay);
    for (const text of [
      'open 24h',
      '24 hrs',
      '24h/24',
      '24 Stunden',
      'rund um die Uhr',
      '24 horas',
      '24 ore',
      'All day',
    ])
      expect(dayIntervals(text), text).toEqual(allDay);
    expect(weekHours('Mo-So 24 Stunden')).toEqual(weekHours('24/7'));
    expect(weekHours('Mon-Fri 09:00:00-17:00:00, Sat closed')).toMatchObject({ fri: [['09:00', '17:00']], sat: [] });
    // Still refused: a same time that is not midnight, seconds that are not :00, three digits.
    expect(() => dayIntervals('09:00-09:00')).toThrow('opens and closes at the same time');
    expect(() => dayIntervals('09:00:30-17:00')).toThrow('"09:00:30" is not a time');
    expect(() => dayIntervals('900-1700')).toThrow('"900" is not a time');
    expect(() => dayIntervals('00:00-00:00, 09:00-12:00')).toThrow('opens and closes at the same time');
  });

  it('reads German, French, Spanish and Italian "and" between intervals, day lists with "/", Ruhetag, and leaves holidays out (found by a probe)', () => {
    const split = [
      ['08:00', '12:00'],
      ['14:00', '18:00'],
    ];
    expect(weekHours('Mo-Fr 8-12 und 14-18 Uhr')).toEqual(weekdays(split));
    expect(dayIntervals('8-12 et 14-18')).toEqual(split);
    expect(dayIntervals('8-12 y 14-18')).toEqual(split);
    expect(dayIntervals('8-12 e 14-18')).toEqual(split);
    expect(weekHours('Mo/Di/Do 8-12')).toEqual({ mon: [split[0]], tue: [split[0]], thu: [split[0]] });
    expect(weekHours('Mo Ruhetag, Di-So 10-18')).toMatchObject({ mon: [], tue: [['10:00', '18:00']] });
    // Holiday hours are not regular hours: the mention goes, the days stay.
    expect(weekHours('Mo-Fr 8-18, So & Feiertage geschlossen')).toEqual({ ...weekdays([['08:00', '18:00']]), sun: [] });
    expect(weekHours('Mon-Fri 9-5, holidays closed')).toEqual(weekdays([['09:00', '17:00']]));
    expect(weekHours('Mon-Fri 9-5; closed on holidays')).toEqual(weekdays([['09:00', '17:00']]));
    // Found by the review: holidays with hours of their own are left out too; "/" between runs of days.
    expect(weekHours('Mon-Fri 9-17, Sat 10-14, holidays 10-12')).toEqual({
      ...weekdays([['09:00', '17:00']]),
      sat: [['10:00', '14:00']],
    });
    expect(weekHours('Mon-Fri 9-17 / Sat 10-14')).toEqual(weekHours('Mon-Fri 9-17, Sat 10-14'));
  });

  it('"By appointment" is no regular hours: unknown, for the week and for a day', () => {
    expect(fieldValue('hours', 'By appointment', null)).toBeNull();
    expect(fieldValue('hours', 'Nach Vereinbarung', null)).toBeNull();
    expect(fieldValue('hours', { mon: '9-17', sat: 'by appointment' }, null)).toEqual({ mon: [['09:00', '17:00']] });
  });

  it('reads ACTIVE and INACTIVE; a bare CLOSED stays refused (for now, or for good?)', () => {
    expect(fieldValue('status', 'ACTIVE', null)).toBe('open');
    expect(fieldValue('status', 'INACTIVE', null)).toBe('temporarily_closed');
    expect(() => fieldValue('status', 'CLOSED', null)).toThrow(/does not say whether for now or for good/);
  });
});

describe('hours a listing can hold (found by a hostile-input probe)', () => {
  const read = (hours: unknown) => {
    try {
      return fieldValue('hours', hours as Record<string, unknown>, 'US');
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses intervals that overlap, within a day and past midnight into the next, Sunday into Monday', () => {
    expect(
      read({
        mon: [
          ['09:00', '17:00'],
          ['12:00', '18:00'],
        ],
      }),
    ).toBe("Mon 12:00-18:00 overlaps Mon 09:00-17:00: a listing's hours may not overlap");
    expect(
      read({
        mon: [
          ['09:00', '17:00'],
          ['09:00', '17:00'],
        ],
      }),
    ).toMatch(/^Mon 09:00-17:00 overlaps Mon 09:00-17:00/);
    expect(read({ mon: [['22:00', '02:00']], tue: [['01:00', '05:00']] })).toMatch(
      /^Tue 01:00-05:00 overlaps Mon 22:00-02:00/,
    );
    expect(read({ sun: [['22:00', '02:00']], mon: [['00:00', '03:00']] })).toMatch(
      /^Mon 00:00-03:00 overlaps Sun 22:00-02:00/,
    );
    expect(read('Mon 9-17, Mon 16-20')).toMatch(/^Mon 16:00-20:00 overlaps Mon 09:00-17:00/);
    // Touching is not overlapping: a lunch break's halves, every day all day, a night into a day.
    expect(
      read({
        mon: [
          ['09:00', '12:00'],
          ['12:00', '17:00'],
        ],
      }),
    ).toEqual({
      mon: [
        ['09:00', '12:00'],
        ['12:00', '17:00'],
      ],
    });
    expect(read('24/7')).toMatchObject({ mon: [['00:00', '24:00']], sun: [['00:00', '24:00']] });
    expect(read({ mon: [['22:00', '02:00']], tue: [['02:00', '05:00']] })).toMatchObject({ tue: [['02:00', '05:00']] });
  });

  it('a day holds at most 8 intervals, however it is written', () => {
    const nine = Array.from({ length: 9 }, (_, n) => [`${String(n + 10)}:00`, `${String(n + 10)}:30`]);
    expect(read({ mon: nine })).toMatch(/^Monday: a day holds at most 8 intervals/);
    expect(read(`Mon ${nine.map((interval) => interval.join('-')).join(', ')}`)).toMatch(/at most 8 intervals/);
    expect(read(nine.map((interval) => `Mon ${interval.join('-')}`).join(', '))).toBe(
      'Mon is given more than 8 intervals, the most a day holds',
    );
    expect(read({ mon: nine.slice(0, 8) })).toMatchObject({ mon: expect.any(Array) });
  });

  it('"24:00" does not open a day (it is the next day\'s 00:00); "midnight" opens it', () => {
    expect(read({ mon: [['24:00', '02:00']] })).toBe(
      'Monday: "24:00-02:00" opens at 24:00, the end of the day: write the hours after midnight on the next day, from 00:00',
    );
    expect(read('Mon 24:00-02:00')).toMatch(/opens at 24:00/);
    expect(dayIntervals('midnight-2am')).toEqual([['00:00', '02:00']]);
    expect(dayIntervals('18:00-24:00')).toEqual([['18:00', '24:00']]);
  });

  it("a day's refused value names the day, and the forms of one day: not the week's (a walk's Wednesday cell)", () => {
    const dayForms = 'e.g. "09:00-17:00", "09:00-12:00,13:00-17:00", "9am-5pm", or "x" (closed)';
    expect(read({ wed: '5 maybe' })).toBe(
      `Wednesday: "5 maybe" is not a time range such as 09:00-17:00: write Wednesday's hours alone, ${dayForms}`,
    );
    // A week's form in one day's cell is told to write that day alone.
    expect(read({ mon: 'Mon-Fri 9:00-17:00' })).toMatch(
      /^Monday: .*: write Monday's hours alone, e\.g\. "09:00-17:00"/,
    );
    expect(read({ sat: [['9:00', 'x']] })).toMatch(/^Saturday: "x" is not a time: write Saturday's hours alone/);
    // The week's one text keeps the week's forms.
    expect(read('Mon 9 maybe')).toMatch(/write hours as e\.g\. "Mon-Fri 9:00-17:00/);
  });

  it("a day's placeholder is unknown, as the same cell of a sheet's day column is", () => {
    expect(read({ mon: 'N/A', tue: '-', wed: 'TBD', thu: '9-5' })).toEqual({ thu: [['09:00', '17:00']] });
    expect(read({ mon: 'none' })).toBeNull();
    expect(read({ mon: 'x' })).toEqual({ mon: [] });
  });
});
