import { ProgressView } from '../../../components/ImportSteps.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** The file being decoded and parsed in the worker. */
export function ReadingStep({ step }: { step: Extract<Step, { kind: 'reading' }> }) {
  return (
    <>
      <StepHeading>Reading {step.fileName}</StepHeading>
      <ProgressView progress={step.progress} fallback={`Opening ${step.fileName}`} />
    </>
  );
}
