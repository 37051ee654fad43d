import { linesWords, plural } from '../../../format.js';
import { regionName } from '../../../countries.js';
import type { CheckReport } from '../../protocol.js';

/**
 * The country the rows without one get, named where the rows are checked (a walk chose Canada by an
 * arrow key on the column step and saw nothing of it here); and the rows whose phone was refused for
 * want of a country, with where to give it: the column step (a walk's preview only said "needs a country").
 */
export function CountryNotice({ report }: { report: Pick<CheckReport, 'country' | 'phonesWithoutCountry'> }) {
  const { country, phonesWithoutCountry: refused } = report;
  if (refused.count > 0) {
    const one = refused.count === 1;
    return (
      <div className="notice notice-error" role="status" data-testid="phones-without-country">
        <strong>
          {plural(refused.count, 'row')} {one ? 'has a phone' : 'have phones'} without a country code and no country (
          {linesWords(refused.lines, refused.count)}).
        </strong>{' '}
        Go back to the columns and choose the country the locations are in, or add a Country column to the file.
      </div>
    );
  }
  if (country === null) return null;
  return (
    <p className="muted" data-testid="country-given">
      Rows without a country are in <strong>{regionName(country)}</strong> (chosen with the columns); a location that
      has a country keeps it.
    </p>
  );
}
