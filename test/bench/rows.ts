import { randomBytes } from 'node:crypto';

const CITIES = [
  ['Springfield', 'IL', '627'],
  ['Portland', 'OR', '972'],
  ['Austin', 'TX', '787'],
  ['Denver', 'CO', '802'],
  ['Madison', 'WI', '537'],
  ['Savannah', 'GA', '314'],
  ['Boise', 'ID', '837'],
  ['Tucson', 'AZ', '857'],
] as const;
const STREETS = [
  'Main St',
  'Oak Avenue',
  'Maple Drive',
  'Cedar Lane',
  'Elm Street',
  'Washington Blvd',
  'Lakeview Road',
];
const COUNTRIES = ['US', 'USA', 'United States', 'us'];

/** A realistic import row: what a Google Business Profile export of a US chain looks like (~180 bytes of JSON). */
export function realisticRows(count: number): Record<string, string>[] {
  const rows: Record<string, string>[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const [city, state, zip3] = CITIES[i % CITIES.length]!;
    rows[i] = {
      name: `Bluebird Coffee Roasters #${i + 1}`,
      address: `${100 + (i % 9000)} ${STREETS[i % STREETS.length]}, Suite ${i % 300}`,
      city,
      state,
      zip: `${zip3}${String(i % 100).padStart(2, '0')}`,
      country: COUNTRIES[i % COUNTRIES.length]!,
      google_place_id: `ChIJ${randomBytes(18).toString('base64url')}`,
    };
  }
  return rows;
}

/**
 * A rich row: the realistic row with every listing field a Google Business Profile sheet fills (store
 * code, phone, website, coordinates, category, labels, hours), as CSV-derived text (~450 bytes of JSON).
 */
export function richRows(count: number): Record<string, string>[] {
  return realisticRows(count).map((row, i) => ({
    ...row,
    store_code: `BB-${String(i + 1).padStart(6, '0')}`,
    phone: `+1 415 555 ${String(1000 + (i % 9000)).padStart(4, '0')}`,
    website: `https://bluebird.example/stores/${i + 1}`,
    latitude: String(37 + (i % 1000) / 1000),
    longitude: String(-122 - (i % 1000) / 1000),
    primary_category: 'Coffee shop',
    labels: 'west, flagship, drive-thru',
    hours: 'Mon-Fri 7:00-19:00, Sat 8:00-17:00, Sun 9:00-15:00',
  }));
}
