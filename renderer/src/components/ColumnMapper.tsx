import { TEXT_ENCODINGS, type TextEncodingName } from '../import/encodings.js';
import {
  TARGETS,
  FIELD_LABELS,
  isKnownButNotImported,
  nameColumnOf,
  type ColumnTarget,
} from '../import/header-mapping.js';
import type { FileSummary, MappingCheck } from '../import/protocol.js';
import type { ColumnMapping } from '../import/header-mapping.js';
import { formatBytes, formatCount, plural } from '../format.js';

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/** What was read: name, size, rows, delimiter, encoding (changeable), and lines that did not parse cleanly. */
function FileFacts({ file, onEncoding }: { file: FileSummary; onEncoding: (encoding: TextEncodingName) => void }) {
  return (
    <>
      <div className="file-facts">
        <span data-testid="file-facts">
          <strong>{file.name}</strong> · {formatBytes(file.size)} · {plural(file.rowCount, 'row')} ·{' '}
          {DELIMITER_NAMES[file.delimiter] ?? `“${file.delimiter}”`}-separated
        </span>
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
      </div>
      <p className="muted small">If letters such as é or ü look wrong in the samples, pick another encoding.</p>

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

/** One column of the file: its header, its first values, and the field it feeds. */
function MappingRow({
  header,
  column,
  samples,
  target,
  onRemap,
}: {
  header: string;
  column: number;
  samples: string[][];
  target: ColumnTarget;
  onRemap: (column: number, target: ColumnTarget) => void;
}) {
  const id = `map-column-${column}`;
  return (
    <tr className={target ? '' : 'unmapped'}>
      <th scope="row">
        <label htmlFor={id}>{header || <span className="muted">(no header, column {column + 1})</span>}</label>
      </th>
      <td className="samples">
        {samples
          .map((row) => row[column] ?? '')
          .filter((value) => value.trim() !== '')
          .slice(0, 3)
          .map((value, index) => (
            <span key={index} className="sample" title={value}>
              {value}
            </span>
          ))}
      </td>
      <td>
        <select
          id={id}
          value={target ?? ''}
          onChange={(event) => onRemap(column, (event.target.value || null) as ColumnTarget)}
        >
          <option value="">Don’t import</option>
          {TARGETS.map((field) => (
            <option key={field} value={field}>
              {FIELD_LABELS[field]}
            </option>
          ))}
        </select>
        {!target && isKnownButNotImported(header) && (
          <small className="muted block">Agency Desk does not store this.</small>
        )}
      </td>
    </tr>
  );
}

/** The file's columns beside the fields they feed; each mapping can be changed. */
export function ColumnMapper({
  file,
  mapping,
  check,
  onRemap,
  onEncoding,
}: {
  file: FileSummary;
  mapping: ColumnMapping;
  check: MappingCheck | null;
  onRemap: (column: number, target: ColumnTarget) => void;
  onEncoding: (encoding: TextEncodingName) => void;
}) {
  const hasName = nameColumnOf(mapping) >= 0;
  const addressColumns = mapping.filter((target) => target === 'address').length;
  return (
    <div className="mapper">
      <FileFacts file={file} onEncoding={onEncoding} />

      {!hasName && (
        <div className="notice notice-error" role="alert">
          <strong>No column holds the location name.</strong> In “Import as”, choose Name for the column with the names.
          Nothing is sent until a column is the name.
        </div>
      )}
      {hasName && check && check.rowsWithoutName > 0 && (
        <div className="notice notice-warning" role="status">
          {plural(check.rowsWithoutName, 'row')} {check.rowsWithoutName === 1 ? 'has' : 'have'} no name (line
          {check.firstLinesWithoutName.length > 1 ? 's' : ''} {check.firstLinesWithoutName.map(formatCount).join(', ')}
          {check.rowsWithoutName > check.firstLinesWithoutName.length ? ', …' : ''}). You can type a name or leave
          {check.rowsWithoutName === 1 ? ' it' : ' them'} out in the next step.
        </div>
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
              onRemap={onRemap}
            />
          ))}
        </tbody>
      </table>
      {addressColumns > 1 && (
        <p className="muted small">{addressColumns} columns feed Address; they are joined in file order with “, ”.</p>
      )}
    </div>
  );
}
