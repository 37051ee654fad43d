import countries from 'i18n-iso-countries';
import type { ColumnMapping } from '../header-mapping.js';
import type { ColumnOptions } from './column-options.js';

// The countries agencies' clients are in most often, offered first.
const FIRST = ['US', 'CA', 'GB', 'AU', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL'];

let listed: { code: string; name: string }[] | null = null;

/** Every ISO 3166-1 country by its English name, the usual ones first (named once, when first shown). */
function countryOptions(): { code: string; name: string }[] {
  listed ??= namedCountries();
  return listed;
}

function namedCountries(): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const named = (code: string) => ({ code, name: names.of(code) ?? code });
  const rest = Object.keys(countries.getAlpha2Codes())
    .filter((code) => !FIRST.includes(code))
    .map(named)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [...FIRST.map(named), ...rest];
}

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
  const list = countryOptions();
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
          {list.map(({ code, name }, index) => (
            <option key={code} value={code} data-first={index < FIRST.length || undefined}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small">
        Phone numbers without a +country code and postal codes are read by it. A location that has a country keeps it.
      </p>
    </fieldset>
  );
}
