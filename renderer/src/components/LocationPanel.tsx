import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { formatDate } from '../format.js';
import { useListState, useShownLocationList } from '../locations/use-location-list.js';
import type { LocationRow } from '../api/types.js';
import { LocationHealth } from './HealthBadge.js';

/**
 * The location a panel shows, from the client's list (the rows in view, else asked of the locations
 * worker); `loading` while the list may still bring it. (GET /api/locations/:id will answer this for the editor.)
 */
function useLocationRecord(locationId: string): { location: LocationRow | undefined; loading: boolean } {
  const list = useShownLocationList();
  const state = useListState(list);
  const inView = useMemo(
    () => Array.from(state.rows.values()).find((row) => row.id === locationId),
    [state.rows, locationId],
  );
  const found = state.found.get(locationId);
  const missing = inView === undefined && !found;
  useEffect(() => {
    if (missing) list?.find(locationId);
  }, [list, locationId, missing, state.loaded]);
  return { location: inView ?? found ?? undefined, loading: !state.loaded };
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="panel-field">
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">—</span>}</dd>
    </div>
  );
}

const DAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const;

const STATUS_LABELS: Record<LocationRow['status'], string> = {
  open: 'Open',
  temporarily_closed: 'Temporarily closed',
  permanently_closed: 'Permanently closed',
};

/** "Mon 09:00–17:00" per known day; an empty day is closed. */
function Hours({ hours }: { hours: LocationRow['hours'] }) {
  if (!hours) return null;
  const days = DAYS.filter(([key]) => hours[key] !== undefined);
  return (
    <ul className="panel-hours">
      {days.map(([key, label]) => {
        const intervals = hours[key] ?? [];
        return (
          <li key={key}>
            <span>{label}</span>{' '}
            {intervals.length === 0 ? 'Closed' : intervals.map(([from, to]) => `${from}–${to}`).join(', ')}
          </li>
        );
      })}
    </ul>
  );
}

const coordinates = ({ latitude, longitude }: LocationRow) =>
  latitude === null || longitude === null ? null : `${latitude}, ${longitude}`;

function LocationFields({ location }: { location: LocationRow }) {
  return (
    <dl className="panel-fields">
      <Field label="Health">
        <LocationHealth location={location} />
      </Field>
      <Field label="Status">{STATUS_LABELS[location.status] ?? location.status}</Field>
      <Field label="Store code">{location.store_code}</Field>
      <Field label="Address">{location.address}</Field>
      <Field label="City">{location.city}</Field>
      <Field label="State or province">{location.state}</Field>
      <Field label="Postal code">{location.zip}</Field>
      <Field label="Country">{location.country}</Field>
      <Field label="Phone">{location.phone}</Field>
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

/**
 * One location's fields beside the table, read-only for now. It takes focus when it opens or shows
 * another location; Escape or Close closes it, and the table stays usable meanwhile.
 */
export function LocationPanel({ locationId, onClose }: { locationId: string; onClose: () => void }) {
  const { location, loading } = useLocationRecord(locationId);
  const heading = useRef<HTMLHeadingElement>(null);
  const found = location !== undefined;
  useEffect(() => {
    if (found) heading.current?.focus();
  }, [locationId, found]);

  return (
    <aside
      className="side-panel"
      aria-labelledby="location-panel-title"
      data-testid="location-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header className="side-panel-header">
        <h2 id="location-panel-title" ref={heading} tabIndex={-1}>
          {location?.name ?? 'Location'}
        </h2>
        <button type="button" className="button button-quiet" onClick={onClose}>
          Close
        </button>
      </header>
      {location ? (
        <LocationFields location={location} />
      ) : (
        <p className="muted">
          {loading ? 'Loading the location…' : 'This location is not among this client’s locations any more.'}
        </p>
      )}
    </aside>
  );
}
