import { useEffect, useRef, useState } from 'react';
import { nameColumnOf, type ColumnMapping } from '../header-mapping.js';
import type { MappingCheck } from '../protocol.js';
import { plural } from '../../format.js';

/** Why every row would have a problem under this mapping, or null when some rows can be imported. */
export function everyRowFails(mapping: ColumnMapping, check: MappingCheck | null, rowCount: number): string | null {
  if (nameColumnOf(mapping) < 0) return 'no column is the name';
  if (check && rowCount > 0 && check.rowsWithoutName >= rowCount) return 'the name column is empty in every row';
  return null;
}

/**
 * The column step's way on: "Check 6 rows". When every row would be red it says so, and asks before
 * sending them.
 */
export function CheckButton({
  mapping,
  check,
  rowCount,
  onCheck,
}: {
  mapping: ColumnMapping;
  check: MappingCheck | null;
  rowCount: number;
  onCheck: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const reason = everyRowFails(mapping, check, rowCount);
  // The focus follows the question: to its first answer, and back to the button after it.
  const focused = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useEffect(() => {
    if (asking || answered.current) focused.current?.focus();
    answered.current = asking;
  }, [asking]);
  if (reason && asking) {
    return (
      <span className="check-confirm" role="group" aria-label="Check every row anyway?">
        <span role="status">Every row would have a problem: {reason}. Check them anyway?</span>
        <button ref={focused} type="button" className="button" onClick={() => setAsking(false)}>
          Back to the columns
        </button>
        <button type="button" className="button button-primary" onClick={onCheck}>
          Check anyway
        </button>
      </span>
    );
  }
  return (
    <button
      ref={focused}
      type="button"
      className={reason ? 'button button-warning' : 'button button-primary'}
      onClick={() => (reason ? setAsking(true) : onCheck())}
    >
      Check {plural(rowCount, 'row')}
      {reason && ` (every row would have a problem: ${reason})`}
    </button>
  );
}
