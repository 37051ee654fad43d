import { TEMPLATE_CSV } from './FileDropZone.js';

/** A client without locations: how an Admin adds them, or who will. */
export function NoLocationsYet({ isAdmin, onImport }: { isAdmin: boolean; onImport: () => void }) {
  return (
    <div className="empty-state">
      <h2>No locations yet</h2>
      {isAdmin ? (
        <>
          <p>Drop a CSV or Excel file of this client’s locations anywhere on this page, or choose one.</p>
          <button type="button" className="button button-primary" onClick={onImport}>
            Import a CSV or Excel file
          </button>
          <p className="small">
            <a href={TEMPLATE_CSV} download="locations-template.csv">
              Download the template CSV
            </a>{' '}
            to see the expected columns.
          </p>
        </>
      ) : (
        <p>An Admin of your agency imports the locations; they will appear here.</p>
      )}
    </div>
  );
}
