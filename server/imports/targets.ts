import type { RowField } from '../locations/schemas.js';

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
 * street, a suite joined as an address line ("Suite 200" from a "Suite #" column's 200), or nothing. Several columns may feed `address`. `closed` (Yext's Closed, yes or no) is a field
 * of the import row that the server reads into the status (locations/fields.ts, statusWithClosed).
 */
export type ImportTarget = RowField | DayHoursTarget | 'street_number' | 'suite';
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
  closed: 'Closed (yes/no)',
  hours: 'Hours',
  updated_at: 'Updated (as exported)',
};
export const FIELDS = Object.keys(ROW_FIELD_LABELS) as RowField[];

/** A row field the server reads into another (Closed into the status): the other's problems are about it too. */
export const READ_INTO: Partial<Record<RowField, RowField>> = { closed: 'status' };

/** Every choice of the mapping screen's "Import as", in its order. */
export const FIELD_LABELS: Record<ImportTarget, string> = {
  id: ROW_FIELD_LABELS.id,
  name: ROW_FIELD_LABELS.name,
  store_code: ROW_FIELD_LABELS.store_code,
  address: ROW_FIELD_LABELS.address,
  street_number: 'House number (joined to the street)',
  suite: 'Suite (joined to the address)',
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
  closed: ROW_FIELD_LABELS.closed,
  hours: 'Hours (the whole week)',
  hours_mon: 'Monday hours',
  hours_tue: 'Tuesday hours',
  hours_wed: 'Wednesday hours',
  hours_thu: 'Thursday hours',
  hours_fri: 'Friday hours',
  hours_sat: 'Saturday hours',
  hours_sun: 'Sunday hours',
  updated_at: ROW_FIELD_LABELS.updated_at,
};
export const TARGETS = Object.keys(FIELD_LABELS) as ImportTarget[];

/** The row field a target feeds: a house number and a suite the address, a day's hours the hours. */
export function fieldOfTarget(target: ImportTarget): RowField {
  if (target === 'street_number' || target === 'suite') return 'address';
  return target in DAY_HOURS ? 'hours' : (target as RowField);
}

/** Whether a target is one of the columns joined into the address. */
export const feedsAddress = (target: ColumnTarget): boolean => target !== null && fieldOfTarget(target) === 'address';
