/**
 * An address split across columns, joined the way its country writes it: the house number after the
 * street in most of continental Europe ("Prager Straße 90a"), before it in the English-speaking world
 * and France ("90a Main St", "12 rue de la Paix"); further lines (line 2, "Complément", "Adresszusatz")
 * after a separator, ", " unless the mapping says otherwise.
 */
export const DEFAULT_ADDRESS_SEPARATOR = ', ';

// Countries that write the house number before the street (Universal Postal Union address formats).
const NUMBER_FIRST = new Set([
  'US',
  'GB',
  'UK',
  'IE',
  'FR',
  'CA',
  'AU',
  'NZ',
  'LU',
  'MC',
  'ZA',
  'IN',
  'SG',
  'MY',
  'PH',
]);
// Country names as sheets write them, for the countries above (the server normalizes the country later).
const NUMBER_FIRST_NAMES = new Set([
  'united states',
  'usa',
  'united kingdom',
  'england',
  'scotland',
  'wales',
  'northern ireland',
  'great britain',
  'ireland',
  'france',
  'canada',
  'australia',
  'new zealand',
]);

/** Whether the country (a code or a name, any case; blank: unknown) writes the house number first. */
export function numberBeforeStreet(country: string): boolean {
  const word = country.trim().toLowerCase();
  return NUMBER_FIRST.has(word.toUpperCase()) || NUMBER_FIRST_NAMES.has(word);
}

export interface AddressParts {
  /** The address columns' values in file order: the street line first, then line 2, complement ... */
  lines: readonly string[];
  /** The house number column's value ('' when none). */
  houseNumber: string;
  /** The row's country, to place the house number ('' when unknown: after the street). */
  country: string;
  separator?: string;
}

/** One address from its parts; blank parts are left out. */
export function joinAddress({
  lines,
  houseNumber,
  country,
  separator = DEFAULT_ADDRESS_SEPARATOR,
}: AddressParts): string {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== '');
  const number = houseNumber.trim();
  if (number === '') return filled.join(separator);
  const [street, ...rest] = filled;
  if (street === undefined) return [number, ...rest].join(separator);
  const first = numberBeforeStreet(country) ? `${number} ${street}` : `${street} ${number}`;
  return [first, ...rest].join(separator);
}
