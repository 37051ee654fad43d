import { decimalText } from '../../../server/locations/decimal.js';
import { hoursText } from '../../../server/locations/hours.js';
import type { LocationChange, LocationWhole } from '../api/location-queries.js';

/** The fields a person edits, as text: the server reads each by the import's rules (README: "Location fields"). */
export const EDITABLE = [
  ['name', 'Name'],
  ['store_code', 'Store code'],
  ['address', 'Address'],
  ['city', 'City'],
  ['state', 'State / province'],
  ['zip', 'Postal code'],
  ['country', 'Country'],
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['primary_category', 'Primary category'],
  ['labels', 'Labels'],
  ['hours', 'Hours'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
  ['google_place_id', 'Google place id'],
] as const;
export type EditableField = (typeof EDITABLE)[number][0] | 'status';
export type Draft = Record<EditableField, string>;

export const HINTS: Partial<Record<EditableField, string>> = {
  phone: 'Any form, e.g. (617) 555-0100: saved with its country code, +1 617 555 0100',
  labels: 'Separated by commas, at most 10',
  hours: 'e.g. Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed',
  country: 'A name or an ISO code',
};

/** A location's values as the form shows them; the phone as `phoneText` writes it (phone-text.ts). */
export function draftOf(location: LocationWhole, phoneText: (phone: string) => string): Draft {
  const text = (value: string | number | null) =>
    value === null ? '' : typeof value === 'number' ? decimalText(value) : value;
  return {
    name: location.name,
    store_code: text(location.store_code),
    address: text(location.address),
    city: text(location.city),
    state: text(location.state),
    zip: text(location.zip),
    country: text(location.country),
    phone: location.phone === null ? '' : phoneText(location.phone),
    website: text(location.website),
    primary_category: text(location.primary_category),
    labels: (location.labels ?? []).join(', '),
    hours: location.hours ? hoursText(location.hours) : '',
    latitude: text(location.latitude),
    longitude: text(location.longitude),
    google_place_id: text(location.google_place_id),
    status: location.status,
  };
}

/**
 * The PATCH body: each field the person changed, a blank one as null (cleared). A blank name is sent as
 * written: null is no text, which the request's schema refuses before any field is checked, so the
 * person read "must be a string" and lost the other fields' words (a walk); "" is "cannot be blank".
 */
export function changeOf(draft: Draft, initial: Draft): LocationChange {
  const change: Record<string, string | null> = {};
  for (const field of Object.keys(draft) as EditableField[]) {
    if (draft[field] === initial[field]) continue;
    change[field] = draft[field].trim() === '' && field !== 'name' ? null : draft[field];
  }
  return change as LocationChange;
}

/** Field errors from a 400's details (paths /body/<field>). */
export function fieldErrors(
  details: readonly { path: string; message: string }[],
): Partial<Record<EditableField, string>> {
  const errors: Partial<Record<EditableField, string>> = {};
  for (const detail of details) {
    const field = detail.path.replace(/^\/body\//, '') as EditableField;
    errors[field] ??= detail.message;
  }
  return errors;
}
