import type { ReactNode } from 'react';
import { formatCount, linesWords, plural } from '../../../format.js';
import type { CheckReport } from '../../protocol.js';

export type CountedRows = CheckReport['foreignIds'];

/** A warning on some rows that are still imported: how many, on which lines, and what it means. */
export function RowsWarning({
  rows,
  testId,
  says,
  children,
}: {
  rows: CountedRows;
  testId: string;
  says: [string, string];
  children: ReactNode;
}) {
  const { count, lines } = rows;
  if (count === 0) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid={testId}>
      <strong>
        {plural(count, 'row')} {count === 1 ? says[0] : says[1]}
      </strong>{' '}
      ({linesWords(lines, count)}). {children}
    </div>
  );
}

/**
 * A header repeated in another column order (the server refuses such a file): the rows below it are a
 * second table, left out for good; the first table is imported, the second belongs in a file of its own.
 */
export function SecondTableNotice({ secondTable }: { secondTable: CheckReport['secondTable'] }) {
  if (secondTable === null) return null;
  const below = secondTable.rows - 1;
  return (
    <div className="notice notice-warning" role="status" data-testid="second-table">
      <strong>
        Line {formatCount(secondTable.line)} repeats the header with its columns in another order: a second table starts
        there.
      </strong>{' '}
      It and the {plural(below, 'row')} below it are left out, as they would be read into the wrong fields. Import them
      as a file of their own (or give them the first table’s column order).
    </div>
  );
}

/**
 * Rows that carry a location id of none of this client's locations (the server's note, in upsert and
 * update): most often the file is another client's export, and its rows would be created here.
 */
export function ForeignIdsNotice({ foreignIds }: { foreignIds: CountedRows }) {
  const one = foreignIds.count === 1;
  return (
    <RowsWarning
      rows={foreignIds}
      testId="foreign-ids"
      says={[
        'carries a location id that is not one of this client’s',
        'carry a location id that is not one of this client’s',
      ]}
    >
      {one ? 'It is' : 'They are'} matched by store code, place id or name and address instead, and created when nothing
      matches. If the file is another client’s export, import it into that client.
    </RowsWarning>
  );
}

/**
 * Rows whose store code (or place id) matches no stored location while their place id or name and
 * address are a stored location's (the server's same_place_as, in upsert and update): the code was
 * changed in the sheet or in the app, and an upsert would add a second location at that place.
 */
export function SamePlaceNotice({ samePlace, mode }: { samePlace: CountedRows; mode: CheckReport['choice']['mode'] }) {
  const one = samePlace.count === 1;
  const outcome =
    mode === 'update'
      ? `${one ? 'It is' : 'They are'} skipped: nothing matches ${one ? 'its' : 'their'} store code.`
      : `Importing adds a second location at ${one ? 'that place' : 'each place'}.`;
  return (
    <RowsWarning
      rows={samePlace}
      testId="same-place"
      says={[
        'matches a stored location by its address or place id, not by its store code',
        'match stored locations by their address or place id, not by their store code',
      ]}
    >
      {outcome} To update the stored {one ? 'location' : 'locations'} instead, give{' '}
      {one ? 'the row its' : 'the rows their'} store {one ? 'code' : 'codes'} (the export has them), or leave{' '}
      {one ? 'it' : 'them'} out.
    </RowsWarning>
  );
}

/**
 * Rows whose phone carried an extension (the server's phone_extension): a listing's phone is one number
 * in E.164, which has no extension, so the extension is not kept.
 */
export function PhoneExtensionsNotice({ phoneExtensions }: { phoneExtensions: CountedRows }) {
  const one = phoneExtensions.count === 1;
  return (
    <RowsWarning
      rows={phoneExtensions}
      testId="phone-extensions"
      says={['has a phone with an extension', 'have phones with an extension']}
    >
      A listing’s phone is one number, without an extension (“ext. 3”): {one ? 'its number is' : 'their numbers are'}{' '}
      kept, {one ? 'its extension' : 'their extensions'} not. To list another number, change the cell.
    </RowsWarning>
  );
}

/**
 * Rows whose store code is a stored location's but for its leading zeros (the server's store_code_given):
 * Excel saves a code of digits as a number. They are read as the stored codes, which are kept.
 */
export function CodesWithoutZerosNotice({ codesWithoutZeros }: { codesWithoutZeros: CountedRows }) {
  const one = codesWithoutZeros.count === 1;
  return (
    <RowsWarning
      rows={codesWithoutZeros}
      testId="codes-without-zeros"
      says={['has a store code without its leading zeros', 'have store codes without their leading zeros']}
    >
      Excel saves a code of digits as a number (00123 as 123). {one ? 'It is' : 'They are'} read as the stored{' '}
      {one ? 'code' : 'codes'}, with the zeros, and {one ? 'that code stays' : 'those codes stay'} as{' '}
      {one ? 'it is' : 'they are'}.
    </RowsWarning>
  );
}

/**
 * In create mode, skipped rows whose values differ from the locations they repeat (the server's
 * would_change): adding new locations only leaves those locations as they were, which a walk did not see
 * (a changed phone was skipped without a word). One click checks the rows again as an upsert.
 */
export function SkippedChangesNotice({ skipped, onUpdate }: { skipped: CountedRows; onUpdate: (() => void) | null }) {
  const one = skipped.count === 1;
  return (
    <RowsWarning
      rows={skipped}
      testId="skipped-changes"
      says={['is skipped though it differs from its location', 'are skipped though they differ from their locations']}
    >
      Adding new locations only leaves {one ? 'that location' : 'those locations'} as {one ? 'it is' : 'they are'}.{' '}
      {onUpdate && (
        <button type="button" className="button button-small" onClick={onUpdate}>
          Update matching locations instead
        </button>
      )}
    </RowsWarning>
  );
}
