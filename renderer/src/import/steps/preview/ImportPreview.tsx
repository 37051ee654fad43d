import type { ReactNode } from 'react';
import { CreatedRows } from '../../../components/CreatedRows.js';
import { ModeChoice } from '../../../components/ModeChoice.js';
import { UpdatedRows } from '../../../components/RowDiff.js';
import { SkippedRows } from '../../../components/SkippedRows.js';
import { UnchangedRows } from '../../../components/UnchangedRows.js';
import { formatBytes, formatCount } from '../../../format.js';
import type { CheckReport, ImportChoice } from '../../protocol.js';
import {
  ForeignIdsNotice,
  CodesWithoutZerosNotice,
  PhoneExtensionsNotice,
  SkippedChangesNotice,
  SamePlaceNotice,
  SecondTableNotice,
} from './RowNotices.js';
import { ChangedSinceNotice, CodesInOtherCaseNotice, NoKeyNotice, PlaceIdsTakenNotice } from './KeyNotices.js';
import { CountryNotice } from './CountryNotice.js';
import { PreviewTotals, type PreviewFilter } from './PreviewTotals.js';

/**
 * The server's dry run, shown: the mode, what each row does (tiles that filter the grid and the lists
 * below), the changes each update makes, the rows skipped and the first rows created.
 */
export function ImportPreview({
  report,
  choice,
  busy,
  filter,
  keepDuplicates,
  onKeepDuplicates,
  onChoose,
  onFilter,
  onLeaveChangedSince,
  children,
}: {
  report: CheckReport;
  /** The user's choice: the report's own until a new one is checked. */
  choice: ImportChoice;
  busy: boolean;
  filter: PreviewFilter;
  keepDuplicates: boolean;
  onKeepDuplicates: (keep: boolean) => void;
  onChoose: (choice: ImportChoice) => void;
  onFilter: (filter: PreviewFilter) => void;
  /** Leaves out the rows that update locations changed since the file was exported. */
  onLeaveChangedSince: () => void;
  /** The grid of every row, between the counts and the lists. */
  children: ReactNode;
}) {
  const { totals } = report;
  const shows = (action: PreviewFilter, count: number) => count > 0 && (filter === 'all' || filter === action);
  return (
    <div className="preview" aria-busy={busy}>
      <ModeChoice choice={choice} disabled={busy} onChoose={onChoose} />
      <PreviewTotals totals={totals} leftOut={report.leftOut} filter={filter} onFilter={onFilter} />
      <SecondTableNotice secondTable={report.secondTable} />
      <ForeignIdsNotice foreignIds={report.foreignIds} />
      <ChangedSinceNotice changedSince={report.changedSince} onLeave={busy ? null : onLeaveChangedSince} />
      <CountryNotice report={report} />
      {report.choice.mode === 'create' && (
        <SkippedChangesNotice
          skipped={report.skippedWithChanges}
          onUpdate={busy ? null : () => onChoose({ ...choice, mode: 'upsert' })}
        />
      )}
      <PhoneExtensionsNotice phoneExtensions={report.phoneExtensions} />
      <CodesWithoutZerosNotice codesWithoutZeros={report.codesWithoutZeros} />
      <SamePlaceNotice samePlace={report.samePlace} mode={report.choice.mode} />
      <NoKeyNotice noKey={report.noKey} />
      <PlaceIdsTakenNotice placeIdsTaken={report.placeIdsTaken} />
      <CodesInOtherCaseNotice codesInOtherCase={report.codesInOtherCase} mode={report.choice.mode} />
      {busy && (
        <p className="muted" role="status">
          Checking the rows again…
        </p>
      )}
      {report.requests > 1 && (
        <p className="notice notice-info">
          This file is too big for one request: it will be sent in <strong>{report.requests} requests</strong> (a
          request holds at most {formatCount(report.limits.rows)} rows and {formatBytes(report.limits.bytes)}).
          Duplicates across requests are skipped when they arrive.
        </p>
      )}
      {children}
      {shows('updated', report.updated.length) && <UpdatedRows rows={report.updated} total={totals.updated} />}
      {shows('skipped', report.skipped.length) && (
        <SkippedRows
          rows={report.skipped}
          keepDuplicates={report.choice.mode === 'create' ? keepDuplicates : null}
          onKeepDuplicates={onKeepDuplicates}
        />
      )}
      {shows('created', report.samples.length) && <CreatedRows samples={report.samples} />}
      {shows('unchanged', report.unchanged.length) && (
        <UnchangedRows rows={report.unchanged} total={totals.unchanged} />
      )}
    </div>
  );
}
