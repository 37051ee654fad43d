import { useEffect, useState } from 'react';
import { ApiError } from '../api/http.js';
import type { BulkChangeAnswer } from '../api/location-queries.js';
import { authorized } from '../api/session.js';
import type { BulkEdit } from './bulk-change.js';

/** What the dialog knows of a change before it is made, from the server's dry run. */
export type BulkPreview =
  | { state: 'none' }
  | { state: 'counting' }
  | { state: 'counted'; count: number }
  | { state: 'refused'; message: string };

// The dry run reads every location chosen on the writer's thread: 10,000 take about 150 ms, 100,000
// 1.7 s (README: "Editing locations and clients"); past this the dialog does not ask.
export const PREVIEW_LIMIT = 10_000;
// Asked once the typing pauses, not once a letter.
const PAUSE_MS = 300;

/**
 * How many of `ids` the edit would change, asked of the server (`PATCH /api/locations?dryRun=true`),
 * which holds the labels rule and the 10-label limit: the dialog counts nothing by itself.
 */
export function useBulkPreview(ids: readonly string[], edit: BulkEdit | null): BulkPreview {
  const key = edit === null || ids.length > PREVIEW_LIMIT ? null : JSON.stringify(edit);
  const [answer, setAnswer] = useState<{ key: string; preview: BulkPreview } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    const answered = (preview: BulkPreview) => {
      if (!abort.signal.aborted) setAnswer({ key, preview });
    };
    const timer = setTimeout(() => {
      authorized<BulkChangeAnswer>('/api/locations?dryRun=true', {
        method: 'PATCH',
        json: { ids, ...(JSON.parse(key) as BulkEdit) },
        signal: abort.signal,
      }).then(
        ({ data }) => answered({ state: 'counted', count: data.count }),
        (error: unknown) =>
          // A refusal is the field's to show; anything else (the server away) just leaves the count unsaid.
          answered(
            error instanceof ApiError && error.status === 400
              ? { state: 'refused', message: error.details[0]?.message ?? error.message }
              : { state: 'none' },
          ),
      );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [ids, key]);
  if (key === null) return { state: 'none' };
  return answer?.key === key ? answer.preview : { state: 'counting' };
}
