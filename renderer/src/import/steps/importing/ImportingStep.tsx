import { ProgressView } from '../../../components/ImportSteps.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** The import under way, request after request, with Cancel (which undoes what was written). */
export function ImportingStep({
  step,
  onCancel,
}: {
  step: Extract<Step, { kind: 'importing' }>;
  onCancel: () => void;
}) {
  return (
    <>
      <StepHeading>Importing {step.fileName}</StepHeading>
      <ProgressView progress={step.progress} fallback="Importing" />
      {step.cancelling && (
        <p role="status" className="muted">
          Cancelling: undoing what was written…
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" disabled={step.cancelling} onClick={onCancel}>
          Cancel the import
        </button>
      </div>
    </>
  );
}
