import { CountryOptions } from '../../countries.js';
import type { ColumnMapping } from '../header-mapping.js';
import type { ColumnOptions } from './column-options.js';

/**
 * The country of the locations when the file gives none (the upload's ?country=, README "The import"):
 * a US client's sheet without a Country column has its "(617) 555-0100" read as a US number, its
 * ZIP codes' dropped zeros put back. A row's own country, and a matched location's, come first.
 */
export function CountryChoice({
  mapping,
  options,
  onOptions,
}: {
  mapping: ColumnMapping;
  options: ColumnOptions;
  onOptions: (options: ColumnOptions) => void;
}) {
  const column = mapping.includes('country');
  if (column && options.country === null) return null;
  return (
    <fieldset className="country-choice" data-testid="country-choice">
      <legend>{column ? 'Where a row has no country' : 'No column holds the country'}</legend>
      <label className="field-inline">
        <span>The locations are in</span>
        <select
          value={options.country ?? ''}
          onChange={(event) => onOptions({ ...options, country: event.target.value || null })}
        >
          <option value="">No country given</option>
          <CountryOptions />
        </select>
      </label>
      <p className="muted small">
        Phone numbers without a +country code and postal codes are read by it. A location that has a country keeps it.
      </p>
    </fieldset>
  );
}
