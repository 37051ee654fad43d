import { plural } from '../../../format.js';
import type { CancelReport } from '../../protocol.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** What a cancel did, in words: nothing was written, or what the requests already written had done and was undone. */
export function cancelledWords({ undone, removed, restored }: CancelReport): string {
  if (undone === 0) return 'Import cancelled: nothing was written.';
  const parts = [
    removed > 0 ? `${plural(removed, 'location')} already written ${removed === 1 ? 'was' : 'were'} removed again` : '',
    restored > 0 ? `${plural(restored, 'location')} already updated ${restored === 1 ? 'was' : 'were'} put back` : '',
  ].filter((part) => part !== '');
  const what =
    parts.length > 0
      ? parts.join(' and ')
      : `${plural(undone, 'request')} already written ${undone === 1 ? 'was' : 'were'} undone`;
  return `Import cancelled: ${what}. Nothing of this file stays written.`;
}

/** A cancelled import: what was written was undone, or which parts could not be. */
export function CancelledStep({
  step,
  onAnother,
  onClose,
}: {
  step: Extract<Step, { kind: 'cancelled' }>;
  onAnother: () => void;
  onClose: () => void;
}) {
  const { notUndone } = step.report;
  return (
    <div data-testid="import-cancelled">
      <StepHeading>Import cancelled</StepHeading>
      {notUndone.length === 0 ? (
        <p role="status">{cancelledWords(step.report)}</p>
      ) : (
        <div className="notice notice-error" role="alert">
          <p>
            Import cancelled, but {plural(notUndone.length, 'request')} could not be undone and their rows stay written.
            Undo them from the client’s History:
          </p>
          <ul>
            {notUndone.map(({ operation, message }) => (
              <li key={operation}>
                Operation {operation}: {message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onAnother}>
          Import another file
        </button>
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
