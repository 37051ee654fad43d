import type { BlankCells, ImportMode } from '../../../server/locations/schemas.js';
import type { ImportChoice } from '../import/protocol.js';
import { RadioGroup, type RadioOption } from './RadioGroup.js';

const MODES: RadioOption<ImportMode>[] = [
  {
    value: 'create',
    label: 'Add new locations only',
    detail: 'Rows that repeat a location of this client are skipped.',
  },
  {
    value: 'upsert',
    label: 'Update matching locations and add the rest',
    detail: 'Matched by store code, else Google place id, else name and address.',
  },
  {
    value: 'update',
    label: 'Only update matching locations',
    detail: 'Rows that match no location are skipped.',
  },
];

const BLANKS: RadioOption<BlankCells>[] = [
  { value: 'keep', label: 'Keep the stored value' },
  { value: 'clear', label: 'Clear the stored value' },
];

/** What the import does with rows that match a location, and with empty cells; a change checks the rows again. */
export function ModeChoice({
  choice,
  disabled,
  onChoose,
}: {
  choice: ImportChoice;
  disabled: boolean;
  onChoose: (choice: ImportChoice) => void;
}) {
  return (
    <div className="mode-choice">
      <RadioGroup
        legend="What should the import do?"
        name="import-mode"
        options={MODES}
        value={choice.mode}
        disabled={disabled}
        onChange={(mode) => onChoose({ ...choice, mode })}
      />
      {choice.mode !== 'create' && (
        <RadioGroup
          legend="Empty cells in the file"
          name="import-blanks"
          className="blank-cells"
          options={BLANKS}
          value={choice.blanks}
          disabled={disabled}
          onChange={(blanks) => onChoose({ ...choice, blanks })}
        />
      )}
    </div>
  );
}
