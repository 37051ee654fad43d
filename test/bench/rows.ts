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
