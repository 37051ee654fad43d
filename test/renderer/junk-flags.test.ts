import { describe, expect, it } from 'vitest';
import { mapHeaders } from '../../renderer/src/import/header-mapping.js';
import { junkRows, JUNK_LABELS, LOCKED, namelessRows, sampleRows } from '../../renderer/src/import/junk-flags.js';
import { PLACEHOLDERS } from '../../server/imports/placeholders.js';
import { parseCsvText } from '../../renderer/src/import/parse-csv.js';

function flags(csv: string): [number, string][] {
  const table = parseCsvText(csv);
  return [...junkRows(table, mapHeaders(table.headers))].map(([row, reason]) => [row, JUNK_LABELS[reason]]);
}

describe("sampleRows: the column step's samples", () => {
  it('are the first rows that may be locations: not the header again, nor a totals row (a walk\'s showed "Name" as a name)', () => {
    const table = parseCsvText(
      ['Name,Address,City', 'Name,Address,City', 'Total,,', 'Shop,1 Main St,Leeds', 'Cafe,2 Main St,York'].join('\n'),
    );
    expect(sampleRows(table, mapHeaders(table.headers), 3)).toEqual([2, 3]);
  });

  it('are the first rows when none near the top may be a location', () => {
    const table = parseCsvText(['Name,Address,City', 'Name,Address,City', 'Total,,'].join('\n'));
    expect(sampleRows(table, mapHeaders(table.headers), 3)).toEqual([0, 1]);
  });
});

describe("namelessRows: the column step's rows without a name", () => {
  it('are the rows that may be locations: a totals row has no name either, and the next step says it is one (a walk)', () => {
    const table = parseCsvText(
      [
        'Filiale,Straße,PLZ,Ort',
        'Bäckerei Mitte,Hauptstr. 1,10115,Berlin',
        ',Nebenstr. 2,10117,Berlin',
        'Summe: 2 Filialen,,,',
        ',,,Gesamt 2',
        ',Ringstr. 3,10119,Berlin',
      ].join('\n'),
    );
    const mapping = mapHeaders(table.headers);
    expect(table.blanks[0]!.rows).toBe(3);
    expect(namelessRows(table, mapping, PLACEHOLDERS, 5)).toEqual({ rows: 2, firstLines: [3, 6] });
    expect(namelessRows(table, mapping, PLACEHOLDERS, 1)).toEqual({ rows: 2, firstLines: [3] });
  });
});

describe('junkRows: the server rule over the worker table', () => {
  it('flags totals, summary, repeated header and name-only rows, not a name that starts with "Total"', () => {
    const csv = [
      'Name,Address,City',
      'Shop,1 Main St,Leeds',
      'Total,,',
      'TOTAL LOCATIONS: 46,,',
      ',,46',
      'Name,Address,City',
      'Lonely name,,',
      'Total Wine & More,2 Main St,Leeds',
    ].join('\n');
    expect(flags(csv)).toEqual([
      [1, 'Looks like a totals row'],
      [2, 'Looks like a totals row'],
      [3, 'Looks like a totals row'],
      [4, 'Looks like a repeated header row'],
      [5, 'Only a name, nothing else'],
    ]);
  });

  it('flags a header repeated in another order and every row below it: a second table, not to be kept', () => {
    const csv = [
      'Name,Address,City,Postcode',
      'Laden Berlin,Unter den Linden 1,Berlin,10117',
      'Name,Postcode,City,Address',
      'Laden Wien,1010,Wien,Graben 1',
      'Total,,,',
      'Laden Graz,8010,Graz,Herrengasse 1',
    ].join('\n');
    const table = parseCsvText(csv);
    const flagged = junkRows(table, mapHeaders(table.headers));
    expect([...flagged]).toEqual([
      [1, 'header in another order'],
      [2, 'in a second table'],
      [3, 'in a second table'],
      [4, 'in a second table'],
    ]);
    expect([...flagged.values()].every((reason) => LOCKED.has(reason))).toBe(true);
    expect(LOCKED.has('totals or summary row')).toBe(false);
  });

  it('flags nothing in a file of locations', () => {
    expect(flags('Name,City\nA,Leeds\nB,York\n')).toEqual([]);
  });
});
