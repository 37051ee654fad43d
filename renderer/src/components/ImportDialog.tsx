import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '../api/queries.js';
import { useImport } from '../import/use-import.js';
import { plural } from '../format.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { FileDropZone } from './FileDropZone.js';
import { CheckButton } from '../import/columns/CheckButton.js';
import { ColumnMapper } from '../import/columns/ColumnMapper.js';
import { ImportDone } from './ImportDone.js';
import { ImportPreview, importLabel, rowsToWrite } from './ImportPreview.js';
import { ImportSteps, ProgressView } from './ImportSteps.js';
import { ChooseSheet } from '../import/sheet/ChooseSheet.js';

type Job = ReturnType<typeof useImport>;

/** Step 1: the drop zone, and why the last file was refused. */
function ChooseStep({ job, onFile }: { job: Job; onFile: (file: File) => void }) {
  const { state } = job;
  return (
    <>
      {state.rejection && (
        <div className="notice notice-error" role="alert" data-testid="rejection">
          <strong>
            {state.fileName ? `“${state.fileName}” cannot be imported.` : 'This file cannot be imported.'}
          </strong>
          <p>{state.rejection}</p>
          <p className="small">Nothing was sent.</p>
        </div>
      )}
      <ErrorNotice error={state.error} />
      <FileDropZone onFile={onFile} />
    </>
  );
}

/** Step 2: the columns beside the fields they feed. */
function MappingStep({ job, pickedFile }: { job: Job; pickedFile: File | null }) {
  const { state } = job;
  if (!state.file) return null;
  return (
    <>
      <ErrorNotice error={state.error} />
      <ColumnMapper
        file={state.file}
        mapping={state.mapping}
        check={state.mappingCheck}
        onMapping={job.setMapping}
        onEncoding={(encoding) => pickedFile && job.read(pickedFile, encoding)}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={job.reset}>
          Choose another file
        </button>
        <CheckButton
          mapping={state.mapping}
          check={state.mappingCheck}
          rowCount={state.file.rowCount}
          onCheck={job.check}
        />
      </div>
    </>
  );
}

/** Step 3: the dry run, the mode, and the import button. */
function PreviewStep({ job }: { job: Job }) {
  const { state } = job;
  const [keepDuplicates, setKeepDuplicates] = useState(false);
  const report = state.report;
  if (!report) return null;
  const blocked = report.totals.error;
  const toImport = rowsToWrite(report, keepDuplicates);
  return (
    <>
      <ErrorNotice error={state.error} />
      <ImportPreview
        report={report}
        choice={state.choice}
        busy={state.busy}
        keepDuplicates={keepDuplicates}
        onKeepDuplicates={setKeepDuplicates}
        onChoose={job.choose}
        onFix={job.fix}
        onLeave={job.leave}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={job.backToMapping}>
          Back to the columns
        </button>
        {blocked > 0 && (
          <span className="muted" role="status">
            Fix or leave out the {plural(blocked, 'row')} with problems to continue.
          </span>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={blocked > 0 || toImport === 0 || state.busy}
          onClick={() => job.start(keepDuplicates && report.choice.mode === 'create' ? 'keep' : 'skip')}
        >
          {importLabel(report, keepDuplicates)}
        </button>
      </div>
    </>
  );
}

/**
 * A CSV import for one client, in four steps: pick or drop a file, match its columns, review the
 * server's dry run (choose the mode, fix or leave out rows), import; it ends on a summary.
 */
export function ImportDialog({
  clientId,
  clientName,
  initialFile,
  onClose,
}: {
  clientId: string;
  clientName: string;
  initialFile: File | null;
  onClose: () => void;
}) {
  const cache = useQueryClient();
  const job = useImport(clientId);
  const { state, read } = job;
  // The file the dialog opened with is read once, whatever the page passes later.
  const [startFile] = useState(initialFile);
  const [pickedFile, setPickedFile] = useState<File | null>(startFile);

  useEffect(() => {
    if (startFile) read(startFile);
  }, [startFile, read]);

  useEffect(() => {
    if (state.step !== 'done') return;
    void cache.invalidateQueries({ queryKey: keys.locations(clientId) });
    void cache.invalidateQueries({ queryKey: keys.clients });
  }, [state.step, cache, clientId]);

  const pick = (file: File) => {
    setPickedFile(file);
    read(file);
  };
  const { step } = state;
  return (
    <Dialog title={`Import locations into ${clientName}`} onClose={onClose} wide className="import-dialog">
      <ImportSteps step={step} />
      {step === 'choose' && <ChooseStep job={job} onFile={pick} />}
      {step === 'reading' && (
        <ProgressView progress={state.progress} fallback={`Opening ${state.fileName ?? 'the file'}`} />
      )}
      {step === 'sheet' && state.sheets && (
        <ChooseSheet
          fileName={state.fileName}
          sheets={state.sheets}
          onChoose={(sheet) => pickedFile && read(pickedFile, undefined, sheet)}
          onCancel={job.reset}
        />
      )}
      {step === 'mapping' && <MappingStep job={job} pickedFile={pickedFile} />}
      {step === 'checking' && <ProgressView progress={state.progress} fallback="Checking the rows with the server" />}
      {step === 'preview' && <PreviewStep job={job} />}
      {step === 'importing' && <ProgressView progress={state.progress} fallback="Importing" />}
      {step === 'done' && state.summary && (
        <ImportDone
          summary={state.summary}
          clientName={clientName}
          fileName={state.fileName}
          onAnother={job.reset}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
