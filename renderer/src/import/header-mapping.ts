import type { RowField } from '../../../server/locations/schemas.js';

/** Columns of the per-day hours a sheet may carry (GBP's "Monday hours" ...): upload-rows.ts joins them into `hours`. */
export const DAY_HOURS = {
  hours_mon: 'mon',
  hours_tue: 'tue',
  hours_wed: 'wed',
  hours_thu: 'thu',
  hours_fri: 'fri',
  hours_sat: 'sat',
  hours_sun: 'sun',
} as const;
export type DayHoursTarget = keyof typeof DAY_HOURS;

/**
 * What a file column becomes: one import field, one day of the hours, a house number joined to the
 * street, or nothing. Several columns may feed `address`.
 */
export type ImportTarget = RowField | DayHoursTarget | 'street_number';
export type ColumnTarget = ImportTarget | null;
export type ColumnMapping = ColumnTarget[];

/** The fields a row carries, in the order the dashboard shows them, with the words a user sees. */
export const ROW_FIELD_LABELS: Record<RowField, string> = {
  id: 'Location id',
  name: 'Name',
  store_code: 'Store code',
  address: 'Address',
  city: 'City',
  state: 'State / province',
  zip: 'Postal code',
  country: 'Country',
  google_place_id: 'Google place id',
  phone: 'Phone',
  website: 'Website',
  latitude: 'Latitude',
  longitude: 'Longitude',
  primary_category: 'Primary category',
  labels: 'Labels',
  status: 'Status',
  hours: 'Hours',
};
export const FIELDS = Object.keys(ROW_FIELD_LABELS) as RowField[];

/** Every choice of the mapping screen's "Import as", in its order. */
export const FIELD_LABELS: Record<ImportTarget, string> = {
  id: ROW_FIELD_LABELS.id,
  name: ROW_FIELD_LABELS.name,
  store_code: ROW_FIELD_LABELS.store_code,
  address: ROW_FIELD_LABELS.address,
  street_number: 'House number (joined to the street)',
  city: ROW_FIELD_LABELS.city,
  state: ROW_FIELD_LABELS.state,
  zip: ROW_FIELD_LABELS.zip,
  country: ROW_FIELD_LABELS.country,
  google_place_id: ROW_FIELD_LABELS.google_place_id,
  phone: ROW_FIELD_LABELS.phone,
  website: ROW_FIELD_LABELS.website,
  latitude: ROW_FIELD_LABELS.latitude,
  longitude: ROW_FIELD_LABELS.longitude,
  primary_category: ROW_FIELD_LABELS.primary_category,
  labels: ROW_FIELD_LABELS.labels,
  status: ROW_FIELD_LABELS.status,
  hours: 'Hours (the whole week)',
  hours_mon: 'Monday hours',
  hours_tue: 'Tuesday hours',
  hours_wed: 'Wednesday hours',
  hours_thu: 'Thursday hours',
  hours_fri: 'Friday hours',
  hours_sat: 'Saturday hours',
  hours_sun: 'Sunday hours',
};
export const TARGETS = Object.keys(FIELD_LABELS) as ImportTarget[];

/**
 * Header words per target, already in `headerKey` form (README: "Columns the import recognises"): the
 * Google Business Profile bulk-upload sheet ("Store code", "Business name", "Address line 1".."5",
 * "Locality", "Administrative area", "Postal code", "Country / Region", "Primary phone", "Sunday
 * hours" ...), Yext's entity export ("Entity ID", "Address > Line 1", "Main Phone", "Website URL > URL",
 * "Display Coordinate > Latitude"), BrightLocal ("Location Reference", "Telephone", "Business Category"),
 * Uberall ("Identifier", "Street", "Street No", "Address Extra", "ZIP", "Province"), this dashboard's own
 * export, and the usual French, German, Spanish and Italian words.
 */
const SYNONYMS: Record<ImportTarget, string[]> = {
  id: ['location id', 'agency desk id', 'agency desk location id'],
  store_code: [
    'store code',
    'storecode',
    'location code',
    'store id',
    'store number',
    'store no',
    'entity id',
    'location reference',
    'identifier',
    'branch code',
    'site code',
    'filialnummer',
    'code magasin',
  ],
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
    'address extra',
  ],
  street_number: ['street no', 'street nr', 'street number', 'house number', 'house no', 'hausnummer', 'numero'],
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
    'address city',
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
    'address region',
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
    'address postal code',
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
    'address country code',
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
  phone: [
    'phone',
    'primary phone',
    'main phone',
    'phone number',
    'telephone',
    'telephone number',
    'tel',
    'business phone',
    'store phone',
    'location phone',
    'telefon',
    'telefonnummer',
    'telefono',
    'numero de telephone',
  ],
  website: [
    'website',
    'website url',
    'website url url',
    'web site',
    'url',
    'homepage',
    'store url',
    'location url',
    'webseite',
    'site web',
    'site internet',
    'sitio web',
    'sito web',
  ],
  latitude: [
    'latitude',
    'lat',
    'display coordinate latitude',
    'yext display coordinate latitude',
    'breitengrad',
    'latitud',
    'latitudine',
  ],
  longitude: [
    'longitude',
    'lng',
    'lon',
    'long',
    'display coordinate longitude',
    'yext display coordinate longitude',
    'langengrad',
    'longitud',
    'longitudine',
  ],
  primary_category: [
    'primary category',
    'category',
    'categories',
    'business category',
    'main category',
    'kategorie',
    'categorie',
    'categoria',
  ],
  labels: ['labels', 'label', 'tags'],
  status: ['status', 'location status', 'business status', 'store status', 'open status'],
  hours: [
    'hours',
    'opening hours',
    'business hours',
    'store hours',
    'open hours',
    'hours of operation',
    'opening times',
    'regular hours',
    'offnungszeiten',
    'horaires',
    'horaires d ouverture',
    'horario',
    'orari',
  ],
  hours_mon: dayHeaders('monday', 'mon'),
  hours_tue: dayHeaders('tuesday', 'tue'),
  hours_wed: dayHeaders('wednesday', 'wed'),
  hours_thu: dayHeaders('thursday', 'thu'),
  hours_fri: dayHeaders('friday', 'fri'),
  hours_sat: dayHeaders('saturday', 'sat'),
  hours_sun: dayHeaders('sunday', 'sun'),
};

/** "Monday hours" (GBP), "Monday", "Mon hours", "Hours Monday", "Monday opening hours". */
function dayHeaders(day: string, short: string): string[] {
  return [`${day} hours`, day, `${short} hours`, `hours ${day}`, `${day} opening hours`, `opening hours ${day}`];
}

/**
 * Headers a user will recognise that have no field in Agency Desk; the mapping screen says so rather
 * than staying silent. The export's read-only columns (health, dates) are among them.
 */
const NOT_IMPORTED = new Set([
  'additional phones',
  'additional categories',
  'special hours',
  'more hours',
  'photos',
  'logo photo',
  'cover photo',
  'other photos',
  'opening date',
  'sub locality',
  'adwords location extensions phone',
  'from the business',
  'description',
  'health score',
  'health status',
  'created',
  'updated',
  'created at',
  'updated at',
]);

const FIELD_BY_KEY = new Map<string, ImportTarget>();
for (const target of TARGETS) for (const word of SYNONYMS[target]) FIELD_BY_KEY.set(word, target);

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

/** Whether a header names something a sheet carries that Agency Desk has no field for (e.g. GBP's "Additional phones"). */
export function isKnownButNotImported(header: string): boolean {
  return NOT_IMPORTED.has(headerKey(header));
}

export function isDayHours(target: ColumnTarget): target is DayHoursTarget {
  return target !== null && target in DAY_HOURS;
}

/**
 * Whether two columns cannot both feed their targets: a single-valued field fed twice, or the whole
 * week's hours beside per-day hours (one replaces the other on the server).
 */
function clashes(a: ImportTarget, b: ImportTarget): boolean {
  if (a === b) return a !== 'address';
  return (a === 'hours' && isDayHours(b)) || (b === 'hours' && isDayHours(a));
}

/**
 * The mapping a header suggests. Each target but `address` takes the first column that names it;
 * every column naming `address` joins into it, in file order ("Address line 1", "Address line 2").
 */
export function mapHeaders(headers: readonly string[]): ColumnMapping {
  const taken: ImportTarget[] = [];
  return headers.map((header) => {
    const target = fieldOfHeader(header);
    if (target === null || taken.some((other) => clashes(other, target))) return null;
    taken.push(target);
    return target;
  });
}

/**
 * The mapping after the user points `column` at `target`: a column whose target clashes with it
 * loses its own, so no two columns ever feed the same single-valued field.
 */
export function remapColumn(mapping: ColumnMapping, column: number, target: ColumnTarget): ColumnMapping {
  return mapping.map((current, index) => {
    if (index === column) return target;
    if (target !== null && current !== null && clashes(current, target)) return null;
    return current;
  });
}

export function nameColumnOf(mapping: ColumnMapping): number {
  return mapping.indexOf('name');
}
