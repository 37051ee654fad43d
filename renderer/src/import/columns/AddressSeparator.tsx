import { useState } from 'react';
import { DEFAULT_ADDRESS_SEPARATOR } from '../../../../server/imports/address.js';
import { plural } from '../../format.js';
import { feedsAddress, type ColumnMapping } from '../header-mapping.js';
import { uploadRowOf } from '../upload-rows.js';
import { MAX_SEPARATOR, type ColumnOptions } from './column-options.js';

type Kind = 'comma' | 'space' | 'other';

const FIXED: Record<Exclude<Kind, 'other'>, string> = { comma: DEFAULT_ADDRESS_SEPARATOR, space: ' ' };

function kindOf(separator: string): Kind {
  if (separator === FIXED.comma) return 'comma';
  return separator === FIXED.space ? 'space' : 'other';
}

/** How many columns feed the address: its lines and the house number. */
export function addressColumnsOf(mapping: ColumnMapping): number {
  return mapping.filter(feedsAddress).length;
}

/** "3 columns feed Address, joined in file order, the house number beside the street". */
function addressFacts(mapping: ColumnMapping): string {
  const lines = mapping.filter((target) => target === 'address' || target === 'suite').length;
  const number = mapping.includes('street_number') ? ', the house number beside the street' : '';
  return `${plural(lines, 'column')} ${lines === 1 ? 'feeds' : 'feed'} Address, joined in file order${number}.`;
}

/**
 * The text between address lines, when several columns feed the address, with the first row's address
 * as the import will send it (the house number stays where its country writes it: server/imports/address.ts).
 */
export function AddressSeparator({
  sample,
  mapping,
  options,
  onOptions,
}: {
  sample: readonly string[];
  mapping: ColumnMapping;
  options: ColumnOptions;
  onOptions: (options: ColumnOptions) => void;
}) {
  // The "Other" text while it is empty (no separator yet: the last one stays); null: as the options say.
  const [draft, setDraft] = useState<string | null>(null);
  const kind = draft !== null ? 'other' : kindOf(options.separator);
  const other = draft ?? (kind === 'other' ? options.separator : '');
  const apply = (separator: string) => {
    if (separator !== options.separator) onOptions({ ...options, separator });
  };
  const choose = (next: Kind) => {
    if (next === 'other') {
      if (kind !== 'other') setDraft('');
      return;
    }
    setDraft(null);
    apply(FIXED[next]);
  };
  const type = (text: string) => {
    setDraft(text === '' ? '' : null);
    if (text !== '') apply(text);
  };
  const joined = uploadRowOf(sample, mapping, undefined, 'keep', options).address;
  return (
    <fieldset className="address-separator" data-testid="address-separator">
      <legend>Between address lines</legend>
      <p className="muted small separator-facts">{addressFacts(mapping)}</p>
      <label className="radio">
        <input type="radio" name="separator" checked={kind === 'comma'} onChange={() => choose('comma')} />
        Comma and space (“, ”)
      </label>
      <label className="radio">
        <input type="radio" name="separator" checked={kind === 'space'} onChange={() => choose('space')} />
        Space
      </label>
      <label className="radio">
        <input type="radio" name="separator" checked={kind === 'other'} onChange={() => choose('other')} />
        Other:
      </label>
      <input
        className="separator-text"
        aria-label="Other separator"
        value={other}
        maxLength={MAX_SEPARATOR}
        onChange={(event) => type(event.target.value)}
      />
      {kind === 'other' && other === '' && <span className="muted small">Type the text to put between lines.</span>}
      <p className="small joined-address">
        First row:{' '}
        <output data-testid="joined-address">{typeof joined === 'string' && joined !== '' ? joined : '—'}</output>
      </p>
    </fieldset>
  );
}
