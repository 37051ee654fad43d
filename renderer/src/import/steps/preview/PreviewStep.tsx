import { LostLettersNotice } from '../../columns/LostLettersNotice.js';
import { useDeferredValue, useMemo, useState } from 'react';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { formatCount, plural } from '../../../format.js';
import type { CheckReport, GridFilter } from '../../protocol.js';
import type { ImportJobView } from '../../use-import.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';
import { FixGrid } from './FixGrid.js';
import { ImportPreview, importLabel, rowsToWrite } from './ImportPreview.js';
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
  const blocked = report.totals.error;
  const toImport = rowsToWrite(report, keepDuplicates);
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
      <div className="dialog-actions">
        <button type="button" className="button" onClick={job.backToMapping}>
          Back to the columns
        </button>
        {blocked > 0 && (
          <span className="muted" role="status">
            Fix or leave out the {plural(blocked, 'row')} with problems to continue.
          </span>
        )}
        {blocked === 0 && toImport === 0 && !busy && (
          <span className="muted" role="status">
            {nothingToWrite(report)}
          </span>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={blocked > 0 || toImport === 0 || busy}
          onClick={() => job.start(keepDuplicates && report.choice.mode === 'create' ? 'keep' : 'skip')}
        >
          {importLabel(report, keepDuplicates)}
        </button>
      </div>
    </>
  );
}

/** Why the import button is off when no row has a problem: there is nothing to write, and why. */
function nothingToWrite(report: CheckReport): string {
  const { unchanged, skipped } = report.totals;
  if (unchanged > 0)
    return `Nothing to write: every location already has these values (${formatCount(unchanged)} unchanged).`;
  if (skipped > 0 && report.choice.mode === 'create') {
    return 'Nothing to write: every row is already a location. To change them, choose to update matching locations.';
  }
  return 'Nothing to write.';
}
