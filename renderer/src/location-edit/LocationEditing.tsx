import { useState } from 'react';
import { useLocation } from '../api/location-queries.js';
import { sessionState } from '../api/session.js';
import { LocationHistory } from '../history/LocationHistory.js';
import { DeleteLocation } from './DeleteLocation.js';
import { LocationEditor } from './LocationEditor.js';

/**
 * In a location's panel: "Edit" for an Admin, which opens the location's whole record (its place id
 * included) as a form, and "Delete"; the panel's read-only fields show otherwise.
 */
export function LocationEditing({
  locationId,
  onDeleted,
  children,
}: {
  locationId: string;
  onDeleted: (locationId: string) => void;
  children: React.ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  // Save and Cancel unmount the form that held the focus: the keyboard goes on from Edit location.
  const [edited, setEdited] = useState(false);
  // What the last save could not keep, said once the form is gone: Save left a phone's extension unsaid.
  const [unkept, setUnkept] = useState<string | undefined>();
  const isAdmin = sessionState().session?.user.role === 'admin';
  const record = useLocation(locationId);
  if (!isAdmin) {
    return (
      <>
        {children}
        <LocationHistory locationId={locationId} />
      </>
    );
  }
  const view = (
    <>
      <div className="location-actions">
        <button
          type="button"
          className="button"
          autoFocus={edited}
          onClick={() => setEditing(true)}
          disabled={!record.data}
        >
          Edit location
        </button>
        <DeleteLocation location={record.data} onDeleted={onDeleted} />
      </div>
      {children}
      <LocationHistory locationId={locationId} />
    </>
  );
  const editor = record.data ? (
    <LocationEditor
      key={record.data.updated_at}
      location={record.data}
      onDone={(words) => {
        setEditing(false);
        setEdited(true);
        setUnkept(words);
      }}
    />
  ) : (
    <p className="muted">Loading the location…</p>
  );
  return (
    <>
      {/* A live region there from the start, so that a screen reader says the note when it comes (a review). */}
      <div role="status">
        {!editing && unkept !== undefined && <p className="notice notice-warning">Saved. {unkept}</p>}
      </div>
      {editing ? editor : view}
    </>
  );
}
