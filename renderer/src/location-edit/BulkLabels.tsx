import { RadioGroup, type RadioOption } from '../components/RadioGroup.js';
import { TextField } from '../components/TextField.js';
import type { LabelsChoice, LabelsMode } from './bulk-change.js';
import type { BulkPreview } from './use-bulk-preview.js';

const MODES: readonly RadioOption<LabelsMode>[] = [
  { value: 'add', label: 'Add' },
  { value: 'remove', label: 'Remove' },
  { value: 'replace', label: 'Replace' },
];

const FIELDS: Record<LabelsMode, { label: string; hint: string }> = {
  add: { label: 'Labels to add', hint: 'Separated by commas; each location keeps its own labels too' },
  remove: {
    label: 'Labels to remove',
    hint: 'Separated by commas, written as they are (Bakery is not bakery); the other labels stay',
  },
  replace: {
    label: 'New labels',
    hint: 'Separated by commas; they replace every label of each location',
  },
};

/**
 * The labels of many locations: added to each one's own (the default: a walk's "set" wiped the labels
 * 15 locations had), taken off, or replaced; a refusal of the server's dry run shows at the field.
 */
export function BulkLabels({
  choice,
  preview,
  onChoice,
}: {
  choice: LabelsChoice;
  preview: BulkPreview;
  onChoice: (choice: LabelsChoice) => void;
}) {
  const field = FIELDS[choice.mode];
  return (
    <div className="bulk-labels">
      <RadioGroup
        legend="Labels"
        name="labels-mode"
        className="field"
        options={MODES}
        value={choice.mode}
        onChange={(mode) => onChoice({ ...choice, mode })}
      />
      <TextField
        label={field.label}
        value={choice.text}
        onValue={(text) => onChoice({ ...choice, text })}
        hint={field.hint}
        error={preview.state === 'refused' ? preview.message : undefined}
      />
    </div>
  );
}
