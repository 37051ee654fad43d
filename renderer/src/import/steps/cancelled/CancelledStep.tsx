import { plural } from '../../../format.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

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
        <p role="status">Import cancelled: nothing was written.</p>
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
