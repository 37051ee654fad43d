import { linesWords, plural } from '../../format.js';
import type { FileSummary } from '../protocol.js';

/**
 * Rows with a "?" where a letter should be (lost-letters.ts), said on the column step and again on the
 * preview, where the rows are imported (found by a walk: the preview said nothing, "0 rows have problems").
 */
export function LostLettersNotice({ lostLetters }: { lostLetters: FileSummary['lostLetters'] }) {
  const { count, lines, example } = lostLetters;
  if (count === 0) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid="lost-letters">
      <strong>
        {plural(count, 'row')} {count === 1 ? 'has' : 'have'} a ? where a letter should be
      </strong>{' '}
      ({linesWords(lines, count)}), such as “{example}”. The file was saved in an encoding without those letters, and
      Excel wrote ? for each: they are not in the file. In Excel, save the sheet as “CSV UTF-8 (Comma delimited)” and
      import that file.
    </div>
  );
}
