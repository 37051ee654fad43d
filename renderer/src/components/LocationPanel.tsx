import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from '../api/location-queries.js';
import { ApiError } from '../api/http.js';
import { keys } from '../api/queries.js';
import { useListState, useShownLocationList } from '../locations/use-location-list.js';
import type { LocationRow } from '../api/types.js';
import { LocationFields } from './LocationFields.js';
import { LocationEditing } from '../location-edit/LocationEditing.js';

/**
 * The location a panel shows: at once from the client's list (the rows in view, else asked of the locations
 * worker), then as the server has it now (GET /api/locations/:id). A record changed since the list was read
 * (a script's PATCH, a colleague's edit: a walk's panel showed the old store code under a history naming
 * the new one), or gone, is shown so, and the list is read again. `loading` while the list may still bring it.
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
  const listed = inView ?? found ?? undefined;
  const record = useLocation(locationId);
  const gone = record.error instanceof ApiError && record.error.status === 404;
  // The newer of the two is shown, by when it was last changed (ISO times compare as text); the other is read again.
  const fresh = record.data;
  const listOlder = gone || (fresh !== undefined && listed !== undefined && fresh.updated_at > listed.updated_at);
  const recordOlder = fresh !== undefined && listed !== undefined && listed.updated_at > fresh.updated_at;
  const cache = useQueryClient();
  const recordRead = Math.max(record.dataUpdatedAt, record.errorUpdatedAt);
  useEffect(() => {
    if (!listOlder || !list) return;
    // A list read since the record holds its change already, only not rendered yet: a save read both,
    // and the record's answer was shown a moment before the list's (a full run read the list twice).
    const listRead = cache.getQueryState(keys.locations(list.clientId))?.dataUpdatedAt ?? 0;
    if (listRead >= recordRead) return;
    // Not while the list is being read again already (a save in the panel asks for it): no second reading.
    void cache.invalidateQueries({ queryKey: keys.locations(list.clientId) }, { cancelRefetch: false });
  }, [listOlder, list, cache, recordRead]);
  useEffect(() => {
    // An import read the list again, not the record the panel held (a review).
    if (recordOlder) void cache.invalidateQueries({ queryKey: ['location', locationId] }, { cancelRefetch: false });
  }, [recordOlder, locationId, cache]);
  return { location: gone ? undefined : recordOlder ? listed : (fresh ?? listed), loading: !state.loaded };
}

/**
 * One location's fields beside the table, read-only for now. It takes focus when it opens or shows
 * another location; Escape or Close closes it, and the table stays usable meanwhile.
 */
export function LocationPanel({
  locationId,
  onClose,
  onDeleted,
}: {
  locationId: string;
  onClose: () => void;
  /** An Admin deleted the location from the panel. */
  onDeleted: (locationId: string) => void;
}) {
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
        if (event.key !== 'Escape') return;
        // Handled: the key's own close request must not reach a dialog opened meanwhile (the question
        // about unsaved changes), which it would close at once.
        event.preventDefault();
        onClose();
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
        // Each location opens read-only: an editor never carries over to the next one.
        <LocationEditing key={location.id} locationId={location.id} onDeleted={onDeleted}>
          <LocationFields location={location} />
        </LocationEditing>
      ) : (
        <p className="muted">
          {loading ? 'Loading the location…' : 'This location is not among this client’s locations any more.'}
        </p>
      )}
    </aside>
  );
}
