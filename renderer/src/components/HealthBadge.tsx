import type { Health, LocationRow } from '../api/types.js';
import { STATUS_WORDS } from '../locations/status-words.js';

export const HEALTH_LABELS: Record<Health, string> = {
  green: 'Green',
  yellow: 'Yellow',
  red: 'Red',
  closed: 'Closed',
};

function Reasons({ score, issues, hints }: { score: number; issues?: readonly string[]; hints: readonly string[] }) {
  if (issues && issues.length > 0) return <span className="health-issues">{issues.join(', ')}</span>;
  if (hints.length > 0) {
    return (
      <span className="health-issues health-hints">
        <span className="health-hint-label">To improve:</span> {hints.join(', ')}
      </span>
    );
  }
  return score === 100 ? <span className="health-issues muted">Complete</span> : null;
}

/**
 * A green, yellow or red badge with the score, and beside it the server's reasons: issues when it is
 * not green, hints (quieter) when it is green but not complete. The rule itself lives on the server only.
 */
export function HealthBadge({
  status,
  score,
  issues,
  hints = [],
}: {
  status: Health;
  score: number;
  issues?: readonly string[];
  hints?: readonly string[];
}) {
  // Closed for good: no score is shown, nor what would raise it (README: "Health").
  if (status === 'closed') {
    return (
      <span className="health" title="Permanently closed: not scored">
        <span className="health-badge health-closed">
          <span className="health-dot" aria-hidden="true" />
          {HEALTH_LABELS.closed}
        </span>
        <span className="health-issues muted">Not scored</span>
      </span>
    );
  }
  const reasons = issues && issues.length > 0 ? issues : hints;
  const explanation =
    reasons.length > 0 ? reasons.join('; ') : score === 100 ? 'Complete' : `${HEALTH_LABELS[status]}, score ${score}`;
  return (
    <span className="health" title={explanation}>
      <span className={`health-badge health-${status}`}>
        <span className="health-dot" aria-hidden="true" />
        <span className="sr-only">{HEALTH_LABELS[status]}, score </span>
        {score}
      </span>
      <Reasons score={score} issues={issues} hints={hints} />
    </span>
  );
}

/** A location's badge with the server's reasons: a stored location, or a row of an import's preview. */
export function LocationHealth({
  location,
}: {
  location: Pick<LocationRow, 'status' | 'health_status' | 'health_score' | 'health_issues' | 'health_hints'>;
}) {
  return (
    <span className="location-health">
      {/* Scored as usual, but not open today: said before the score (a permanently closed one reads "Closed"). */}
      {/* Short on screen: the full words left the reasons beside it one letter at 1400 pixels (a walk). */}
      {location.status === 'temporarily_closed' && (
        <span className="status-tag" title={STATUS_WORDS.temporarily_closed}>
          <span aria-hidden="true">Temp. closed</span>
          <span className="sr-only">{STATUS_WORDS.temporarily_closed}</span>
        </span>
      )}
      <HealthBadge
        status={location.health_status}
        score={location.health_score}
        issues={location.health_issues}
        hints={location.health_hints}
      />
    </span>
  );
}
