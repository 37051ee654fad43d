import { useState } from 'react';
import type { SkippedRow } from '../import/protocol.js';
import { formatCount } from '../format.js';
import { PAGE, ShowMore } from './ShowMore.js';

const MATCHED_BY = {
  id: 'same location id',
  store_code: 'same store code',
  google_place_id: 'same Google place id',
  name_and_address: 'same name and address',
} as const;

/** Why the server skips a row, in words: the duplicate it is, or the server's own reason. */
function skipReason(skipped: SkippedRow): string {
  const { duplicate } = skipped;
  if (!duplicate) return skipped.skipReason ?? 'Skipped';
  const what = MATCHED_BY[duplicate.reason];
  return duplicate.ofLine === null
    ? `Already a location of this client (${what})`
    : `Repeats line ${formatCount(duplicate.ofLine)} (${what})`;
}

/** The rows the import skips; in "add new locations only", duplicates can be imported anyway. */
export function SkippedRows({
  rows,
  keepDuplicates,
  onKeepDuplicates,
}: {
  rows: SkippedRow[];
  /** null when the mode has no such choice. */
  keepDuplicates: boolean | null;
  onKeepDuplicates: (keep: boolean) => void;
}) {
  const [shown, setShown] = useState(PAGE);
  return (
    <section aria-labelledby="skipped-title" className="preview-section">
      <header className="section-header">
        <h3 id="skipped-title">Skipped</h3>
        {keepDuplicates !== null && rows.some((row) => row.duplicate) && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={keepDuplicates}
              onChange={(event) => onKeepDuplicates(event.target.checked)}
            />
            Import duplicates anyway
          </label>
        )}
      </header>
      <table className="simple-table" data-testid="duplicates">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Name</th>
            <th scope="col">Address</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((row) => (
            <tr key={row.row}>
              <td>{formatCount(row.line)}</td>
              <td>{row.name}</td>
              <td>{[row.address, row.city].filter(Boolean).join(', ')}</td>
              <td>{skipReason(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore total={rows.length} shown={shown} onMore={setShown} />
    </section>
  );
}
