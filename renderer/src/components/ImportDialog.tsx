import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '../api/queries.js';
import { nameColumnOf } from '../import/header-mapping.js';
import { useImport, type ImportProgress } from '../import/use-import.js';
import { formatCount, plural } from '../format.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { FileDropZone } from './FileDropZone.js';
import { ColumnMapper } from './ColumnMapper.js';
import { ImportPreview } from './ImportPreview.js';
import { ProgressBar } from './ProgressBar.js';

const STAGE_LABELS = {
  reading: 'Reading the file',
  parsing: 'Reading the rows',
  checking: 'Checking the rows with the server',
  importing: 'Importing',
} as const;

function ProgressView({ progress, fallback }: { progress: ImportProgress | null; fallback: string }) {
  if (!progress) return <ProgressBar label={fallback} done={0} total={0} />;
  const { stage, done, total, request } = progress;
  const rows = stage === 'checking' || stage === 'importing';
  const detail = rows
    ? `${request && request.count > 1 ? `Request ${request.index + 1} of ${request.count} · ` : ''}${formatCount(done)} of ${plural(total, 'row')}`
    : undefined;
  return <ProgressBar label={STAGE_LABELS[stage]} done={done} total={total} detail={detail} />;
}

const STEPS = ['File', 'Columns', 'Preview', 'Import'] as const;
const STEP_INDEX = { choose: 0, reading: 0, mapping: 1, checking: 2, preview: 2, importing: 3, done: 3 } as const;

/**
 * A CSV import for one client, in four steps: pick or drop a file, match its columns, review the
 * server's dry run (fix or leave out rows), import; it ends on a summary.
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
  const { state } = job;
  const [keepDuplicates, setKeepDuplicates] = useState(false);
  const [startFile] = useState(initialFile);
  const { read } = job;

  useEffect(() => {
    if (startFile) read(startFile);
  }, [startFile, read]);

  useEffect(() => {
    if (state.step !== 'done') return;
    void cache.invalidateQueries({ queryKey: keys.locations(clientId) });
    void cache.invalidateQueries({ queryKey: keys.clients });
  }, [state.step, cache, clientId]);

  const [pickedFile, setPickedFile] = useState<File | null>(startFile);
  const pick = (file: File) => {
    setPickedFile(file);
    job.read(file);
  };
  const current = STEP_INDEX[state.step];
  const report = state.report;
  const blocked = report ? report.problemCount : 0;
  const toImport = report ? report.ready + (keepDuplicates ? report.duplicates : 0) : 0;

  return (
    <Dialog title={`Import locations into ${clientName}`} onClose={onClose} wide className="import-dialog">
      <ol className="steps" aria-label="Import steps">
        {STEPS.map((label, index) => (
          <li
            key={label}
            className={index === current ? 'step-current' : index < current ? 'step-done' : ''}
            aria-current={index === current ? 'step' : undefined}
          >
            <span className="step-number">{index + 1}</span> {label}
          </li>
        ))}
      </ol>

      {state.step === 'choose' && (
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
          <FileDropZone onFile={pick} />
        </>
      )}

      {state.step === 'reading' && (
        <ProgressView progress={state.progress} fallback={`Opening ${state.fileName ?? 'the file'}`} />
      )}

      {state.step === 'mapping' && state.file && (
        <>
          <ErrorNotice error={state.error} />
          <ColumnMapper
            file={state.file}
            mapping={state.mapping}
            check={state.mappingCheck}
            onRemap={job.remap}
            onEncoding={(encoding) => pickedFile && job.read(pickedFile, encoding)}
          />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={job.reset}>
              Choose another file
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={nameColumnOf(state.mapping) < 0}
              onClick={job.check}
            >
              Check {plural(state.file.rowCount, 'row')}
            </button>
          </div>
        </>
      )}

      {state.step === 'checking' && (
        <ProgressView progress={state.progress} fallback="Checking the rows with the server" />
      )}

      {state.step === 'preview' && report && (
        <>
          <ErrorNotice error={state.error} />
          <ImportPreview
            report={report}
            busy={state.busy}
            keepDuplicates={keepDuplicates}
            onKeepDuplicates={setKeepDuplicates}
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
              onClick={() => job.start(keepDuplicates ? 'keep' : 'skip')}
            >
              Import {plural(toImport, 'location')}
            </button>
          </div>
        </>
      )}

      {state.step === 'importing' && <ProgressView progress={state.progress} fallback="Importing" />}

      {state.step === 'done' && state.summary && (
        <div className="summary" data-testid="import-summary">
          <h3>{state.summary.failure ? 'The import stopped part way' : 'Import finished'}</h3>
          <p>
            {plural(state.summary.imported, 'location')} of {clientName} {state.summary.imported === 1 ? 'was' : 'were'}{' '}
            created from {state.fileName ?? 'the file'}.
          </p>
          <dl className="summary-list">
            <div>
              <dt>Imported</dt>
              <dd data-testid="imported-count">{formatCount(state.summary.imported)}</dd>
            </div>
            <div>
              <dt>Left out</dt>
              <dd data-testid="left-out-count">{formatCount(state.summary.leftOut)}</dd>
            </div>
            <div>
              <dt>Duplicates skipped</dt>
              <dd data-testid="duplicate-skipped-count">{formatCount(state.summary.duplicates)}</dd>
            </div>
            {state.summary.requests > 1 && (
              <div>
                <dt>Requests</dt>
                <dd>{state.summary.requests}</dd>
              </div>
            )}
          </dl>
          {state.summary.failure && (
            <div className="notice notice-error" role="alert">
              Request {state.summary.failure.request} failed: {state.summary.failure.error.message}.{' '}
              {plural(state.summary.failure.rowsNotSent, 'row')} from that request on were not imported.
            </div>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={job.reset}>
              Import another file
            </button>
            <button type="button" className="button button-primary" onClick={onClose}>
              See the locations
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
