import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { FileDropZone } from '../../../components/FileDropZone.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** Step 1: the drop zone, and why the last file was refused. */
export function FileStep({ step, onFile }: { step: Extract<Step, { kind: 'file' }>; onFile: (file: File) => void }) {
  const { rejection } = step;
  return (
    <>
      <StepHeading>Choose a file</StepHeading>
      {rejection && (
        <div className="notice notice-error" role="alert" data-testid="rejection">
          <strong>
            {rejection.fileName ? `“${rejection.fileName}” cannot be imported.` : 'This file cannot be imported.'}
          </strong>
          <p>{rejection.message}</p>
          <p className="small">Nothing was sent.</p>
        </div>
      )}
      <ErrorNotice error={step.error} />
      <FileDropZone onFile={onFile} />
    </>
  );
}
