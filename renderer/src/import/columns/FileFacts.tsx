import { TEXT_ENCODINGS, type TextEncodingName } from '../encodings.js';
import type { FileSummary } from '../protocol.js';
import { formatBytes, formatCount, plural } from '../../format.js';
import { LostLettersNotice } from './LostLettersNotice.js';

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/** A workbook's sheets not read, and why: "the sheet “Instructions” (no table of locations), the hidden sheet “Old”". */
function passedOverWords(sheets: NonNullable<FileSummary['passedOver']>): string {
  return sheets
    .map(({ name, hidden }) => (hidden ? `the hidden sheet “${name}”` : `the sheet “${name}” (no table of locations)`))
    .join(', ');
}

/** What was read: name, size, rows, delimiter, encoding (changeable), and lines that did not parse cleanly. */
export function FileFacts({
  file,
  onEncoding,
}: {
  file: FileSummary;
  onEncoding: (encoding: TextEncodingName) => void;
}) {
  const sheet = file.sheet;
  return (
    <>
      <div className="file-facts">
        <span data-testid="file-facts">
          <strong>{file.name}</strong> · {formatBytes(file.size)} · {plural(file.rowCount, 'row')} ·{' '}
          {sheet !== undefined
            ? `sheet “${sheet}”`
            : `${DELIMITER_NAMES[file.delimiter] ?? `“${file.delimiter}”`}-separated`}
          {file.headerLine > 1 &&
            ` · header on ${sheet !== undefined ? 'row' : 'line'} ${formatCount(file.headerLine)}, the ${sheet !== undefined ? 'rows' : 'lines'} above it left out`}
        </span>
        {sheet === undefined && (
          <label className="field field-inline">
            <span>Text encoding</span>
            <select value={file.encoding} onChange={(event) => onEncoding(event.target.value as TextEncodingName)}>
              {Object.entries(TEXT_ENCODINGS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {file.passedOver && (
        <p className="muted small" data-testid="sheets-passed-over">
          Not read: {passedOverWords(file.passedOver)}.
        </p>
      )}
      {file.farSheets?.map((far) => (
        <p key={far.name} className="notice notice-warning" data-testid="sheet-too-far">
          <strong>The sheet “{far.name}” was not read.</strong> {far.message}
        </p>
      ))}
      {sheet === undefined && (
        <p className="muted small">If letters such as é or ü look wrong in the samples, pick another encoding.</p>
      )}

      <LostLettersNotice lostLetters={file.lostLetters} />

      {file.problemCount > 0 && (
        <div className="notice notice-warning" data-testid="parse-problems">
          <strong>{plural(file.problemCount, 'line')} could not be read cleanly</strong>
          <ul>
            {file.problems.slice(0, 20).map((problem, index) => (
              <li key={index}>
                Line {formatCount(problem.line)}: {problem.message}
              </li>
            ))}
          </ul>
          {file.problemCount > 20 && <p>…and {formatCount(file.problemCount - 20)} more.</p>}
        </div>
      )}
    </>
  );
}
