import { useQuery } from '@tanstack/react-query';
import { authorized } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { formatDateTime } from '../format.js';
import { entryInWords, type HistoryEntry } from './entry-words.js';
import { usePhoneText } from '../phone-text.js';

/**
 * A location's history in its panel (issue 11): who changed which field, from what to what, and when, and
 * the imports, bulk changes and undos that changed it (GET /api/audit?locationId=).
 */
export function LocationHistory({ locationId }: { locationId: string }) {
  usePhoneText(); // the entries' words group phones once it has loaded
  const history = useQuery({
    queryKey: ['history', 'location', locationId],
    queryFn: async () =>
      (
        await authorized<{ entries: HistoryEntry[] }>(
          `/api/audit?locationId=${encodeURIComponent(locationId)}&limit=20`,
        )
      ).data.entries,
  });
  if (history.isError) return <ErrorNotice error={history.error} />;
  if (!history.data || history.data.length === 0) return null;
  return (
    <section className="location-history" aria-label="History of this location">
      <h3>History</h3>
      <ol className="history-list">
        {history.data.map((entry, _at, entries) => (
          <li key={entry.id} data-testid="location-history-entry">
            <time className="muted" dateTime={entry.at}>
              {formatDateTime(entry.at)}
            </time>{' '}
            <span className="history-words">{entryInWords(entry, entries)}</span>
            {entry.undone_by !== null && <span className="muted"> (undone)</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
