import { TextField } from '../components/TextField.js';
import { StatusOptions } from './StatusOptions.js';
import type { BulkChoice } from './bulk-change.js';
import { BulkLabels } from './BulkLabels.js';
import type { BulkPreview } from './use-bulk-preview.js';

/** The value a bulk change sets, by its action: a status, a category, the labels; or what a deletion means. */
export function BulkValue({
  choice,
  preview,
  onChoice,
}: {
  choice: BulkChoice;
  preview: BulkPreview;
  onChoice: (choice: BulkChoice) => void;
}) {
  switch (choice.action) {
    case 'delete':
      return <p className="muted">They can be brought back with Undo in the client’s History.</p>;
    case 'status':
      return (
        <label className="field">
          <span>Status</span>
          <select
            value={choice.status}
            onChange={(event) => onChoice({ ...choice, status: event.target.value as typeof choice.status })}
          >
            <StatusOptions />
          </select>
        </label>
      );
    case 'primary_category':
      return (
        <TextField
          label="Primary category"
          value={choice.text}
          onValue={(text) => onChoice({ ...choice, text })}
          hint="The same category on each of them"
        />
      );
    case 'clear_category':
      return <p className="muted">Each of them is left with no primary category (health counts it as missing).</p>;
    case 'clear_labels':
      return (
        <p className="muted">
          Each of them is left with no label. To take some off, choose Change the labels, then Remove.
        </p>
      );
    case 'labels':
      return <BulkLabels choice={choice} preview={preview} onChoice={onChoice} />;
  }
}
