import { PLACEHOLDERS } from '../../../../server/imports/placeholders.js';

/**
 * The values the server reads as empty in every row (server/imports/placeholders.ts), so that "N/A" is
 * never stored or scored. Shown, not edited here: the dashboard's JSON import has no option for a list of
 * its own yet (a saved mapping's list applies to the text/csv upload).
 */
export function PlaceholderList() {
  return (
    <p className="muted small" data-testid="placeholders">
      Read as empty in every column:{' '}
      {PLACEHOLDERS.map((word, index) => (
        <span key={word}>
          {index > 0 && ', '}
          <code>{word}</code>
        </span>
      ))}
      , and a run of dashes or question marks (“Country” keeps <code>NA</code>, Namibia).
    </p>
  );
}
