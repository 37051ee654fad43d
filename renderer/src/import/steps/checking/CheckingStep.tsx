import { ProgressView } from '../../../components/ImportSteps.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** The server's dry run over every row, before the preview. */
export function CheckingStep({ step }: { step: Extract<Step, { kind: 'checking' }> }) {
  return (
    <>
      <StepHeading>Checking the rows</StepHeading>
      <ProgressView progress={step.progress} fallback="Checking the rows with the server" />
    </>
  );
}
