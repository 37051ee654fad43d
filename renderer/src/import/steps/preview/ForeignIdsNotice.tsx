import { linesWords, plural } from '../../../format.js';
import type { CheckReport } from '../../protocol.js';

/**
 * Rows that carry a location id of none of this client's locations (the server's note, in upsert and
 * update): most often the file is another client's export, and its rows would be created here.
 */
export function ForeignIdsNotice({ foreignIds }: { foreignIds: CheckReport['foreignIds'] }) {
  const { count, lines } = foreignIds;
  if (count === 0) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid="foreign-ids">
      <strong>
        {plural(count, 'row')} {count === 1 ? 'carries' : 'carry'} a location id that is not one of this client’s
      </strong>{' '}
      ({linesWords(lines, count)}). {count === 1 ? 'It is' : 'They are'} matched by store code, place id or name and
      address instead, and created when nothing matches. If the file is another client’s export, import it into that
      client.
    </div>
  );
}
