import { useState } from 'react';
import type { TextEncodingName } from '../encodings.js';
import { nameColumnOf, type ColumnMapping, type ColumnTarget } from '../header-mapping.js';
import type { FileSummary, MappingCheck } from '../protocol.js';
import { linesWords, plural } from '../../format.js';
import { AddressSeparator, addressColumnsOf } from './AddressSeparator.js';
import { assignField } from './assign.js';
import type { ColumnOptions } from './column-options.js';
import { CountryChoice } from './CountryChoice.js';
import { FileFacts } from './FileFacts.js';
import { MappingRow } from './MappingRow.js';
import { PlaceholderList } from './PlaceholderList.js';
import { TakenFieldQuestion, type TakenField } from './TakenFieldQuestion.js';

/** What the name column's blanks mean for the rows: none has a name, or some lack one. */
function NameNotice({ mapping, check }: { mapping: ColumnMapping; check: MappingCheck | null }) {
  if (nameColumnOf(mapping) < 0) {
    return (
      <div className="notice notice-error" role="alert">
        <strong>No column holds the location name.</strong> In “Import as”, choose Name for the column with the names;
        without one, every row has a problem.
      </div>
    );
  }
  if (!check || check.rowsWithoutName === 0) return null;
  const lines = check.firstLinesWithoutName;
  return (
    <div className="notice notice-warning" role="status">
      {plural(check.rowsWithoutName, 'row')} {check.rowsWithoutName === 1 ? 'has' : 'have'} no name (
      {linesWords(lines, check.rowsWithoutName)}). You can type a name or leave
      {check.rowsWithoutName === 1 ? ' it' : ' them'} out in the next step.
    </div>
  );
}

/**
 * The file's columns beside the fields they feed; each can be changed, and a field another column
 * holds is never taken from it without asking.
 */
export function ColumnMapper({
  file,
  mapping,
  check,
  options,
  onMapping,
  onOptions,
  onEncoding,
}: {
  file: FileSummary;
  mapping: ColumnMapping;
  check: MappingCheck | null;
  options: ColumnOptions;
  onMapping: (mapping: ColumnMapping) => void;
  onOptions: (options: ColumnOptions) => void;
  onEncoding: (encoding: TextEncodingName) => void;
}) {
  const [question, setQuestion] = useState<TakenField | null>(null);
  const choose = (column: number, target: ColumnTarget) => {
    const assignment = assignField(mapping, column, target);
    if (assignment.kind === 'done') {
      setQuestion(null);
      onMapping(assignment.mapping);
    } else setQuestion(assignment);
  };
  const answer = (next: ColumnMapping | null) => {
    const column = question?.column;
    setQuestion(null);
    if (next) onMapping(next);
    if (column !== undefined) document.getElementById(`map-column-${column}`)?.focus();
  };
  return (
    <div className="mapper">
      <FileFacts file={file} onEncoding={onEncoding} />
      <NameNotice mapping={mapping} check={check} />
      {question && (
        <TakenFieldQuestion question={question} headers={file.headers} mapping={mapping} onAnswer={answer} />
      )}
      <table className="mapping-table">
        <thead>
          <tr>
            <th scope="col">Column in your file</th>
            <th scope="col">First values</th>
            <th scope="col">Import as</th>
          </tr>
        </thead>
        <tbody>
          {file.headers.map((header, column) => (
            <MappingRow
              key={column}
              header={header}
              column={column}
              samples={file.samples}
              target={mapping[column] ?? null}
              looksLike={file.looks[column] ?? null}
              onChoose={choose}
            />
          ))}
        </tbody>
      </table>
      {addressColumnsOf(mapping) > 1 && (
        <AddressSeparator sample={file.samples[0] ?? []} mapping={mapping} options={options} onOptions={onOptions} />
      )}
      <CountryChoice mapping={mapping} options={options} onOptions={onOptions} />
      <PlaceholderList options={options} onOptions={onOptions} />
    </div>
  );
}
