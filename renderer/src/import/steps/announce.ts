import { formatCount, plural } from '../../format.js';
import type { Step } from './step.js';

/** What the dialog's live region says when the step changes: the step, and its counts. */
export function announce(step: Step): string {
  switch (step.kind) {
    case 'file':
      return step.rejection ? `The file cannot be imported: ${step.rejection.message}` : 'Step 1 of 4: choose a file.';
    case 'reading':
      return `Reading ${step.fileName}.`;
    case 'sheet':
      return `Choose the sheet: ${step.fileName} has ${plural(step.sheets.length, 'sheet')} with rows.`;
    case 'mapping':
      return `Step 2 of 4: match the columns. ${plural(step.file.rowCount, 'row')}, ${plural(step.file.headers.length, 'column')}.`;
    case 'checking':
      return 'Checking the rows with the server.';
    case 'preview': {
      const { totals, leftOut } = step.report;
      const counts = [
        [totals.created, 'to add'],
        [totals.updated, 'to update'],
        [totals.unchanged, 'unchanged'],
        [totals.error, 'with problems'],
        [totals.skipped, 'skipped'],
        [leftOut, 'left out'],
      ] as const;
      const said = counts.filter(([count]) => count > 0).map(([count, words]) => `${formatCount(count)} ${words}`);
      return `Step 3 of 4: preview. ${said.length > 0 ? said.join(', ') : 'No rows'}.`;
    }
    case 'importing':
      return step.cancelling ? 'Cancelling the import.' : 'Step 4 of 4: importing.';
    case 'done':
      return `Import finished: ${plural(step.summary.imported, 'location')} created, ${formatCount(step.summary.updated)} updated.`;
    case 'cancelled':
      return step.report.notUndone.length === 0
        ? 'Import cancelled: nothing was written.'
        : 'Import cancelled, but some rows could not be undone.';
  }
}

/** Whether closing the dialog now would lose the user's work (a mapped file, fixes, an import under way). */
export function hasWork(step: Step): boolean {
  return step.kind === 'mapping' || step.kind === 'checking' || step.kind === 'preview' || step.kind === 'importing';
}
