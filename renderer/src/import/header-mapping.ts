import type { RowField } from '../../../server/locations/schemas.js';

/** What a file column becomes: one import field, or nothing. Several columns may feed `address`. */
export type ColumnTarget = RowField | null;
export type ColumnMapping = ColumnTarget[];

/** The fields in the order the dashboard shows them, with the words a user sees. */
export const FIELD_LABELS: Record<RowField, string> = {
  name: 'Name',
  address: 'Address',
  city: 'City',
  state: 'State / province',
  zip: 'Postal code',
  country: 'Country',
  google_place_id: 'Google place id',
};
export const FIELDS = Object.keys(FIELD_LABELS) as RowField[];

/**
 * Header words per field, already in `headerKey` form. The Google Business Profile bulk-upload sheet
 * ("Business name", "Address line 1".."5", "Locality", "Administrative area", "Postal code",
 * "Country / Region"), common spreadsheet exports, and the usual French, German, Spanish and Italian words.
 */
const SYNONYMS: Record<RowField, string[]> = {
  name: [
    'name',
    'location name',
    'business name',
    'store name',
    'branch name',
    'shop name',
    'site name',
    'location',
    'business',
    'company',
    'company name',
    'brand name',
    'title',
    'nom',
    'nom de l etablissement',
    'nombre',
    'nome',
    'filiale',
    'standort',
  ],
  address: [
    'address',
    'street',
    'street address',
    'street 1',
    'street 2',
    'street line 1',
    'street line 2',
    'address 1',
    'address 2',
    'address 3',
    'address1',
    'address2',
    'address3',
    'address line',
    'address line 1',
    'address line 2',
    'address line 3',
    'address line 4',
    'address line 5',
    'addr',
    'addr1',
    'addr2',
    'line 1',
    'line 2',
    'full address',
    'postal address',
    'adresse',
    'strasse',
    'strasse und hausnummer',
    'direccion',
    'calle',
    'indirizzo',
  ],
  city: [
    'city',
    'town',
    'town city',
    'city town',
    'locality',
    'municipality',
    'suburb',
    'ville',
    'ort',
    'stadt',
    'ciudad',
    'localidad',
    'citta',
    'comune',
  ],
  state: [
    'state',
    'province',
    'region',
    'state province',
    'state or province',
    'state region',
    'state code',
    'province code',
    'administrative area',
    'county',
    'prefecture',
    'bundesland',
    'provincia',
    'departement',
    'regione',
  ],
  zip: [
    'zip',
    'zip code',
    'zipcode',
    'postal code',
    'postalcode',
    'postcode',
    'post code',
    'postal',
    'zip postal code',
    'postal zip code',
    'plz',
    'postleitzahl',
    'code postal',
    'codigo postal',
    'cap',
  ],
  country: [
    'country',
    'country code',
    'country region',
    'country or region',
    'country iso',
    'iso country',
    'iso country code',
    'nation',
    'pays',
    'land',
    'pais',
    'paese',
  ],
  google_place_id: [
    'place id',
    'google place id',
    'google places id',
    'gmb place id',
    'gbp place id',
    'maps place id',
    'google maps place id',
    'placeid',
    'google id',
  ],
};

/** Headers a user will recognise that have no import field; the mapping screen says so rather than staying silent. */
const NOT_IMPORTED = new Set([
  'store code',
  'location code',
  'id',
  'phone',
  'primary phone',
  'additional phones',
  'website',
  'primary category',
  'additional categories',
  'category',
  'sub locality',
  'latitude',
  'longitude',
  'labels',
  'opening date',
]);

const FIELD_BY_KEY = new Map<string, RowField>();
for (const field of FIELDS) for (const word of SYNONYMS[field]) FIELD_BY_KEY.set(word, field);

/**
 * A header reduced to the words that carry its meaning: lower case, no accents, no punctuation,
 * no "(required)" marks, single spaces. "Country / Region*" -> "country region".
 */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/\((required|optional|mandatory)\)/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The field a header names, or null. */
export function fieldOfHeader(header: string): ColumnTarget {
  const key = headerKey(header);
  return FIELD_BY_KEY.get(key) ?? FIELD_BY_KEY.get(key.replace(/ /g, '')) ?? null;
}

/** Whether a header names something the sheet carries that Agency Desk does not store (e.g. GBP's "Store code"). */
export function isKnownButNotImported(header: string): boolean {
  return NOT_IMPORTED.has(headerKey(header));
}

/**
 * The mapping a header suggests. Each field but `address` takes the first column that names it;
 * every column naming `address` joins into it, in file order ("Address line 1", "Address line 2").
 */
export function mapHeaders(headers: readonly string[]): ColumnMapping {
  const taken = new Set<RowField>();
  return headers.map((header) => {
    const field = fieldOfHeader(header);
    if (field === null) return null;
    if (field !== 'address' && taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/**
 * The mapping after the user points `column` at `target`: a field other than `address` moves away
 * from whichever column held it, so no two columns ever feed the same single-valued field.
 */
export function remapColumn(mapping: ColumnMapping, column: number, target: ColumnTarget): ColumnMapping {
  return mapping.map((current, index) => {
    if (index === column) return target;
    if (target !== null && target !== 'address' && current === target) return null;
    return current;
  });
}

export function nameColumnOf(mapping: ColumnMapping): number {
  return mapping.indexOf('name');
}
