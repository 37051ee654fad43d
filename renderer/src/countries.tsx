import countries from 'i18n-iso-countries';

/**
 * The countries the dashboard offers in a list (the column step's "The locations are in", the bulk
 * edit's "Set the country"): every ISO 3166-1 code, named in English by Intl.DisplayNames. The server
 * reads names and codes by its own rule (server/locations/country.ts); here they are only listed.
 */

// The countries agencies' clients are in most often, offered first.
const FIRST = ['US', 'CA', 'GB', 'AU', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL'];

/** A country's English name from its ISO code ("US" → "United States"). */
export function regionName(code: string): string {
  return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
}

let listed: { code: string; name: string }[] | null = null;

/** Every country by its English name, the usual ones first (named once, when first shown). */
function countryOptions(): { code: string; name: string }[] {
  listed ??= namedCountries();
  return listed;
}

function namedCountries(): { code: string; name: string }[] {
  const named = (code: string) => ({ code, name: regionName(code) });
  const rest = Object.keys(countries.getAlpha2Codes())
    .filter((code) => !FIRST.includes(code))
    .map(named)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [...FIRST.map(named), ...rest];
}

/** A select's options: the usual countries, then every other by name, in two groups. */
export function CountryOptions() {
  const list = countryOptions();
  const options = (part: typeof list) =>
    part.map(({ code, name }) => (
      <option key={code} value={code}>
        {name}
      </option>
    ));
  return (
    <>
      <optgroup label="Often used">{options(list.slice(0, FIRST.length))}</optgroup>
      <optgroup label="Every country">{options(list.slice(FIRST.length))}</optgroup>
    </>
  );
}
