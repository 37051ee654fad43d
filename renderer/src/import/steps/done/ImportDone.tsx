import { formatCount, plural } from '../../../format.js';
import type { ImportSummary, SheetChoice } from '../../protocol.js';
import { StepHeading } from '../StepHeading.js';
import { UndoImport } from './UndoImport.js';

/** The import's end: what the server created, updated, left alone and skipped, from its answers. */
export function ImportDone({
  summary,
  clientName,
  fileName,
  sheets,
  onAnother,
  onClose,
  onUndone,
}: {
  summary: ImportSummary;
  clientName: string;
  fileName: string | null;
  /** A workbook's sheet read, and its other sheets of locations, not read. */
  sheets: { read: string | undefined; others: readonly SheetChoice[] };
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
      {summary.extensions > 0 && (
        <p className="notice notice-info" role="status" data-testid="extensions-dropped">
          {plural(summary.extensions, 'phone')} had an extension (“ext. 3”): a stored number cannot keep one, so the
          main number alone was saved, and callers dial it.
        </p>
      )}
      <OtherSheets sheets={sheets} />
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

/** The workbook's sheets of locations this import did not read: each one is an import of its own. */
function OtherSheets({ sheets }: { sheets: { read: string | undefined; others: readonly SheetChoice[] } }) {
  if (sheets.others.length === 0) return null;
  const named = sheets.others.map((sheet) => `“${sheet.name}” (${plural(sheet.rowCount, 'row')})`).join(', ');
  return (
    <p className="notice notice-info" role="status" data-testid="other-sheets">
      This was the sheet “{sheets.read}”. The workbook’s other {sheets.others.length === 1 ? 'sheet' : 'sheets'} of
      locations, {named}, {sheets.others.length === 1 ? 'was' : 'were'} not imported: choose “Import another file”, drop
      the workbook again and pick {sheets.others.length === 1 ? 'it' : 'the next one'}.
    </p>
  );
}
