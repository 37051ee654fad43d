import { useCallback, type ReactNode } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { everyOne, formatCount, plural } from '../../../format.js';
import type { ImportJobView } from '../../use-import.js';
import type { CheckReport, GridFilter } from '../../protocol.js';
import { BulkSet } from './BulkSet.js';
import { FindReplace } from './FindReplace.js';
import { ImportGrid } from './ImportGrid.js';
import { NOTHING, clicked, leaveOutCount, putBackCount, targetCount, targetOf, type Selection } from './selection.js';

/** Which rows the download holds, in the fewest words (the find row keeps to one line at 1440 px). */
function sentBack(report: CheckReport): string {
  if (report.leftOut === 0) return 'with problems';
  return report.totals.error === 0 ? 'left out' : 'with problems or left out';
}

/**
 * The rows to send back, downloaded: shown only when there are some (a disabled "Download 0 rows" read as
 * a broken button in a walk).
 */
function Download({ job, report }: { job: ImportJobView; report: CheckReport }) {
  const returned = report.totals.error + report.leftOut;
  if (returned === 0) return null;
  return (
    <button type="button" className="button grid-download" onClick={job.downloadProblems}>
      Download {plural(returned, 'row')} {sentBack(report)} (CSV)
    </button>
  );
}

/** Keeps every row flagged as no location: beside "Leave out" and "Put back", whose rows these are. */
function KeepFlagged({ job, report, busy }: { job: ImportJobView; report: CheckReport; busy: boolean }) {
  if (report.flagged === 0) return null;
  return (
    <button type="button" className="button" disabled={busy} onClick={() => job.leave('flagged', false)}>
      Keep {everyOne(report.flagged, 'flagged row')}
    </button>
  );
}

/** Takes the last fix back: at the end of the fix tools' last row. */
function UndoFix({ job, busy }: { job: ImportJobView; busy: boolean }) {
  return (
    <button
      type="button"
      className="button grid-undo"
      disabled={busy || job.state.grid?.canUndo !== true}
      onClick={job.undoFix}
    >
      Undo the last fix
    </button>
  );
}

/** What the selection holds, beside "Find rows": "The row shown is selected", "2 rows selected". */
function selectionWords(selection: Selection, shown: number): string {
  if (selection.kind === 'shown') {
    return shown === 1 ? 'The row shown is selected' : `All ${formatCount(shown)} rows shown are selected`;
  }
  if (selection.rows.size > 0) return `${plural(selection.rows.size, 'row')} selected`;
  return `No row selected: changes go to the ${plural(shown, 'row')} shown`;
}

/** "Find rows" and what the selection holds (the grid head's box ticks every row shown, or none). */
function GridSelect({
  text,
  selection,
  shown,
  onText,
  children,
}: {
  text: string;
  selection: Selection;
  shown: number;
  onText: (text: string) => void;
  /** The download of the rows to send back, at the row's end. */
  children: ReactNode;
}) {
  return (
    <div className="grid-select">
      <label className="field-inline">
        <span>Find rows</span>
        <input
          type="search"
          value={text}
          placeholder="Any text, or “line 8”"
          onChange={(event) => onText(event.target.value)}
        />
      </label>
      <span className="muted" data-testid="selection-count">
        {selectionWords(selection, shown)}
      </span>
      {children}
    </div>
  );
}

/**
 * The grid that fixes in bulk: find rows by text, select some (click, shift-click, all shown), set a
 * column on them or find and replace in it, undo the last fix, download the rows to send back.
 */
export function FixGrid({
  job,
  report,
  busy,
  filter,
  text,
  selection,
  onText,
  onSelection,
}: {
  job: ImportJobView;
  report: CheckReport;
  busy: boolean;
  filter: GridFilter;
  /** The text typed to find rows (the filter follows it a moment later). */
  text: string;
  selection: Selection;
  onText: (text: string) => void;
  onSelection: (selection: Selection) => void;
}) {
  const { grid, replaceCount } = job.state;
  const shown = grid?.total ?? 0;
  const fields: RowField[] = grid?.fields ?? ['name'];
  const target = targetOf(selection, filter);
  const count = targetCount(selection, shown);
  const none = { shown: 0, selected: 0 };
  const putBack = putBackCount(selection, grid?.leftOut ?? none, grid?.locked ?? none);
  const leaveOut = leaveOutCount(selection, shown, grid?.leftOut ?? none);
  const leave = job.leave;
  // One function for the grid's rows (GridRowView is drawn again only when its props change).
  const leaveRow = useCallback((row: number, leftOut: boolean) => leave([row], leftOut), [leave]);
  // Done with those rows: a selection kept on them made the next fix go to them alone (a walk).
  const leaveAndDeselect: typeof job.leave = (rows, leftOut) => {
    job.leave(rows, leftOut);
    onSelection(NOTHING);
  };
  return (
    <section className="preview-section fix-grid" aria-labelledby="grid-title">
      {/* The title is for screen readers: the grid, its head and its tools say what it is to the eye, and the
          first screen keeps the height for its rows (a walk at 1440x900). */}
      <h4 id="grid-title" className="sr-only">
        Every row of the file
      </h4>
      <GridSelect text={text} selection={selection} shown={shown} onText={onText}>
        <Download job={job} report={report} />
      </GridSelect>
      <BulkSet
        fields={fields}
        count={count}
        leaveOut={leaveOut}
        putBack={putBack}
        target={target}
        busy={busy}
        onSet={job.setValues}
        onLeave={leaveAndDeselect}
      >
        <KeepFlagged job={job} report={report} busy={busy} />
      </BulkSet>
      <FindReplace
        fields={fields}
        target={target}
        report={report}
        count={replaceCount}
        busy={busy}
        onReplace={job.replace}
      >
        <UndoFix job={job} busy={busy} />
      </FindReplace>
      <ImportGrid
        grid={grid}
        filter={filter}
        report={report}
        selection={selection}
        showRows={job.showRows}
        onSelect={(position, range, rowAt) => onSelection(clicked(selection, position, range, rowAt))}
        onSelection={onSelection}
        onFix={job.fix}
        onLeave={leaveRow}
      />
    </section>
  );
}
