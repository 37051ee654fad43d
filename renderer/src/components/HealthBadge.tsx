import { healthOf, NO_PLACE_ID } from '../../../server/locations/health.js';
import type { Health, LocationRow } from '../api/types.js';

export const HEALTH_LABELS: Record<Health, string> = { green: 'Green', yellow: 'Yellow', red: 'Red' };

// Google's documented example place id (Places API, "Place IDs"): it stands in for a place id that passes the rule.
const SOME_PLACE_ID = 'ChIJN1t_tDeuEmsRUsoyG83frY4';

/**
 * What lowers a listed location's score, by the server's own rule (server/locations/health.ts). The
 * list does not carry google_place_id, so whether its points were earned is read from the score.
 */
export function healthIssuesOf(location: LocationRow): string[] {
  const fields = {
    address: location.address,
    city: location.city,
    state: location.state,
    zip: location.zip,
    country: location.country,
  };
  const withPlaceId = healthOf({ ...fields, google_place_id: SOME_PLACE_ID });
  if (withPlaceId.score === location.health_score) return withPlaceId.issues;
  // Missing or malformed: the list cannot tell which, so the words cover both.
  return healthOf({ ...fields, google_place_id: null }).issues.map((issue) =>
    issue === NO_PLACE_ID ? 'No valid Google place id' : issue,
  );
}

/** A green, yellow or red badge with the score; the reasons it is not 100 sit beside it. */
export function HealthBadge({ status, score, issues }: { status: Health; score: number; issues: readonly string[] }) {
  const explanation = issues.length > 0 ? issues.join('; ') : 'Complete';
  return (
    <span className="health" title={explanation}>
      <span className={`health-badge health-${status}`}>
        <span className="health-dot" aria-hidden="true" />
        <span className="sr-only">{HEALTH_LABELS[status]}, score </span>
        {score}
      </span>
      <span className="health-issues">
        {issues.length > 0 ? issues.join(', ') : <span className="muted">Complete</span>}
      </span>
    </span>
  );
}
