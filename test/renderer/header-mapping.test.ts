import { describe, expect, it } from 'vitest';
import { decodeSource } from '../../renderer/src/import/decode.js';
import { EXPORT_COLUMNS } from '../../renderer/src/export/locations-csv.js';
import {
  FIELD_LABELS,
  TARGETS,
  fieldOfHeader,
  headerKey,
  isKnownButNotImported,
  mapHeaders,
  nameColumnOf,
  remapColumn,
  type ColumnMapping,
} from '../../renderer/src/import/header-mapping.js';
import { parseCsvText } from '../../renderer/src/import/parse-csv.js';
import { bufferSource } from './csv-files.js';

/** A header row as a file carries it: bytes in `encoding`, decoded and parsed as the import worker does. */
async function headersOf(line: string, encoding: 'utf8' | 'latin1' = 'utf8'): Promise<string[]> {
  const decoded = await decodeSource(bufferSource(new Uint8Array(Buffer.from(`${line}\r\nrow\r\n`, encoding))));
  if (!decoded.ok) throw new Error(decoded.message);
  return parseCsvText(decoded.text).headers;
}

/** Header -> target pairs, for assertions that read like the sheet. */
async function mapped(line: string, encoding?: 'utf8' | 'latin1'): Promise<[string, ColumnMapping[number]][]> {
  const headers = await headersOf(line, encoding);
  const mapping = mapHeaders(headers);
  return headers.map((header, column) => [header.trim(), mapping[column] ?? null]);
}

describe('headerKey', () => {
  it('keeps the words only: case, accents, punctuation, BOM and "(required)" go', () => {
    expect(headerKey('\uFEFFCountry / Region*')).toBe('country region');
    expect(headerKey('  Straße ')).toBe('strasse');
    expect(headerKey('Código Postal (required)')).toBe('codigo postal');
    expect(headerKey('google_place_id')).toBe('google place id');
  });
});

describe('mapHeaders: the Google Business Profile sheet', () => {
  it('maps every field of the Google Business Profile bulk-upload sheet, the per-day hours included', async () => {
    const sheet = await mapped(
      '\uFEFFStore code (required),Business name (required), Address line 1 ,Address line 2,Address line 3,' +
        'Address line 4,Address line 5,Sub-locality,Locality,Administrative area,Country / Region (required),' +
        'Postal code,Latitude,Longitude,Primary phone,Additional phones,Website,Primary category,' +
        'Additional categories,Sunday hours,Monday hours,Tuesday hours,Wednesday hours,Thursday hours,' +
        'Friday hours,Saturday hours,Special hours,From the business,Opening date,Logo photo,Cover photo,' +
        'Other photos,Labels,AdWords location extensions phone',
    );
    expect(Object.fromEntries(sheet.filter(([, target]) => target !== null))).toEqual({
      'Store code (required)': 'store_code',
      'Business name (required)': 'name',
      'Address line 1': 'address',
      'Address line 2': 'address',
      'Address line 3': 'address',
      'Address line 4': 'address',
      'Address line 5': 'address',
      Locality: 'city',
      'Administrative area': 'state',
      'Country / Region (required)': 'country',
      'Postal code': 'zip',
      Latitude: 'latitude',
      Longitude: 'longitude',
      'Primary phone': 'phone',
      Website: 'website',
      'Primary category': 'primary_category',
      'Sunday hours': 'hours_sun',
      'Monday hours': 'hours_mon',
      'Tuesday hours': 'hours_tue',
      'Wednesday hours': 'hours_wed',
      'Thursday hours': 'hours_thu',
      'Friday hours': 'hours_fri',
      'Saturday hours': 'hours_sat',
      Labels: 'labels',
    });
    // What is left has no field, and says so.
    const unmapped = sheet.filter(([, target]) => target === null).map(([header]) => header);
    expect(unmapped.filter((header) => !isKnownButNotImported(header))).toEqual([]);
    expect(unmapped).toEqual([
      'Sub-locality',
      'Additional phones',
      'Additional categories',
      'Special hours',
      'From the business',
      'Opening date',
      'Logo photo',
      'Cover photo',
      'Other photos',
      'AdWords location extensions phone',
    ]);
  });
});

describe('mapHeaders: Yext and BrightLocal', () => {
  it("maps a Yext entity export's headers", async () => {
    expect(
      await mapped(
        'Entity ID,Entity Type,Name,Address > Line 1,Address > Line 2,Address > City,Address > Region,' +
          'Address > Postal Code,Address > Country Code,Main Phone,Website URL > URL,' +
          'Display Coordinate > Latitude,Display Coordinate > Longitude,Categories,Hours,Labels,Closed',
      ),
    ).toEqual([
      ['Entity ID', 'store_code'],
      ['Entity Type', null],
      ['Name', 'name'],
      ['Address > Line 1', 'address'],
      ['Address > Line 2', 'address'],
      ['Address > City', 'city'],
      ['Address > Region', 'state'],
      ['Address > Postal Code', 'zip'],
      ['Address > Country Code', 'country'],
      ['Main Phone', 'phone'],
      ['Website URL > URL', 'website'],
      ['Display Coordinate > Latitude', 'latitude'],
      ['Display Coordinate > Longitude', 'longitude'],
      ['Categories', 'primary_category'],
      ['Hours', 'hours'],
      ['Labels', 'labels'],
      ['Closed', 'closed'],
    ]);
  });

  it('Closed and its variants go to "Closed (yes/no)", beside a Status column; "Temporarily closed" does not', async () => {
    expect(await mapped('Name,Status,Is closed,Temporarily closed')).toEqual([
      ['Name', 'name'],
      ['Status', 'status'],
      ['Is closed', 'closed'],
      ['Temporarily closed', null],
    ]);
    for (const header of ['Closed', 'CLOSED?', 'Permanently closed', 'Closed (permanently)', 'isClosed']) {
      expect(fieldOfHeader(header), header).toBe('closed');
    }
    // One Closed column: a second variant is left out, as for every single-valued field.
    expect(await mapped('Name,Closed,Permanently closed')).toEqual([
      ['Name', 'name'],
      ['Closed', 'closed'],
      ['Permanently closed', null],
    ]);
    // "Import as" offers it, after Status, with words that say what it takes.
    expect(TARGETS.slice(TARGETS.indexOf('status'), TARGETS.indexOf('status') + 2)).toEqual(['status', 'closed']);
    expect(FIELD_LABELS.closed).toBe('Closed (yes/no)');
  });

  it("maps a BrightLocal locations sheet's headers", async () => {
    expect(
      await mapped(
        '"Location Reference","Location Name","Address 1","Address 2","City","County","Postcode","Country",' +
          '"Telephone","Website URL","Business Category","Opening Hours"',
      ),
    ).toEqual([
      ['Location Reference', 'store_code'],
      ['Location Name', 'name'],
      ['Address 1', 'address'],
      ['Address 2', 'address'],
      ['City', 'city'],
      ['County', 'state'],
      ['Postcode', 'zip'],
      ['Country', 'country'],
      ['Telephone', 'phone'],
      ['Website URL', 'website'],
      ['Business Category', 'primary_category'],
      ['Opening Hours', 'hours'],
    ]);
  });
});

describe('mapHeaders: Uberall, a French Excel sheet, our own export', () => {
  it("maps an Uberall locations export's headers, the house number joined to the street", async () => {
    expect(
      await mapped(
        'Identifier;Name;Street;Street No;Address Extra;ZIP;City;Province;Country;Phone;Categories;Labels;' +
          'Opening Hours;Status;Latitude;Longitude',
      ),
    ).toEqual([
      ['Identifier', 'store_code'],
      ['Name', 'name'],
      ['Street', 'address'],
      ['Street No', 'street_number'],
      ['Address Extra', 'address'],
      ['ZIP', 'zip'],
      ['City', 'city'],
      ['Province', 'state'],
      ['Country', 'country'],
      ['Phone', 'phone'],
      ['Categories', 'primary_category'],
      ['Labels', 'labels'],
      ['Opening Hours', 'hours'],
      ['Status', 'status'],
      ['Latitude', 'latitude'],
      ['Longitude', 'longitude'],
    ]);
  });

  it('maps a French sheet saved by Excel in Windows-1252, accents and all', async () => {
    expect(
      await mapped(
        "Nom de l'établissement;Adresse;Ville;Code postal;Pays;Téléphone;Site web;Catégorie;Horaires d'ouverture",
        'latin1',
      ),
    ).toEqual([
      ["Nom de l'établissement", 'name'],
      ['Adresse', 'address'],
      ['Ville', 'city'],
      ['Code postal', 'zip'],
      ['Pays', 'country'],
      ['Téléphone', 'phone'],
      ['Site web', 'website'],
      ['Catégorie', 'primary_category'],
      ["Horaires d'ouverture", 'hours'],
    ]);
  });

  it("a tool's category ids are known and not stored (a category is its name); Categories is the category", () => {
    for (const header of ['Category IDs', 'Category ID', 'category_ids']) {
      expect(mapHeaders(['Name', header]), header).toEqual(['name', null]);
      expect(isKnownButNotImported(header), header).toBe(true);
    }
    expect(mapHeaders(['Name', 'Categories'])).toEqual(['name', 'primary_category']);
  });

  it("maps every column of the dashboard's own export back to its field; the read-only ones say they are not stored", () => {
    const headers = EXPORT_COLUMNS.map(([header]) => header);
    const mapping = mapHeaders(headers);
    // Updated is read back (not stored): it tells an update to a location changed since the export.
    const readOnly = ['health_score', 'health_status', 'created_at'];
    EXPORT_COLUMNS.forEach(([header, field], column) => {
      if (readOnly.includes(field)) {
        expect(mapping[column], header).toBeNull();
        expect(isKnownButNotImported(header), header).toBe(true);
      } else expect(mapping[column], header).toBe(field);
    });
  });

  it('a whole-week hours column and per-day ones never both feed the hours: the first wins', () => {
    expect(mapHeaders(['Name', 'Opening hours', 'Monday hours'])).toEqual(['name', 'hours', null]);
    expect(mapHeaders(['Name', 'Monday hours', 'Tuesday hours', 'Hours'])).toEqual([
      'name',
      'hours_mon',
      'hours_tue',
      null,
    ]);
  });
});

describe('mapHeaders', () => {
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

  it('says "not stored" only for headers with truly no field', () => {
    expect(isKnownButNotImported('Additional phones')).toBe(true);
    expect(isKnownButNotImported('Special hours')).toBe(true);
    expect(isKnownButNotImported('Store code')).toBe(false);
    expect(isKnownButNotImported('Primary phone')).toBe(false);
    expect(isKnownButNotImported('Favourite colour')).toBe(false);
  });

  it('maps "Location id" to the id, never a bare "ID" (a sheet\'s own numbers are no location ids)', () => {
    expect(fieldOfHeader('Location id')).toBe('id');
    expect(fieldOfHeader('ID')).toBeNull();
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

  it('per-day hours push a whole-week hours column out, and the reverse', () => {
    expect(remapColumn(['name', 'hours', null], 2, 'hours_mon')).toEqual(['name', null, 'hours_mon']);
    expect(remapColumn(['hours_mon', 'hours_tue', null], 2, 'hours')).toEqual([null, null, 'hours']);
  });

  it('unmaps a column', () => {
    expect(remapColumn(['name', 'city'], 1, null)).toEqual(['name', null]);
  });
});
