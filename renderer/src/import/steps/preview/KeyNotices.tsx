import type { CheckReport } from '../../protocol.js';
import { RowsWarning, type CountedRows } from './RowNotices.js';

// Warnings about the keys rows are matched on and the locations they match (the server's no_key,
// place_id_of, store_code_case_of, changed_since): what importing the file, or importing it again, would do
// that the person may not expect.

/**
 * Rows to create with no store code, no place id and no address (the server's no_key): nothing tells
 * the location they make from a new row, so each import of the file adds them again (a walk's re-import
 * of the same sheet added 20 more locations each time).
 */
export function NoKeyNotice({ noKey }: { noKey: CountedRows }) {
  const one = noKey.count === 1;
  return (
    <RowsWarning
      rows={noKey}
      testId="no-key"
      says={['has no store code, place id or address', 'have no store code, place id or address']}
    >
      Importing {one ? 'it' : 'them'} again would add {one ? 'it' : 'them'} again: nothing can match{' '}
      {one ? 'it' : 'them'} to the {one ? 'location it makes' : 'locations they make'}. Give{' '}
      {one ? 'the row a store code or an address' : 'the rows store codes or addresses'} to keep {one ? 'it' : 'them'}{' '}
      up to date by file.
    </RowsWarning>
  );
}

/**
 * Updates that give their location the Google place id another stored location has (the server's
 * place_id_of): the two would then be one place on Google's map. Most often a place id pasted on the
 * wrong row, or two rows' ids swapped.
 */
export function PlaceIdsTakenNotice({ placeIdsTaken }: { placeIdsTaken: CountedRows }) {
  const one = placeIdsTaken.count === 1;
  return (
    <RowsWarning
      rows={placeIdsTaken}
      testId="place-ids-taken"
      says={[
        'gives its location the place id of another stored location',
        'give their locations the place ids of other stored locations',
      ]}
    >
      Two locations would then share one Google place. Check {one ? 'its' : 'their'} Google place {one ? 'id' : 'ids'}{' '}
      in the file.
    </RowsWarning>
  );
}

/**
 * Rows whose store code matches no stored location while one has it in other capitals (the server's
 * store_code_case_of: "sea-001" for SEA-001). Store codes match exactly, as Google's do.
 */
export function CodesInOtherCaseNotice({
  codesInOtherCase,
  mode,
}: {
  codesInOtherCase: CountedRows;
  mode: CheckReport['choice']['mode'];
}) {
  const one = codesInOtherCase.count === 1;
  const outcome =
    mode === 'update'
      ? `${one ? 'it is' : 'they are'} skipped.`
      : `importing adds ${one ? 'a second location' : 'second locations'}.`;
  return (
    <RowsWarning
      rows={codesInOtherCase}
      testId="codes-in-other-case"
      says={[
        'has the store code of a stored location in other capitals',
        'have the store codes of stored locations in other capitals',
      ]}
    >
      Store codes match exactly: {outcome} To update the stored {one ? 'location' : 'locations'}, write{' '}
      {one ? 'the code' : 'the codes'} as stored (the export has {one ? 'it' : 'them'}).
    </RowsWarning>
  );
}

/**
 * Updates to locations changed in Agency Desk after the file was exported (the server's changed_since): the
 * file still has the values from before, and importing it puts them back over the newer ones. One click
 * leaves those rows out; the rest of the file is imported as it is.
 */
export function ChangedSinceNotice({
  changedSince,
  onLeave,
}: {
  changedSince: CountedRows;
  onLeave: (() => void) | null;
}) {
  const one = changedSince.count === 1;
  return (
    <RowsWarning
      rows={changedSince}
      testId="changed-since"
      says={[
        'updates a location changed in Agency Desk since this file was exported',
        'update locations changed in Agency Desk since this file was exported',
      ]}
    >
      Importing {one ? 'it' : 'them'} puts back the file’s older values where {one ? 'it differs' : 'they differ'} (each
      change is in the list of updates below): export again to start from today’s values.{' '}
      {onLeave && (
        <button type="button" className="button button-small" onClick={onLeave}>
          Leave {one ? 'this row' : 'these rows'} out
        </button>
      )}
    </RowsWarning>
  );
}
