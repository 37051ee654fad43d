import { describe, expect, it } from 'vitest';
import type { LocationRow } from '../../renderer/src/api/types.js';
import { foldForSearch, LocationIndex, type ViewRequest } from '../../renderer/src/locations/order.js';

let made = 0;
function location(name: string, fields: Partial<LocationRow> = {}): LocationRow {
  made++;
  return {
    id: `00000000-0000-4000-8000-${String(made).padStart(12, '0')}`,
    name,
    address: null,
    city: null,
    state: null,
    zip: null,
    country: null,
    health_score: 0,
    health_status: 'red',
    created_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as LocationRow;
}

const byName: ViewRequest = { sort: { key: 'name', direction: 'ascending' }, query: '', health: 'all' };
const names = (index: LocationIndex, request: ViewRequest) =>
  Array.from(index.view(request), (row) => index.rows[row]!.name);

describe('LocationIndex', () => {
  it('sorts by the words, punctuation aside: a quoted or dashed name sorts among the others (found by a walk)', () => {
    const index = new LocationIndex();
    const list = ['Northwind Coffee "The Pearl"', 'Northwind Coffee — Pike', 'Northwind Coffee Ballard', 'Store #2'];
    index.add([...list, 'Store #10'].map((name) => location(name)));
    expect(names(index, byName)).toEqual([
      'Northwind Coffee Ballard',
      'Northwind Coffee — Pike',
      'Northwind Coffee "The Pearl"',
      'Store #2',
      'Store #10',
    ]);
  });

  it('sorts names naturally and without regard to case: "Store 2" < "store 10" < "Store 102"', () => {
    const index = new LocationIndex();
    index.add(['Store 102', 'Store 15', 'store 10', 'Store 2', 'Store 1'].map((name) => location(name)));
    expect(names(index, byName)).toEqual(['Store 1', 'Store 2', 'store 10', 'Store 15', 'Store 102']);
    expect(names(index, { ...byName, sort: { key: 'name', direction: 'descending' } })).toEqual([
      'Store 102',
      'Store 15',
      'store 10',
      'Store 2',
      'Store 1',
    ]);
  });

  it('keeps rows without a value last and equal values in arrival order, whichever the direction', () => {
    const index = new LocationIndex();
    index.add([
      location('A', { city: 'Boise' }),
      location('B'),
      location('C', { city: 'Austin' }),
      location('D', { city: 'Boise' }),
    ]);
    const byCity = (direction: 'ascending' | 'descending'): ViewRequest => ({
      ...byName,
      sort: { key: 'city', direction },
    });
    expect(names(index, byCity('ascending'))).toEqual(['C', 'A', 'D', 'B']);
    expect(names(index, byCity('descending'))).toEqual(['A', 'D', 'C', 'B']);
  });

  it('merges rows that arrive later into every order already asked for', () => {
    const index = new LocationIndex();
    index.add([location('Store 3'), location('Store 30')]);
    expect(names(index, byName)).toEqual(['Store 3', 'Store 30']);
    index.add([location('Store 4'), location('Store 1')]);
    expect(names(index, byName)).toEqual(['Store 1', 'Store 3', 'Store 4', 'Store 30']);
  });

  it('filters by health and by text in any of the address fields', () => {
    const index = new LocationIndex();
    index.add([
      location('Downtown', { city: 'Austin', health_status: 'green', health_score: 90 }),
      location('Airport', { address: '1 Austin Way' }),
      location('Harbor', { city: 'Boise' }),
    ]);
    expect(names(index, { ...byName, query: 'austin' })).toEqual(['Airport', 'Downtown']);
    expect(names(index, { ...byName, query: 'austin', health: 'red' })).toEqual(['Airport']);
    expect(names(index, { ...byName, sort: { key: 'health_score', direction: 'descending' } })[0]).toBe('Downtown');
  });

  it('finds text with or without its accents, typed either way (a walk typed "creme" and found nothing)', () => {
    const index = new LocationIndex();
    index.add([
      location('Crème de la Crème', { city: 'Montréal' }),
      location('Bäckerei Müller', { address: 'Hauptstraße 5', city: 'Zürich' }),
      location('Pierogi', { city: 'Łódź' }),
      location('Cafe Uno', { city: 'Lyon' }),
    ]);
    const found = (typed: string) => names(index, { ...byName, query: foldForSearch(typed) });
    expect(found('creme')).toEqual(['Crème de la Crème']);
    expect(found('CRÈME')).toEqual(['Crème de la Crème']);
    expect(found('montreal')).toEqual(['Crème de la Crème']);
    expect(found('zurich')).toEqual(['Bäckerei Müller']);
    expect(found('hauptstrasse')).toEqual(['Bäckerei Müller']);
    expect(found('lodz')).toEqual(['Pierogi']);
    // An accent typed finds the plain letters too: the search is as forgiving as the sort.
    expect(found('café')).toEqual(['Cafe Uno']);
    expect(found('bakery')).toEqual([]);
    // Only Latin letters lose their accents: й is not и, バ is not ハ.
    expect(foldForSearch('Майка Bäckerei')).toBe('майка backerei');
    expect(foldForSearch('Лиговский').includes('й')).toBe(true);
    expect(foldForSearch('バス')).toBe('バス');
    expect(found('лиговский')).toEqual([]);
  });
});
