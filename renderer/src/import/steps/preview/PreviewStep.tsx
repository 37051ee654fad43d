import { LostLettersNotice } from '../../columns/LostLettersNotice.js';
import { useDeferredValue, useMemo, useState } from 'react';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import type { GridFilter } from '../../protocol.js';
import type { ImportJobView } from '../../use-import.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';
import { FixGrid } from './FixGrid.js';
import { ImportPreview } from './ImportPreview.js';
import { PreviewActions } from './PreviewActions.js';
import type { PreviewFilter } from './PreviewTotals.js';

/** Step 3: the dry run, the grid to fix rows in bulk, the mode, and the import button. */
export function PreviewStep({ job, step }: { job: ImportJobView; step: Extract<Step, { kind: 'preview' }> }) {
  const { report, busy } = step;
  const [keepDuplicates, setKeepDuplicates] = useState(false);
  const [show, setShow] = useState<PreviewFilter>('all');
  const [text, setText] = useState('');
  // Typing stays quick: the worker filters the rows for the latest text only.
  const deferredText = useDeferredValue(text);
  const filter = useMemo<GridFilter>(() => ({ show, text: deferredText }), [show, deferredText]);
  return (
    <>
      <StepHeading>Check and fix the rows of {step.fileName}</StepHeading>
      <ErrorNotice error={step.error} />
      <LostLettersNotice lostLetters={step.file.lostLetters} />
      <ImportPreview
        report={report}
        choice={job.state.choice}
        busy={busy}
        filter={show}
        keepDuplicates={keepDuplicates}
        onKeepDuplicates={setKeepDuplicates}
        onChoose={job.choose}
        onFilter={setShow}
        onLeaveChangedSince={() => void job.leave('changed-since', true)}
      >
        <FixGrid
          job={job}
          report={report}
          busy={busy}
          filter={filter}
          text={text}
          selection={job.state.selection}
          onText={setText}
          onSelection={job.select}
        />
      </ImportPreview>
      <PreviewActions
        report={report}
        busy={busy}
        keepDuplicates={keepDuplicates}
        onBack={job.backToMapping}
        onStart={() => job.start(keepDuplicates && report.choice.mode === 'create' ? 'keep' : 'skip')}
      />
    </>
  );
}
