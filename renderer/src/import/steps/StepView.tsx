import { CancelledStep } from './cancelled/CancelledStep.js';
import { CheckingStep } from './checking/CheckingStep.js';
import { ImportDone } from './done/ImportDone.js';
import { FileStep } from './file/FileStep.js';
import { ImportingStep } from './importing/ImportingStep.js';
import { MappingStep } from './mapping/MappingStep.js';
import { PreviewStep } from './preview/PreviewStep.js';
import { ReadingStep } from './reading/ReadingStep.js';
import { ChooseSheet } from './sheet/ChooseSheet.js';
import type { ReactNode } from 'react';
import type { ImportJobView } from '../use-import.js';

/** The current step's view. */
export function StepView({
  job,
  clientName,
  pickedFile,
  onFile,
  onClose,
  onUndone,
  mappingNotice,
}: {
  job: ImportJobView;
  clientName: string;
  pickedFile: File | null;
  onFile: (file: File) => void;
  onClose: () => void;
  onUndone: () => void;
  /** Said on the column step: a saved mapping applied. */
  mappingNotice?: ReactNode;
}) {
  const { step } = job.state;
  switch (step.kind) {
    case 'file':
      return <FileStep step={step} onFile={onFile} />;
    case 'reading':
      return <ReadingStep step={step} />;
    case 'sheet':
      // No step heading: the sheet list's legend names the step, and its likeliest sheet takes the focus.
      return (
        <ChooseSheet
          fileName={step.fileName}
          sheets={step.sheets}
          onChoose={(sheet) => pickedFile && job.read(pickedFile, undefined, sheet)}
          onCancel={job.reset}
        />
      );
    case 'mapping':
      return (
        <MappingStep
          step={step}
          onMapping={job.setMapping}
          onOptions={job.setOptions}
          onEncoding={(encoding) => pickedFile && job.read(pickedFile, encoding, step.file.sheet)}
          onAnother={job.reset}
          onCheck={job.check}
          notice={mappingNotice}
        />
      );
    case 'checking':
      return <CheckingStep step={step} />;
    case 'preview':
      return <PreviewStep job={job} step={step} />;
    case 'importing':
      return <ImportingStep step={step} onCancel={job.cancel} />;
    case 'done':
      return (
        <ImportDone
          summary={step.summary}
          clientName={clientName}
          fileName={step.fileName}
          sheets={{ read: step.sheet, others: step.otherSheets ?? [] }}
          onAnother={job.reset}
          onClose={onClose}
          onUndone={onUndone}
        />
      );
    case 'cancelled':
      return <CancelledStep step={step} onAnother={job.reset} onClose={onClose} />;
  }
}
