import { TextField } from '../components/TextField.js';
import { CountryOptions } from '../countries.js';
import { plural } from '../format.js';
import { StatusOptions } from './StatusOptions.js';
import { isTextChoice, type BulkChoice, type TextAction } from './bulk-change.js';
import { BulkLabels } from './BulkLabels.js';
import type { BulkPreview } from './use-bulk-preview.js';

// The names a deletion lists before "and 12 more".
const NAMES_SHOWN = 5;

/** What a deletion removes, by name (the first few), and how to bring them back. */
function DeletedNames({ names }: { names: readonly string[] }) {
  // A row chosen far from the view has no name at hand (''): it is counted, not named.
  const known = names.filter((name) => name !== '');
  const more = names.length - Math.min(known.length, NAMES_SHOWN);
  return (
    <>
      <ul className="deleted-names" aria-label="Locations to delete">
        {known.slice(0, NAMES_SHOWN).map((name, at) => (
          <li key={at}>{name}</li>
        ))}
        {more > 0 && <li className="muted">and {plural(more, 'more location')}</li>}
      </ul>
      <p className="muted">They can be brought back with Undo in the client’s History.</p>
    </>
  );
}

/** Each text a bulk change sets: its field's label and hint (the server reads it by the field's rule). */
const TEXT_FIELDS: Record<TextAction, [label: string, hint: string]> = {
  primary_category: ['Primary category', 'The same category on each of them'],
  website: ['Website', 'The same website on each of them, such as example.com/stores'],
  hours: ['Opening hours', 'The same week on each of them, such as “Mon-Fri 9:00-17:00, Sat 10:00-14:00, Sun closed”'],
  state: ['State / province', 'The same state or province on each of them'],
  city: ['City', 'The same city on each of them'],
};

/** The value a bulk change sets, by its action: a status, a category, the labels; or what a deletion removes. */
export function BulkValue({
  choice,
  preview,
  names,
  onChoice,
}: {
  choice: BulkChoice;
  preview: BulkPreview;
  /** The chosen locations' names, for a deletion to list. */
  names: readonly string[];
  onChoice: (choice: BulkChoice) => void;
}) {
  if (isTextChoice(choice)) {
    return (
      <TextField
        label={TEXT_FIELDS[choice.action][0]}
        value={choice.text}
        onValue={(text) => onChoice({ ...choice, text })}
        hint={TEXT_FIELDS[choice.action][1]}
      />
    );
  }
  switch (choice.action) {
    case 'delete':
      return <DeletedNames names={names} />;
    case 'status':
      return (
        <label className="field">
          <span>Status</span>
          <select
            value={choice.status ?? ''}
            onChange={(event) => onChoice({ ...choice, status: event.target.value as typeof choice.status })}
          >
            <option value="" disabled>
              Choose a status
            </option>
            <StatusOptions />
          </select>
        </label>
      );
    case 'country':
      return (
        <label className="field">
          <span>Country</span>
          <select
            value={choice.country ?? ''}
            onChange={(event) => onChoice({ ...choice, country: event.target.value })}
          >
            <option value="" disabled>
              Choose a country
            </option>
            <CountryOptions />
          </select>
        </label>
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
