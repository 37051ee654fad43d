import { formatCount, plural } from '../../../format.js';
import type { ImportSummary } from '../../protocol.js';
import { StepHeading } from '../StepHeading.js';
import { UndoImport } from './UndoImport.js';

/** The import's end: what the server created, updated, left alone and skipped, from its answers. */
export function ImportDone({
  summary,
  clientName,
  fileName,
  onAnother,
  onClose,
  onUndone,
}: {
  summary: ImportSummary;
  clientName: string;
  fileName: string | null;
  onAnother: () => void;
  onClose: () => void;
  onUndone: () => void;
}) {
  const counts: [string, number, string][] = [
    ['Created', summary.imported, 'imported-count'],
    ['Updated', summary.updated, 'updated-summary-count'],
    ['Unchanged', summary.unchanged, 'unchanged-summary-count'],
    ['Skipped', summary.skipped, 'duplicate-skipped-count'],
    ['Left out', summary.leftOut, 'left-out-count'],
  ];
  return (
    <div className="summary" data-testid="import-summary">
      <StepHeading>{summary.failure ? 'The import stopped part way' : 'Import finished'}</StepHeading>
      <p>
        From {fileName ?? 'the file'}: {plural(summary.imported, 'location')} of {clientName} created,{' '}
        {formatCount(summary.updated)} updated.
      </p>
      <dl className="summary-list">
        {counts.map(([label, count, testId]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{formatCount(count)}</dd>
          </div>
        ))}
        {summary.requests > 1 && (
          <div>
            <dt>Requests</dt>
            <dd>{summary.requests}</dd>
          </div>
        )}
      </dl>
      {summary.failure && (
        <div className="notice notice-error" role="alert">
          Request {summary.failure.request} failed: {summary.failure.error.message}.{' '}
          {plural(summary.failure.rowsNotSent, 'row')} from that request on were not imported.
        </div>
      )}
      <UndoImport operations={summary.operations} onUndone={onUndone} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onAnother}>
          Import another file
        </button>
        <button type="button" className="button button-primary" onClick={onClose}>
          See the locations
        </button>
      </div>
    </div>
  );
}
