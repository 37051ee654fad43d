import { useState } from 'react';
import type { Changes, RowField } from '../../../server/locations/schemas.js';
import { cellText } from '../export/location-cells.js';
import { ROW_FIELD_LABELS } from '../import/header-mapping.js';
import type { UpdatedRow } from '../import/protocol.js';
import { formatCount } from '../format.js';
import { PAGE, ShowMore } from './ShowMore.js';
import { STATUS_WORDS } from '../locations/status-words.js';
import type { LocationRow } from '../api/types.js';
import { usePhoneText } from '../phone-text.js';
import { hoursChange } from '../hours-words.js';
import type { Hours } from '../../../server/locations/hours.js';

/** A value of the diff as the dashboard writes it: the export's cell, a status in words, a phone grouped. */
function valueText(field: string, value: unknown, phoneText: (phone: string) => string): string {
  if (field === 'status' && typeof value === 'string') return STATUS_WORDS[value as LocationRow['status']] ?? value;
  if (field === 'phone' && typeof value === 'string') return phoneText(value);
  return cellText(field, value);
}

/** Both sides of a change as text: hours by the days that change ("Sat 10:00–14:00" → "Sat not given"). */
function sidesText(field: string, { from, to }: Changes[string], phoneText: (phone: string) => string) {
  if (field === 'hours') return hoursChange(from as Hours | null, to as Hours | null);
  return { from: valueText(field, from, phoneText), to: valueText(field, to, phoneText) };
}

/** Each field a row changes: its stored value, struck through, and the file's. */
export function RowDiff({ changes }: { changes: Changes }) {
  const phoneText = usePhoneText();
  return (
    <dl className="row-diff">
      {Object.entries(changes).map(([field, change]) => {
        const sides = sidesText(field, change, phoneText);
        return (
          <div key={field} data-field={field}>
            <dt>{ROW_FIELD_LABELS[field as RowField] ?? field}</dt>
            <dd>
              <del>{sides.from || '(empty)'}</del>
              <span aria-label="becomes"> → </span>
              <ins>{sides.to || '(empty)'}</ins>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The rows that update a stored location, each with its changes. */
export function UpdatedRows({ rows, total }: { rows: UpdatedRow[]; total: number }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <section aria-labelledby="updated-title" className="preview-section">
      <h3 id="updated-title">Updates</h3>
      <ul className="updated-rows" data-testid="updated-rows">
        {rows.slice(0, shown).map((row) => (
          <li key={row.row} data-line={row.line}>
            <span className="problem-line">Line {formatCount(row.line)}</span> <strong>{row.name}</strong>
            {row.city && <span className="muted"> · {row.city}</span>}
            <RowDiff changes={row.changes} />
          </li>
        ))}
      </ul>
      {total > rows.length && <p className="muted small">The first {formatCount(rows.length)} are listed.</p>}
      <ShowMore total={rows.length} shown={shown} onMore={setShown} />
    </section>
  );
}
