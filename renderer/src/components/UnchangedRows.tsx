import type { ListedRow } from '../import/protocol.js';
import { formatCount } from '../format.js';

/** Rows whose values equal the stored ones: nothing to write. */
export function UnchangedRows({ rows, total }: { rows: ListedRow[]; total: number }) {
  return (
    <section aria-labelledby="unchanged-title" className="preview-section">
      <h3 id="unchanged-title">Unchanged</h3>
      <p className="muted small">
        These rows match a location whose values are already the same; nothing is written for them.
      </p>
      <ul className="unchanged-rows" data-testid="unchanged-rows">
        {rows.map((row) => (
          <li key={row.row}>
            Line {formatCount(row.line)}: {row.name}
            {row.city && <span className="muted"> · {row.city}</span>}
          </li>
        ))}
      </ul>
      {total > rows.length && <p className="muted small">…and {formatCount(total - rows.length)} more.</p>}
    </section>
  );
}
