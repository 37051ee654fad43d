import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRequests, uploadBody, uploadRowOf, utf8Length } from '../../renderer/src/import/upload-rows.js';

describe('uploadRowOf', () => {
  it('sends the mapped fields only, joins address columns with ", " and leaves empty values out', () => {
    const mapping = [null, 'name', 'address', 'address', 'city', 'zip'] as const;
    expect(uploadRowOf(['S-1', 'Café', '1 Main St', ' Suite 2 ', '', '  '], [...mapping])).toEqual({
      name: 'Café',
      address: '1 Main St, Suite 2',
    });
  });

  it('always sends the name, even blank, so the server can flag it', () => {
    expect(uploadRowOf(['', 'Austin'], ['name', 'city'])).toEqual({ name: '', city: 'Austin' });
  });

  it('applies the user’s fixes over the file’s values', () => {
    const row = uploadRowOf(['', 'Austin', '787010000000000000000000'], ['name', 'city', 'zip'], {
      name: 'Downtown',
      zip: '',
    });
    expect(row).toEqual({ name: 'Downtown', city: 'Austin' });
  });
});

describe('utf8Length', () => {
  it('equals the encoded length for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => utf8Length(text) === Buffer.byteLength(text, 'utf8')),
    );
  });
});

describe('planRequests', () => {
  const clientId = '00000000-0000-4000-8000-000000000000';
  const rows = Array.from({ length: 10 }, (_, index) => JSON.stringify({ name: `Location ${index}` }));

  it('keeps everything in one request within the limits', () => {
    expect(planRequests(rows, clientId, { rows: 100, bytes: 1_000_000 })).toEqual([[0, 10]]);
  });

  it('splits by row count', () => {
    expect(planRequests(rows, clientId, { rows: 4, bytes: 1_000_000 })).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
  });

  it('splits by bytes so that every body stays within the limit', () => {
    const limit = 120;
    const ranges = planRequests(rows, clientId, { rows: 100, bytes: limit });
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges.flatMap(([start, end]) => rows.slice(start, end))).toEqual(rows);
    for (const [start, end] of ranges) {
      expect(Buffer.byteLength(uploadBody(clientId, rows.slice(start, end)))).toBeLessThanOrEqual(limit);
    }
  });

  it('builds a body the server can read', () => {
    expect(JSON.parse(uploadBody(clientId, rows.slice(0, 2)))).toEqual({
      clientId,
      rows: [{ name: 'Location 0' }, { name: 'Location 1' }],
    });
  });
});
