import type { ReactNode } from 'react';
import type { LocationRow } from '../api/types.js';
import { formatDate } from '../format.js';
import { LocationHealth } from './HealthBadge.js';
import { STATUS_WORDS } from '../locations/status-words.js';
import { usePhoneText } from '../phone-text.js';
import { dayLabel, DAYS } from '../../../server/locations/hours.js';
import { decimalText } from '../../../server/locations/decimal.js';
import { intervalsWords } from '../hours-words.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="panel-field">
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">—</span>}</dd>
    </div>
  );
}

/** The day's intervals in words: "09:00–17:00", "Closed" (an empty day), or not given (a day left out). */
function dayWords(intervals: readonly (readonly string[])[] | undefined) {
  if (intervals === undefined) return <span className="muted">Not given</span>;
  return intervals.length === 0 ? 'Closed' : intervalsWords(intervals);
}

/**
 * "Mon 09:00–17:00" for each day of the week. A day the hours leave out is unknown, not closed, and
 * says so (Google shows such a day without hours): a walk could not tell it from a day forgotten.
 */
function Hours({ hours }: { hours: LocationRow['hours'] }) {
  if (!hours) return null;
  return (
    <ul className="panel-hours">
      {DAYS.map((day) => (
        <li key={day}>
          <span>{dayLabel(day)}</span> {dayWords(hours[day])}
        </li>
      ))}
    </ul>
  );
}

const coordinates = ({ latitude, longitude }: LocationRow) =>
  latitude === null || longitude === null ? null : `${decimalText(latitude)}, ${decimalText(longitude)}`;

/** A location's fields, read-only, as the panel shows them. */
export function LocationFields({ location }: { location: LocationRow }) {
  const phoneText = usePhoneText();
  return (
    <dl className="panel-fields">
      <Field label="Health">
        <LocationHealth location={location} />
      </Field>
      <Field label="Status">{STATUS_WORDS[location.status] ?? location.status}</Field>
      <Field label="Store code">{location.store_code}</Field>
      <Field label="Address">{location.address}</Field>
      <Field label="City">{location.city}</Field>
      <Field label="State / province">{location.state}</Field>
      <Field label="Postal code">{location.zip}</Field>
      <Field label="Country">{location.country}</Field>
      <Field label="Phone">{location.phone && phoneText(location.phone)}</Field>
      <Field label="Website">{location.website}</Field>
      <Field label="Primary category">{location.primary_category}</Field>
      <Field label="Labels">{location.labels?.length ? location.labels.join(', ') : null}</Field>
      <Field label="Coordinates">{coordinates(location)}</Field>
      <Field label="Opening hours">{location.hours ? <Hours hours={location.hours} /> : null}</Field>
      <Field label="Created">{formatDate(location.created_at)}</Field>
      <Field label="Location id">
        <code>{location.id}</code>
      </Field>
    </dl>
  );
}
