import { useState } from 'react';
import { DEFAULT_ADDRESS_SEPARATOR } from '../../../../server/imports/address.js';
import type { ColumnMapping } from '../header-mapping.js';
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
  return mapping.filter((target) => target === 'address' || target === 'street_number').length;
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
  const [kind, setKind] = useState<Kind>(kindOf(options.separator));
  const [other, setOther] = useState(kind === 'other' ? options.separator : '');
  const choose = (next: Kind, text = other) => {
    setKind(next);
    const separator = next === 'other' ? text : FIXED[next];
    // An empty "Other" is no separator yet: the last one stays until a character is typed.
    if (separator !== '' && separator !== options.separator) onOptions({ ...options, separator });
  };
  const joined = uploadRowOf(sample, mapping, undefined, 'keep', options).address;
  return (
    <fieldset className="address-separator" data-testid="address-separator">
      <legend>Between address lines</legend>
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
        onChange={(event) => {
          setOther(event.target.value);
          choose('other', event.target.value);
        }}
      />
      {kind === 'other' && other === '' && <span className="muted small">Type the text to put between lines.</span>}
      <p className="small joined-address">
        First row:{' '}
        <output data-testid="joined-address">{typeof joined === 'string' && joined !== '' ? joined : '—'}</output>
      </p>
    </fieldset>
  );
}
