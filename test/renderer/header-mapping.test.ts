import { describe, expect, it } from 'vitest';
import {
  fieldOfHeader,
  headerKey,
  isKnownButNotImported,
  mapHeaders,
  nameColumnOf,
  remapColumn,
} from '../../renderer/src/import/header-mapping.js';

describe('headerKey', () => {
  it('keeps the words only: case, accents, punctuation, BOM and "(required)" go', () => {
    expect(headerKey('\uFEFFCountry / Region*')).toBe('country region');
    expect(headerKey('  Straße ')).toBe('strasse');
    expect(headerKey('Código Postal (required)')).toBe('codigo postal');
    expect(headerKey('google_place_id')).toBe('google place id');
  });
});

describe('mapHeaders', () => {
  it('maps the Google Business Profile bulk-upload headers, joining the address lines', () => {
    const headers = [
      'Store code',
      'Business name',
      'Address line 1',
      'Address line 2',
      'Address line 3',
      'Sub-locality',
      'Locality',
      'Administrative area',
      'Country / Region',
      'Postal code',
      'Latitude',
    ];
    expect(mapHeaders(headers)).toEqual([
      null,
      'name',
      'address',
      'address',
      'address',
      null,
      'city',
      'state',
      'country',
      'zip',
      null,
    ]);
  });

  it.each([
    ['Location name', 'name'],
    ['Store Name', 'name'],
    ['Street', 'address'],
    ['Street Address', 'address'],
    ['Address1', 'address'],
    ['Town', 'city'],
    ['City', 'city'],
    ['Province', 'state'],
    ['State/Province', 'state'],
    ['Postcode', 'zip'],
    ['ZIP code', 'zip'],
    ['ZIP', 'zip'],
    ['PLZ', 'zip'],
    ['Country code', 'country'],
    ['Land', 'country'],
    ['Place ID', 'google_place_id'],
    ['google_place_id', 'google_place_id'],
    ['Ville', 'city'],
    ['Straße', 'address'],
    ['Ort', 'city'],
  ] as const)('maps "%s" to %s', (header, field) => {
    expect(fieldOfHeader(header)).toBe(field);
  });

  it('leaves unknown headers unmapped and gives a single-valued field to its first column only', () => {
    expect(mapHeaders(['Name', 'Notes', 'Business name', 'City', 'Town'])).toEqual(['name', null, null, 'city', null]);
  });

  it('says when a header names something Agency Desk does not store', () => {
    expect(isKnownButNotImported('Store code')).toBe(true);
    expect(isKnownButNotImported('Primary phone')).toBe(true);
    expect(isKnownButNotImported('Favourite colour')).toBe(false);
  });

  it('finds no name column in a sheet without one', () => {
    expect(nameColumnOf(mapHeaders(['street', 'city', 'zip']))).toBe(-1);
  });
});

describe('remapColumn', () => {
  it('moves a single-valued field away from the column that held it', () => {
    expect(remapColumn(['name', 'city', null], 2, 'name')).toEqual([null, 'city', 'name']);
  });

  it('lets several columns feed the address', () => {
    expect(remapColumn(['name', 'address', null], 2, 'address')).toEqual(['name', 'address', 'address']);
  });

  it('unmaps a column', () => {
    expect(remapColumn(['name', 'city'], 1, null)).toEqual(['name', null]);
  });
});
