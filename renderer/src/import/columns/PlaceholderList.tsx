import { useState } from 'react';
import { PLACEHOLDERS } from '../../../../server/imports/placeholders.js';
import { MAX_PLACEHOLDER, MAX_PLACEHOLDERS, sameWords, type ColumnOptions } from './column-options.js';

/**
 * The values read as empty in every column (server/imports/placeholders.ts), so that "N/A" is never
 * stored or scored; the user may take a word out ("NA" is Naples' province code in an Italian sheet)
 * or add one. The rows sent, and the rows flagged as not locations, follow this list.
 */
export function PlaceholderList({
  options,
  onOptions,
}: {
  options: ColumnOptions;
  onOptions: (options: ColumnOptions) => void;
}) {
  const [word, setWord] = useState('');
  const words = options.placeholders;
  const set = (placeholders: readonly string[]) => onOptions({ ...options, placeholders });
  const typed = word.trim();
  const listed = words.some((each) => each.toLowerCase() === typed.toLowerCase());
  const add = () => {
    if (typed === '' || listed || words.length >= MAX_PLACEHOLDERS) return;
    set([...words, typed]);
    setWord('');
  };
  return (
    <fieldset className="placeholder-list" data-testid="placeholders">
      <legend>Read as empty in every column</legend>
      <ul className="placeholder-words">
        {words.map((each) => (
          <li key={each}>
            <code>{each}</code>
            <button
              type="button"
              className="button button-quiet placeholder-remove"
              aria-label={`Remove ${each}`}
              onClick={() => set(words.filter((other) => other !== each))}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="placeholder-add">
        <label className="field-inline">
          <span>Add a word</span>
          <input
            value={word}
            maxLength={MAX_PLACEHOLDER}
            onChange={(event) => setWord(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              add();
            }}
          />
        </label>
        <button
          type="button"
          className="button"
          disabled={typed === '' || listed || words.length >= MAX_PLACEHOLDERS}
          onClick={add}
        >
          Add
        </button>
        {!sameWords(words, PLACEHOLDERS) && (
          <button type="button" className="button button-quiet" onClick={() => set(PLACEHOLDERS)}>
            Restore the default list
          </button>
        )}
      </div>
      <p className="muted small">
        Also a run of dashes or question marks while “-” or “?” is listed. “Country” keeps <code>NA</code> (Namibia).
      </p>
    </fieldset>
  );
}
