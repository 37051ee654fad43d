import { FIELD_LABELS, isKnownButNotImported, type ColumnTarget, type ImportTarget } from '../header-mapping.js';
import { FieldPicker } from './FieldPicker.js';

/** The first values of one column that are not blank. */
function ColumnSamples({ samples, column }: { samples: string[][]; column: number }) {
  return (
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
  );
}

/**
 * One column of the file: its header, its first values, and the field it feeds. A column left out whose
 * values look like a field says so, with a button that maps it in one click.
 */
export function MappingRow({
  header,
  column,
  samples,
  target,
  looksLike,
  onChoose,
}: {
  header: string;
  column: number;
  samples: string[][];
  target: ColumnTarget;
  /** The field the column's values look like, when it is left out. */
  looksLike: ImportTarget | null;
  onChoose: (column: number, target: ColumnTarget) => void;
}) {
  const headerId = `column-header-${column}`;
  const warn = target === null && looksLike !== null;
  return (
    <tr className={target ? '' : warn ? 'unmapped looks-like' : 'unmapped'}>
      <th scope="row" id={headerId}>
        {header || <span className="muted">(no header, column {column + 1})</span>}
      </th>
      <ColumnSamples samples={samples} column={column} />
      <td>
        <FieldPicker
          id={`map-column-${column}`}
          labelledBy={headerId}
          value={target}
          onCommit={(next) => onChoose(column, next)}
        />
        {warn && (
          <div className="looks-like-warning" data-testid={`looks-like-${column}`}>
            <span>Left out, yet its values look like {FIELD_LABELS[looksLike]}.</span>{' '}
            <button type="button" className="button button-small" onClick={() => onChoose(column, looksLike)}>
              Map as {FIELD_LABELS[looksLike]}
            </button>
          </div>
        )}
        {!target && !warn && isKnownButNotImported(header) && (
          <small className="muted block">Agency Desk does not store this.</small>
        )}
      </td>
    </tr>
  );
}
